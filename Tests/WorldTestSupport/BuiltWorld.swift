public import CMSSupport
public import Foundation
import WorldBuilder
public import WorldFile
public import WorldLayout

/// A world built into a temporary folder for one test.
public struct BuiltWorld: Sendable {
    /// The parsed world.
    public let world: World
    /// Where it was built.
    public let layout: WorldLayout
    /// The world file written beside it.
    public let file: URL

    /// The roots devices trust for code signing: `trust/root-ca.pem`.
    public func trustStore() throws -> TrustStore {
        try TrustStore(pem: Data(contentsOf: layout.trustDirectory.appending(path: "root-ca.pem")))
    }

    /// The roots devices trust for TLS: `trust/web-root-ca.pem`.
    public func webTrustStore() throws -> TrustStore {
        try TrustStore(pem: Data(contentsOf: layout.trustDirectory.appending(path: "web-root-ca.pem")))
    }

    /// A file of the built world.
    public func file(_ relative: String) -> URL {
        layout.root.appending(path: relative)
    }

    /// The bundle folder of an app.
    public func bundle(_ bundleID: String) -> URL {
        layout.root.appending(path: "apps/\(bundleID).app")
    }
}

/// Builds `yaml` into a fresh folder, runs `body`, and removes the folder.
public func withBuiltWorld<T>(_ yaml: String = TestWorlds.refusals, _ body: (BuiltWorld) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { folder in
        let file = folder.appending(path: "world.yaml")
        try Data(yaml.utf8).write(to: file)
        let world = try World.load(contentsOf: file)
        let output = folder.appending(path: "out")
        _ = try WorldBuilder(world: world, output: output, programs: productsDirectory).build()
        return try await body(BuiltWorld(world: world, layout: WorldLayout(root: output), file: file))
    }
}
