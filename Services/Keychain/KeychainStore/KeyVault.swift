import Crypto
public import Foundation
import KeychainTypes
import Synchronization

/// The keys that seal each keychain's items, kept outside the database: one random 256-bit master
/// key per keychain in a folder of its own (mode 0700, each file 0600). From it come, by HKDF, the
/// AES-GCM key that seals attributes and data and the HMAC key that makes lookup columns.
///
/// Stealing the database without this folder yields no secret and no attribute value.
public final class KeyVault: Sendable {
    /// The keys of one keychain.
    struct Keys: Sendable {
        let seal: SymmetricKey
        /// An HMAC already keyed with the index key: each digest copies it rather than keying anew.
        let index: HMAC<SHA256>
    }

    private let directory: URL
    private let cache = Mutex<[String: Keys]>([:])

    /// A vault in `directory`, created if needed.
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The keys of `keychain`, made the first time they are needed.
    func keys(for keychain: String) throws -> Keys {
        if let keys = cache.withLock({ $0[keychain] }) { return keys }
        let master = try masterKey(for: keychain)
        let keys = Keys(
            seal: HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("keychainlab.seal".utf8), outputByteCount: 32),
            index: HMAC<SHA256>(key: HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("keychainlab.index".utf8), outputByteCount: 32))
        )
        cache.withLock { $0[keychain] = keys }
        return keys
    }

    private func masterKey(for keychain: String) throws -> SymmetricKey {
        let url = file(for: keychain)
        if let bytes = try? Data(contentsOf: url) {
            guard bytes.count == 32 else { throw StoreFailure("the key file \(url.lastPathComponent) is damaged") }
            return SymmetricKey(data: bytes)
        }
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Data($0) }
        let temporary = url.appendingPathExtension("tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
            throw StoreFailure("cannot write a key into \(directory.path)")
        }
        // Two writers racing: link(2) lets exactly one key win, and both then read that one.
        if link(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            return try masterKey(for: keychain)
        }
        try? FileManager.default.removeItem(at: temporary)
        return key
    }

    /// The file name is a digest of the keychain's name, so the folder names no device or account.
    private func file(for keychain: String) -> URL {
        let digest = SHA256.hash(data: Data(keychain.utf8)).map { String(format: "%02x", $0) }.joined()
        return directory.appending(path: "\(digest).key")
    }
}

/// A failure of the store's own machinery, reported as a ``KeychainItems/StoreError``.
struct StoreFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
