import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// kclab reads and changes daemons' state only through their admin routes: from a state folder that
/// holds nothing but the built world and the endpoint files (as the compose lab's kclab, or a lab on
/// another machine, sees it), `associations`, `explain domain` and `reset --keep-cloud` work, and a
/// device's certificate opens none of those routes.
@Suite(.serialized) struct OperatorRoutesTests {
    @Test func associationsExplainAndResetGoThroughTheDaemons() async throws {
        try await withLab(WebCredentialLabTests.world) { (lab: RunningLab) async throws in
            let app = WebCredentialLabTests.demo
            let item: [String: SecValue] = ["class": .string("genp"), "svce": .string("operator"), "acct": .string("a")]
            #expect(try lab.call(.add, on: "phone", as: app, item.merging(["v_Data": .data(Data("x".utf8))]) { $1 }).status == 0)

            let remote = try Self.remoteState(of: lab.state)
            defer { try? FileManager.default.removeItem(at: remote.root) }
            func kclab(_ arguments: [String]) throws -> ProgramResult {
                try run(WorldTestSupport.kclab, arguments + ["--state", remote.root.path])
            }

            let listed = try kclab(["associations", "--json", "--app", app])
            #expect(listed.status == 0, "\(listed.stderr)")
            let records = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]) ?? []
            let phone = try #require(lab.device("phone")?.udid)
            #expect(
                records.contains {
                    $0["device"] as? String == phone && $0["entry"] as? String == "webcredentials:example.com" && $0["state"] as? String == "approved"
                },
                "\(listed.stdout.prefix(2000))"
            )
            #expect(records.allSatisfy { ($0["appID"] as? String)?.hasSuffix("." + app) == true })

            let explained = try kclab(["explain", "domain", "example.com", "--app", app])
            #expect(explained.status == 0 && explained.stdout.contains("approved"), "\(explained.stdout)\(explained.stderr)")
            let unknown = try kclab(["explain", "domain", "nowhere.example", "--app", app])
            #expect(unknown.status != 0 && unknown.stderr.contains("no association"), "\(unknown.stdout)\(unknown.stderr)")

            // Without the world, the reset cannot find the accounts and devices it must reset too:
            // it refuses before removing anything, and --keep-cloud removes the items alone.
            let whole = try kclab(["reset"])
            #expect(whole.status != 0 && whole.stderr.contains("--keep-cloud"), "\(whole.stdout)\(whole.stderr)")
            #expect(try lab.call(.copyMatching, on: "phone", as: app, item).status == 0, "a refused reset removes nothing")
            let reset = try kclab(["reset", "--keep-cloud"])
            #expect(reset.status == 0 && reset.stdout.contains("removed 1 items"), "\(reset.stdout)\(reset.stderr)")
            #expect(try lab.call(.copyMatching, on: "phone", as: app, item).status == -25300, "the item went with the reset")

            // A device's certificate chains to the same root, yet opens neither daemon's admin routes.
            let world = lab.state.builtWorld.path
            let device = [
                "-s", "--cacert", "\(world)/trust/web-root-ca.pem", "--cert", "\(world)/devices/phone/device-chain.pem", "--key",
                "\(world)/devices/phone/device.key", "-w", "\n%{http_code}",
            ]
            let associations = try runTool("curl", device + ["\(try Endpoint(lab.state.associationdEndpoint))/v1/admin/associations"])
            #expect(associations.stdout.hasSuffix("403") && associations.stdout.contains("notAnAdministrator"), "\(associations.stdout)")
            let resetByDevice = try runTool("curl", device + ["-X", "POST", "\(try Endpoint(lab.state.keychaindEndpoint))/v1/admin/reset"])
            #expect(resetByDevice.stdout.hasSuffix("403") && resetByDevice.stdout.contains("notAnAdministrator"), "\(resetByDevice.stdout)")
        }
    }

    /// A state folder with only the built world and the daemons' endpoint files: no database.
    static func remoteState(of state: LabState) throws -> LabState {
        let remote = LabState(root: FileManager.default.temporaryDirectory.appending(path: "kclab-remote-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: remote.root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: state.builtWorld, to: remote.builtWorld)
        for (from, to) in [(state.keychaindEndpoint, remote.keychaindEndpoint), (state.associationdEndpoint, remote.associationdEndpoint)] {
            try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: from, to: to)
        }
        return remote
    }
}
