import Foundation
import WorldBuilder
import WorldFile
import WorldLayout

extension FuzzTarget {
    /// Every target, the world-yaml one growing from `worldFile` (a minimal world when it cannot
    /// be read).
    public static func all(worldFile: String) throws -> [FuzzTarget] {
        let demo = (try? String(contentsOfFile: worldFile, encoding: .utf8)) ?? "name: fuzz\nteams: []\napps: []\ndevices: []\n"
        return all(demoWorld: demo, signedFiles: try signedFiles())
    }

    /// A profile and a code signature of a small world built in a temporary folder: real CMS
    /// SignedData for the cms target to grow from.
    static func signedFiles() throws -> [[UInt8]] {
        let folder = FileManager.default.temporaryDirectory.appending(path: "kclab-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = """
            name: fuzz
            teams: [{id: ABCDE12345, name: Fuzz}]
            apps:
              - {bundleID: com.example.Fuzz, team: ABCDE12345, entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)shared]}}
            devices: []
            """
        let world = try World.parse(yaml: yaml, file: "seed.yaml")
        _ = try WorldBuilder(world: world, output: folder).build()
        guard let app = world.apps.first else { return [] }
        let bundle = folder.appending(path: WorldLayout.bundle(for: app))
        return [
            Array(try Data(contentsOf: bundle.appending(path: "embedded.mobileprovision"))),
            Array(try Data(contentsOf: bundle.appending(path: "_CodeSignature/CodeSignature"))),
        ]
    }
}
