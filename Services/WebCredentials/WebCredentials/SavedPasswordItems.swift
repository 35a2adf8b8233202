import Foundation
public import KeychainTypes

/// The keychain items behind shared web credentials: internet passwords in `com.apple.cfnetwork`,
/// the ones Safari saves (spec associations.md d.3 steps 5–7).
public enum SavedPasswordItems {
    /// The account of Safari's "never save a password for this site" marker.
    public static let neverSavedAccount = "Passwords not saved"
    /// The comment a shared-credential save writes; such items are offered first.
    public static let defaultComment = "default"
    /// `kSecAttrCreator` 'swca', as a FourCharCode.
    public static let creator: Int64 = 0x7377_6361

    /// The lookup of d.3 step 6: class, group, HTML-form authentication, server, the account and
    /// port when given, synchronizable.
    public static func query(host: String, account: String?, port: Int?) -> [String: SecValue] {
        var query: [String: SecValue] = [
            "class": .string("inet"),
            "agrp": .string("com.apple.cfnetwork"),
            "atyp": .string("form"),
            "srvr": .string(host),
            "sync": .bool(true),
        ]
        if let account { query["acct"] = .string(account) }
        if let port { query["port"] = .integer(Int64(port)) }
        return query
    }

    /// `query` asking for every match with its attributes and password.
    public static func copyAll(_ query: [String: SecValue]) -> [String: SecValue] {
        query.merging(["r_Attributes": .bool(true), "r_Data": .bool(true), "m_Limit": .string("m_LimitAll")]) { $1 }
    }

    /// The item an approved add stores (d.3 step 7).
    public static func newItem(host: String, account: String, port: Int?, password: String) -> [String: SecValue] {
        query(host: host, account: account, port: port).merging([
            "ptcl": .string("htps"),
            "icmt": .string(defaultComment),
            "labl": .string("\(host) (\(account))"),
            "crtr": .integer(creator),
            "v_Data": .data(Data(password.utf8)),
        ]) { $1 }
    }

    /// What an approved update changes: the password, and the comment back to `default`.
    public static func changes(password: String) -> [String: SecValue] {
        ["v_Data": .data(Data(password.utf8)), "icmt": .string(defaultComment)]
    }
}

/// A saved password as the broker reads it back from keychaind.
public struct SavedPassword: Hashable, Sendable {
    public let host: String
    public let account: String
    public let port: Int?
    public let password: String
    public let comment: String?

    /// Reads one result dictionary (attributes and `v_Data`); `nil` when it lacks a part.
    public init?(_ value: SecValue) {
        guard case .dictionary(let attributes) = value, case .string(let host)? = attributes["srvr"],
            case .string(let account)? = attributes["acct"], case .data(let data)? = attributes["v_Data"]
        else { return nil }
        self.host = host
        self.account = account
        self.password = String(decoding: data, as: UTF8.self)
        if case .integer(let port)? = attributes["port"], port != 0 { self.port = Int(port) } else { self.port = nil }
        if case .string(let comment)? = attributes["icmt"] { self.comment = comment } else { self.comment = nil }
    }

    /// Every saved password in a `copyAll` result.
    public static func list(_ result: SecValue?) -> [SavedPassword] {
        switch result {
        case .array(let elements)?: elements.compactMap(SavedPassword.init)
        case let single?: SavedPassword(single).map { [$0] } ?? []
        case nil: []
        }
    }
}
