import Crypto
import CryptoExtras
import Foundation
import ServiceSupport

/// The lock of each Mac's login keychain, kept by keychaind as securityd keeps it: locked or
/// unlocked, and opened only with the user's password. keychaind never stores the password, only
/// a verifier of it (an HMAC under a PBKDF2-SHA256 key: salted, 210,000 rounds), in `STATE/login-keychains.json`.
///
/// A login keychain comes into being at the user's first login (the device's first unlock), with
/// the password given then, as macOS creates `login.keychain-db` with the account's password.
final class LoginKeychains: Sendable {
    struct Entry: Codable, Sendable, Equatable {
        var salt: Data
        var verifier: Data
        var rounds: Int
        var isLocked: Bool
    }

    /// What an unlock came to.
    enum Unlock: Equatable {
        case unlocked
        /// The password is not the keychain's (errSecAuthFailed); the keychain stays as it was.
        case wrongPassword
    }

    /// Passwords longer than this are refused unread (every input has a bound).
    static let maximumPasswordLength = 1024
    /// OWASP's floor for PBKDF2-HMAC-SHA256, which swift-crypto enforces too.
    static let rounds = 210_000
    static let maximumFileSize = 1 << 20

    private let entries: KeyedStateFile<Entry>

    /// The locks kept in `file` (read back when it exists), or in memory only.
    init(file: URL? = nil) {
        entries = KeyedStateFile(file: file, maximumSize: Self.maximumFileSize)
    }

    /// Whether `device`'s login keychain is locked; one that does not exist yet is not.
    func isLocked(device: String) -> Bool {
        entries[device]?.isLocked ?? false
    }

    /// Whether `device` has a login keychain yet.
    func exists(device: String) -> Bool {
        entries[device] != nil
    }

    /// Unlocks `device`'s login keychain with `password`, creating the keychain with it when there
    /// is none yet (the user's first login).
    func unlock(device: String, password: String) throws -> Unlock {
        let known = entries[device]
        guard let known else {
            let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
            let entry = Entry(salt: salt, verifier: try Self.verifier(password, salt: salt), rounds: Self.rounds, isLocked: false)
            entries.update(device) { $0 = $0 ?? entry }
            return .unlocked
        }
        let key = try Self.derive(password, salt: known.salt, rounds: known.rounds)
        guard HMAC<SHA256>.isValidAuthenticationCode(known.verifier, authenticating: Self.verifierLabel, using: key) else {
            return .wrongPassword
        }
        entries.update(device) { $0?.isLocked = false }
        return .unlocked
    }

    /// Locks `device`'s login keychain; `false` when it has none yet.
    func lock(device: String) -> Bool {
        entries.update(device) { entry in
            entry?.isLocked = true
            return entry != nil
        }
    }

    /// What the verifier authenticates, under the key derived from the password.
    private static let verifierLabel = Data("keychainlab.login-keychain".utf8)

    /// The verifier of `password`: an HMAC under its derived key, compared in constant time by
    /// swift-crypto when checked.
    private static func verifier(_ password: String, salt: Data) throws -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: verifierLabel, using: try derive(password, salt: salt, rounds: rounds)))
    }

    private static func derive(_ password: String, salt: Data, rounds: Int) throws -> SymmetricKey {
        try KDF.Insecure.PBKDF2.deriveKey(
            from: Data(password.utf8),
            salt: salt,
            using: .sha256,
            outputByteCount: 32,
            rounds: max(rounds, Self.rounds)
        )
    }
}
