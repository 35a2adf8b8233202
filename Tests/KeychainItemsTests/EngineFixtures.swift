import AppIdentity
import Foundation
import KeychainItems
import KeychainTypes

/// Clients and dictionaries for the engine's tests.
enum Fixtures {
    static let shared = "ABCDE12345.com.example.SharedItems"
    static let appOne = "ABCDE12345.com.example.AppOne"
    static let appTwo = "ABCDE12345.com.example.AppTwo"
    static let suite = "group.com.example.AppSuite"
    static let other = "OTHER98765.com.other.Snooper"

    static func client(
        _ groups: [String],
        platform: Platform = .ios,
        version: String = "17.4",
        device: String = "device-1",
        locked: Bool = false,
        passcode: Bool = true
    ) -> ClientContext {
        ClientContext(
            caller: groups.first(where: { !$0.hasPrefix("group.") }).flatMap { try? AppID($0) }.map(Caller.app) ?? .system("none"),
            entitledGroups: groups.map { try! AccessGroup($0) },
            device: DeviceState(platform: platform, osVersion: try! OSVersion(version), hasPasscode: passcode, isLocked: locked),
            deviceKeychain: device
        )
    }

    /// App One of seed 000: the shared keychain group, its own, the app group.
    static let one = client([shared, appOne, suite])
    /// App Two: the shared keychain group and its own.
    static let two = client([shared, appTwo])
    /// The other team's app.
    static let snooper = client([other])

    static func password(_ account: String = "alice", _ extra: [String: SecValue] = [:], service: String = "com.example.token") -> [String: SecValue]
    {
        var dictionary: [String: SecValue] = [
            "class": .string("genp"),
            "acct": .string(account),
            "svce": .string(service),
            "v_Data": .data(Data("s3cret-\(account)".utf8)),
        ]
        dictionary.merge(extra) { $1 }
        return dictionary
    }

    static func password(_ extra: [String: SecValue]) -> [String: SecValue] {
        password("alice", extra)
    }

    static func query(_ extra: [String: SecValue] = [:]) -> [String: SecValue] {
        var dictionary: [String: SecValue] = ["class": .string("genp")]
        dictionary.merge(extra) { $1 }
        return dictionary
    }

    static func engine() -> KeychainEngine {
        KeychainEngine(store: InMemoryItemStore())
    }
}
