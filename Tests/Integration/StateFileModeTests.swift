import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// What the services and devices write is their owner's alone: no file or folder another user
/// of the machine can read, save an installed bundle's app user's group when the lab runs as root
/// (docs/reliability.md, "Apps in a sandbox").
@Suite(.serialized) struct StateFileModeTests {
    typealias W = IntegrationWorlds

    @Test func everyStateFileIsTheOwnersAlone() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            _ = try lab.status(.add, on: W.phone, as: "com.example.AppOne", ["class": .string("genp"), "acct": .string("mode")])
            var checked = 0
            for folder in [lab.state.keychaind, lab.state.associationd, lab.state.webcredentiald, lab.state.device(W.phone)] {
                let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
                while let url = enumerator?.nextObject() as? URL {
                    guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
                        // An atomic write's temporary file, renamed into place after it was listed
                        // (the file it became is listed under its own name); anything else fails.
                        #expect(!FileManager.default.fileExists(atPath: url.path), "cannot read \(url.path)")
                        continue
                    }
                    let mode = try #require(attributes[.posixPermissions] as? Int)
                    if geteuid() == 0, Self.isInstalledBundle(url, device: lab.state.device(W.phone)) {
                        // Run as root, an app runs as a user of its own, whose group alone may read
                        // (and execute) its installed bundle: never write it, and no one else.
                        let group = try #require(attributes[.groupOwnerAccountID] as? Int)
                        #expect(mode & 0o027 == 0 && group >= 1_500_000_000, "\(url.path) has mode \(String(mode, radix: 8)), group \(group)")
                    } else {
                        #expect(mode & 0o077 == 0, "\(url.path) has mode \(String(mode, radix: 8))")
                    }
                    checked += 1
                }
            }
            #expect(checked > 10, "the keychain database, keys, endpoint files, installed apps")
        }
    }

    /// Whether `url` is inside (or is) a bundle installed in `device`'s apps folder.
    static func isInstalledBundle(_ url: URL, device: URL) -> Bool {
        let apps = device.appending(path: "apps").standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(apps) else { return false }
        return path.dropFirst(apps.count).split(separator: "/").first?.hasSuffix(".app") == true
    }
}
