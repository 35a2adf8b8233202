import Foundation
import KeychainTypes

/// Sealed attribute dictionaries in ``SecValueBinary``'s form (which must never change: digests
/// of stored items are made from it too).
enum SecValueCodec {
    static func encode(_ dictionary: [String: SecValue]) -> Data {
        Data(SecValueBinary.encode(.dictionary(dictionary)))
    }

    static func decode(_ data: Data) throws -> [String: SecValue] {
        var reader = SecValueBinary.Reader([UInt8](data))
        do {
            let dictionary = try reader.readDictionary()
            guard reader.isAtEnd else { throw SecValueBinary.Malformed("bytes follow the dictionary") }
            return dictionary
        } catch let malformed as SecValueBinary.Malformed {
            throw StoreFailure("sealed attributes cannot be read: \(malformed)")
        }
    }
}
