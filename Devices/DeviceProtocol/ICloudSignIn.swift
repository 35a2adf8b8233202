public import Foundation

/// The iCloud account a device is signed in to when `kclab device icloud sign-out|sign-in`
/// changed it from the one the world starts it with: `icloud-account.json` in the device's
/// state folder, read by the device when it starts (docs/icloud-keychain.md, "Signing out and
/// in"). No file: the world's account.
public struct ICloudSignIn: Codable, Hashable, Sendable {
    /// The account; nil when signed out.
    public var account: String?

    public static let fileName = "icloud-account.json"
    /// The device's iCloud Keychain engines as last saved (sealed with the account's key),
    /// beside this file in its state folder: forgotten when the account changes.
    public static let keychainStateFileName = "icloud-keychain.sealed"

    public init(account: String?) {
        self.account = account
    }

    /// What the device's state folder says; nil when it says nothing (or nothing readable).
    public static func read(deviceState: URL) -> ICloudSignIn? {
        guard let data = try? Data(contentsOf: deviceState.appending(path: fileName)) else { return nil }
        return try? JSONDecoder().decode(ICloudSignIn.self, from: data)
    }

    public func write(deviceState: URL) throws {
        try JSONEncoder().encode(self).write(to: deviceState.appending(path: Self.fileName), options: .atomic)
    }

    /// The account a device is signed in to: the state folder's word, else the world's.
    public static func account(deviceState: URL, worldAccount: String?) -> String? {
        read(deviceState: deviceState).map(\.account) ?? worldAccount
    }
}
