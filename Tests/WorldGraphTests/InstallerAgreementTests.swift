import AppIdentity
import CMSSupport
import Foundation
import Testing
import WorldBuilder
import WorldFile
import WorldGraph
import WorldLayout
import WorldTestSupport

/// The graph decides nothing of its own: built and verified as a device verifies it, every app of
/// the demo world holds the groups the graph lists, and is refused exactly when the graph says.
@Suite struct InstallerAgreementTests {
    @Test func theGraphAgreesWithTheInstaller() async throws {
        var world = try Fixtures.demo()
        // Placeholders instead of KeychainLab's programs: the signature, not the code, decides.
        for index in world.apps.indices { world.apps[index].program = nil }
        let graph = WorldGraph(world)
        try await withTemporaryDirectory { folder in
            let output = folder.appending(path: "out")
            _ = try WorldBuilder(world: world, output: output).build()
            let layout = WorldLayout(root: output)
            let verifier = BundleVerifier(trust: try TrustStore(pem: Data(contentsOf: layout.url(WorldLayout.rootCA))))
            for app in world.apps {
                let verdict = verifier.verify(bundleAt: layout.url(WorldLayout.bundle(for: app)), platform: app.platform)
                let build = try #require(graph.build(WorldGraph.Build.ID(bundleID: app.bundleID, platform: app.platform)))
                let claimsIdentifier = verdict.entitlements?.applicationIdentifier != nil
                let held = verdict.valid ? app.platform.heldAccessGroups(verdict.accessGroups, hasApplicationIdentifier: claimsIdentifier) : []
                #expect(build.groups.map(\.group) == held, "\(app.bundleID)")
                #expect(build.refusals == verdict.reasons, "\(app.bundleID)")
            }
            #expect(graph.builds.filter(\.isRefused).map(\.id.bundleID.rawValue) == ["com.other.Thief"])
        }
    }
}
