import Foundation
import KeychainTypes

/// Identities (spec keychain.md §2.1): no table of their own, but each certificate joined with the
/// private key (`priv` = 1) whose application label `klbl` is the certificate's public-key hash
/// `pkhh`, as securityd's identity query does (`… FROM keys, cert WHERE keys.priv == 1 AND
/// cert.pkhh == keys.klbl`). An identity exists while both halves do and the caller may read both.
struct IdentityJoin {
    /// One identity and the two stored items it is made of.
    struct Pair {
        let certificate: KeychainItem
        let key: KeychainItem

        /// The identity as a result record: the key's attributes and data with the certificate's
        /// attributes laid over them, under the certificate's persistent reference.
        var identity: KeychainItem {
            KeychainItem(
                keychain: certificate.keychain,
                itemClass: .identity,
                uuid: certificate.uuid,
                attributes: key.attributes.merging(certificate.attributes) { $1 },
                data: key.data
            )
        }
    }

    /// The attributes securityd's identity view takes from the certificate (and its access-group
    /// condition); every other attribute is the key's.
    static let certificateColumns: Set<String> = ["labl", "issr", "slnr", "skid", "tkid", "agrp"]

    /// The identities `filter` (an identity-class filter) selects, in certificate order.
    static func pairs(matching filter: ItemFilter, in reader: any ItemReading) throws -> [Pair] {
        var certificates = filter
        certificates.itemClass = .certificate
        certificates.attributes = [:]
        certificates.limit = nil
        var keys = certificates
        keys.itemClass = .key
        keys.uuid = nil
        let privateKeys = try reader.items(matching: keys).filter(isPrivate)
        var found: [Pair] = []
        for certificate in try reader.items(matching: certificates) {
            guard let hash = certificate.attributes["pkhh"].flatMap(bytes) else { continue }
            for key in privateKeys where key.attributes["klbl"].flatMap(bytes) == hash {
                let pair = Pair(certificate: certificate, key: key)
                guard matches(pair, filter.attributes) else { continue }
                found.append(pair)
                if let limit = filter.limit, found.count >= limit { return found }
            }
        }
        return found
    }

    /// A private key: `priv` 1, or, when `priv` was never set, key class private (`kcls` 1), as a
    /// key SecKey stores is marked.
    private static func isPrivate(_ key: KeychainItem) -> Bool {
        if let flag = key.attributes["priv"] { return flag == .integer(1) }
        return key.attributes["kcls"] == .integer(1)
    }

    /// Whether the pair has every attribute the query names, each looked up where the view takes it.
    private static func matches(_ pair: Pair, _ attributes: [String: SecValue]) -> Bool {
        attributes.allSatisfy { code, value in
            let source = certificateColumns.contains(code) || ItemClass.key.schema[code] == nil ? pair.certificate : pair.key
            return source.attributes[code] == value
        }
    }

    /// A blob attribute's bytes, whether the caller stored it as data or as text.
    private static func bytes(_ value: SecValue) -> Data? {
        switch value {
        case .data(let data): data
        case .string(let text): Data(text.utf8)
        default: nil
        }
    }
}
