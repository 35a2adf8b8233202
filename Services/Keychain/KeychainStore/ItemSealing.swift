import Crypto
import Foundation
import KeychainItems
import KeychainTypes

/// How one item becomes a row: sealed attributes and data, and keyed lookup digests.
struct ItemSealing {
    let keys: KeyVault.Keys

    /// Binds ciphertext to its row: moving a sealed blob to another row makes it unreadable.
    static func context(_ uuid: UUID, _ itemClass: ItemClass, _ keychain: String) -> Data {
        var bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        bytes.append(Data(itemClass.rawValue.utf8))
        bytes.append(Data(keychain.utf8))
        return bytes
    }

    func seal(_ plaintext: Data, context: Data) throws -> Data {
        guard let combined = try AES.GCM.seal(plaintext, using: keys.seal, authenticating: context).combined else {
            throw StoreFailure("AES-GCM produced no ciphertext")
        }
        return combined
    }

    func open(_ sealed: Data, context: Data) throws -> Data {
        try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: keys.seal, authenticating: context)
    }

    /// A 16-byte keyed digest of typed values, for lookups and uniqueness without plaintext.
    func digest(_ values: [SecValue]) -> Data {
        var hmac = keys.index
        hmac.update(data: SecValueBinary.encode(.dictionary(["v": .array(values)])))
        return Data(hmac.finalize()).prefix(16)
    }
}
