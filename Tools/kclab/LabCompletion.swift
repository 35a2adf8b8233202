import AppIdentity
import ArgumentParser
import Foundation
import LabControl
import WorldFile

/// Shell completion of device IDs and apps' bundle IDs from the lab the command line names
/// (`--state`, else `state`): the world file kclab up recorded.
enum LabCompletion {
    /// The value after `option` among the words typed so far.
    static func value(of option: String, in words: [String]) -> String? {
        guard let index = words.lastIndex(of: option), index + 1 < words.count else { return nil }
        return words[index + 1]
    }

    /// The world of the lab the words name, if one was started there.
    static func world(_ words: [String]) -> World? {
        let lab = LabState(root: URL(fileURLWithPath: value(of: "--state", in: words) ?? "state"))
        return lab.worldFile(given: nil).flatMap { try? World.load(contentsOf: $0) }
    }

    /// What is typed of the word being completed.
    static func typed(_ words: [String], _ index: Int, _ prefix: String) -> String {
        prefix.isEmpty && words.indices.contains(index) ? words[index] : prefix
    }

    /// Device IDs starting with what is typed.
    static let devices = CompletionKind.custom { words, index, prefix in
        let typed = typed(words, index, prefix)
        return (world(words)?.devices.map(\.id) ?? []).filter { $0.hasPrefix(typed) }
    }

    /// The bundle IDs of the apps on the device typed (every app of the world without one).
    static let apps = CompletionKind.custom { words, index, prefix in
        guard let world = world(words) else { return [] }
        let typed = typed(words, index, prefix)
        let device = value(of: "--device", in: words).flatMap { world.device($0) }
        let apps = device.map { $0.apps.map(\.rawValue) } ?? Array(Set(world.apps.map(\.bundleID.rawValue))).sorted()
        return (apps + ["browser"]).filter { $0.hasPrefix(typed) }
    }
}
