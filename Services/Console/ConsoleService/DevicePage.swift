import AppIdentifiers
import AppIdentity
import Foundation
public import KeychainAPI
public import WorldFile

/// The Device page's view model: a device of the world, its apps, and its items grouped by access
/// group (class, service and account or server, accessibility, synchronizable, created), a Mac's
/// login keychain beside its data-protection keychain. Item metadata only: the console never asks
/// keychaind for a value, so none reaches the browser.
///
/// Plain values only, none optional (see ``WorldPage``); the template escapes every one.
public struct DevicePage: Sendable {
    public var world: String
    public var navigation: [NavigationLink]
    public var name: String
    public var udid: String
    /// `iOS 17.4`.
    public var system: String
    /// `alice@example.com`, or `no iCloud account`.
    public var account: String
    /// `a passcode`, or `no passcode (never locks)`.
    public var passcode: String
    /// The apps installed, by bundle ID.
    public var apps: [String]
    /// The device's items, by keychain then group.
    public var groups: [GroupRow]
    public var hasGroups: Bool
    /// `7 items in 3 groups.`
    public var summary: String
    /// Why keychaind could not be read, or empty.
    public var failure: String
    public var hasFailure: Bool

    /// The items of one access group in one keychain.
    public struct GroupRow: Sendable {
        /// `data protection` or `login`.
        public var keychain: String
        public var group: String
        public var items: [ItemRow]
    }

    /// One item's metadata.
    public struct ItemRow: Sendable {
        /// `genp`, `inet`, …
        public var itemClass: String
        /// `service / account`, or `server / account`.
        public var what: String
        public var protection: String
        /// `synchronizable` or `this device`.
        public var sync: String
        public var created: String
    }

    /// The page of `device`, with its items as keychaind listed them (or why it did not).
    public init(world: String, device: Device, items: Result<KeychainAPI.AdminItems, any Error>) {
        self.world = world
        navigation = NavigationLink.all(current: .devices)
        name = device.id
        udid = device.udid
        system = "\(device.platform == .macos ? "macOS" : "iOS") \(device.osVersion)"
        account = device.iCloudAccount ?? "no iCloud account"
        passcode = device.passcode == nil ? "no passcode (never locks)" : "a passcode"
        apps = device.apps.map(\.rawValue)
        var found: [KeychainAPI.AdminItem] = []
        switch items {
        case .success(let answer):
            found = answer.items
            failure = ""
        case .failure(let error):
            failure = "keychaind did not answer: \(error)"
        }
        hasFailure = !failure.isEmpty
        let grouped = Dictionary(grouping: found) { "\($0.keychain)\u{0}\($0.group)" }
        groups = grouped.keys.sorted().compactMap { key in
            guard let items = grouped[key], let first = items.first else { return nil }
            return GroupRow(
                keychain: first.keychain.hasPrefix("login:") ? "login" : "data protection",
                group: first.group,
                items: items.map(Self.row).sorted { ($0.itemClass, $0.what) < ($1.itemClass, $1.what) }
            )
        }
        hasGroups = !groups.isEmpty
        summary = "\(Self.count(found.count, "item")) in \(Self.count(groups.count, "group"))."
    }

    /// `1 item`, `3 items`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private static func row(_ item: KeychainAPI.AdminItem) -> ItemRow {
        ItemRow(
            itemClass: item.itemClass,
            what: [item.server ?? item.service, item.account].compactMap { $0 }.joined(separator: " / "),
            protection: item.protection ?? "",
            sync: item.synchronizable ? "synchronizable" : "this device",
            created: item.created.map { $0.formatted(.iso8601) } ?? ""
        )
    }
}

/// The Devices page's view model: every device of the world, each a link to its page.
public struct DevicesPage: Sendable {
    public var world: String
    public var navigation: [NavigationLink]
    public var devices: [Row]

    /// One device.
    public struct Row: Sendable {
        public var name: String
        public var href: String
        public var system: String
        public var account: String
        public var apps: Int
    }

    /// The page of `devices`.
    public init(world: String, devices: [Device]) {
        self.world = world
        navigation = NavigationLink.all(current: .devices)
        self.devices = devices.map { device in
            Row(
                name: device.id,
                href: "/devices/\(device.id)",
                system: "\(device.platform == .macos ? "macOS" : "iOS") \(device.osVersion)",
                account: device.iCloudAccount ?? "no iCloud account",
                apps: device.apps.count
            )
        }
    }
}
