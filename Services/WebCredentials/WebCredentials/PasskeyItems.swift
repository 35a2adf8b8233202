public import Foundation
public import KeychainTypes

/// A passkey's private key in the keychain: a synchronizable generic password in
/// `com.apple.webkit.webauthn` (so it follows the iCloud account to its other devices), its
/// service the relying party, its account the credential ID, its label the user name, its generic
/// attribute the user handle. keychaind seals its data at rest; it never leaves the system service.
public enum PasskeyItems {
    public static let group = "com.apple.webkit.webauthn"

    /// Every passkey of `relyingParty` (or one credential), with attributes and key.
    public static func query(relyingParty: String, credentialID: String? = nil) -> [String: SecValue] {
        var query: [String: SecValue] = [
            "class": .string("genp"), "agrp": .string(group), "svce": .string(relyingParty), "sync": .bool(true),
            "r_Attributes": .bool(true), "r_Data": .bool(true), "m_Limit": .string("m_LimitAll"),
        ]
        if let credentialID { query["acct"] = .string(credentialID) }
        return query
    }

    /// Every passkey of `relyingParty`, attributes only: no key leaves the keychain.
    public static func listing(relyingParty: String) -> [String: SecValue] {
        query(relyingParty: relyingParty).filter { $0.key != "r_Data" }
    }

    /// The item a new passkey is stored as.
    public static func newItem(relyingParty: String, credentialID: String, userName: String, userID: Data, key: Data) -> [String: SecValue] {
        [
            "class": .string("genp"), "agrp": .string(group), "svce": .string(relyingParty), "sync": .bool(true),
            "acct": .string(credentialID), "labl": .string(userName), "gena": .data(userID), "pdmn": .string("ak"),
            "v_Data": .data(key),
        ]
    }

    /// A stored passkey, read back.
    public struct Stored: Sendable {
        public let credentialID: String
        public let userName: String
        public let userID: Data
        public let key: Data
    }

    /// The passkeys of a CopyMatching answer (an empty list for anything else).
    public static func list(_ result: SecValue?) -> [Stored] {
        guard case .array(let items)? = result else { return [] }
        return items.compactMap { item in
            guard case .dictionary(let attributes) = item, case .string(let id)? = attributes["acct"], case .data(let key)? = attributes["v_Data"]
            else { return nil }
            let name: String =
                switch attributes["labl"] {
                case .string(let text)?: text
                default: ""
                }
            let handle: Data =
                switch attributes["gena"] {
                case .data(let bytes)?: bytes
                default: Data()
                }
            return Stored(credentialID: id, userName: name, userID: handle, key: key)
        }
    }
}
