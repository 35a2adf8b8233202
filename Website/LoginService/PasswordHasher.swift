import Crypto
import CryptoExtras
import Foundation

/// Passwords as salted scrypt hashes (swift-crypto's BoringSSL scrypt), never anything else:
/// `scrypt$LOGN$R$P$SALT$HASH` with the salt and hash in base64, so the work factor of each hash
/// travels with it and can be raised later.
public struct PasswordHasher: Sendable {
    /// scrypt's N is 2^logN; the default, 2^15 with r 8, needs 32 MiB and tens of milliseconds.
    public let logN: Int
    public let blockSize: Int
    public let parallelism: Int

    public init(logN: Int = 15, blockSize: Int = 8, parallelism: Int = 1) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// A new salted hash of `password`.
    public func hash(_ password: String) throws -> String {
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let derived = try Self.derive(password, salt: salt, logN: logN, r: blockSize, p: parallelism)
        return ["scrypt", "\(logN)", "\(blockSize)", "\(parallelism)", salt.base64EncodedString(), derived.base64EncodedString()].joined(
            separator: "$"
        )
    }

    /// Whether `password` produced `encoded`, compared in constant time. A malformed hash never matches.
    public func verify(_ password: String, against encoded: String) -> Bool {
        let parts = encoded.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt", let logN = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
            (10...20).contains(logN), (1...32).contains(r), (1...16).contains(p),
            let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5]),
            let derived = try? Self.derive(password, salt: salt, logN: logN, r: r, p: p)
        else { return false }
        return Self.constantTimeEqual(derived, expected)
    }

    /// Does the work of a verification for an account that does not exist, so that the answer
    /// takes as long as for one that does.
    public func burn(_ password: String) {
        _ = try? Self.derive(password, salt: Data(repeating: 0, count: 16), logN: logN, r: blockSize, p: parallelism)
    }

    private static func derive(_ password: String, salt: Data, logN: Int, r: Int, p: Int) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(
            from: Data(password.utf8),
            salt: salt,
            outputByteCount: 32,
            rounds: 1 << logN,
            blockSize: r,
            parallelism: p
        )
        return key.withUnsafeBytes { Data($0) }
    }

    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
