public import Crypto
public import Foundation
public import KeychainItems
import KeychainTypes

/// Seals a synced item for the cloud with the account's key (AES-GCM, the record's UUID as
/// associated data), so cloudd keeps records it cannot read, and opens what other devices of
/// the account sealed. CKKS seals each item under a class key wrapped by the zone's TLK; the lab
/// keeps one key per account.
public struct ItemSealer: Sendable {
    private let key: SymmetricKey

    public init(key: SymmetricKey) {
        self.key = key
    }

    /// A sealer with the account's 256-bit key as the world builder wrote it.
    public init(keyData: Data) throws {
        guard keyData.count == 32 else { throw Failure.notAKey(keyData.count) }
        key = SymmetricKey(data: keyData)
    }

    private struct Sealed: Codable {
        let itemClass: String
        let attributes: [String: SecValue]
        let data: Data?
    }

    public enum Failure: Error, Sendable, Equatable {
        /// The payload was not sealed with this account's key for this record, or was altered.
        case cannotOpen(UUID)
        /// The account's key is not 32 bytes.
        case notAKey(Int)
    }

    public func seal(_ item: KeychainItem) throws -> Data {
        let plaintext = try JSONEncoder().encode(Sealed(itemClass: item.itemClass.rawValue, attributes: item.attributes, data: item.data))
        guard let sealed = try? seal(plaintext, context: item.uuid.uuidString) else { throw Failure.cannotOpen(item.uuid) }
        return sealed
    }

    public func open(_ payload: Data, uuid: UUID) throws -> KeychainItem {
        do {
            let plaintext = try open(payload, context: uuid.uuidString)
            let sealed = try JSONDecoder().decode(Sealed.self, from: plaintext)
            guard let itemClass = ItemClass(rawValue: sealed.itemClass) else { throw Failure.cannotOpen(uuid) }
            return KeychainItem(keychain: "", itemClass: itemClass, uuid: uuid, attributes: sealed.attributes, data: sealed.data)
        } catch {
            throw Failure.cannotOpen(uuid)
        }
    }

    /// Seals `plaintext` so that only this key opens it, and only for `context` (the associated
    /// data: a record's UUID, or what a saved file is).
    public func seal(_ plaintext: Data, context: String) throws -> Data {
        guard let combined = try AES.GCM.seal(plaintext, using: key, authenticating: Data(context.utf8)).combined else {
            throw CryptoKitError.incorrectParameterSize
        }
        return combined
    }

    /// What ``seal(_:context:)`` sealed; throws when `payload` was sealed with another key or for
    /// another context, or was altered.
    public func open(_ payload: Data, context: String) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: payload), using: key, authenticating: Data(context.utf8))
    }
}
