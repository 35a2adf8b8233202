import AppIdentity
import Foundation
import WorldFile

/// The worlds these tests draw: the demo's, read from the repository, and small ones built in code.
enum Fixtures {
    /// The repository's folder.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Tools/worlds/demo.yaml, loaded as kclab loads it.
    static func demo() throws -> World {
        try World.load(contentsOf: repository.appending(path: "Tools/worlds/demo.yaml"))
    }

    /// `world` with its apps and teams in another order, the same for the same `seed`.
    static func shuffled(_ world: World, seed: UInt64) -> World {
        var generator = SplitMix64(state: seed)
        var shuffled = world
        shuffled.apps.shuffle(using: &generator)
        shuffled.teams.shuffle(using: &generator)
        return shuffled
    }

    /// Entitlements naming `groups` as keychain access groups and `appGroups` as app groups.
    static func entitlements(groups: [String] = [], appGroups: [String] = []) -> Entitlements {
        var entitlements = Entitlements()
        if !groups.isEmpty { entitlements[EntitlementKey.keychainAccessGroups] = .array(groups.map(PlistValue.string)) }
        if !appGroups.isEmpty { entitlements[EntitlementKey.applicationGroups] = .array(appGroups.map(PlistValue.string)) }
        return entitlements
    }
}

/// A seeded generator, so that a shuffled world is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
