import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// What keychaind takes from a device's report, and what it only takes from what it verifies.
@Suite(.serialized) struct DeviceReportTrustTests {
    typealias W = IntegrationWorlds

    /// A device that names another iCloud account than its certificate's is refused, and keeps
    /// the account keychaind verified: it cannot read another account's synchronizable items.
    @Test func theICloudAccountComesFromTheCertificate() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let app = "com.example.AppOne"
            let synced: [String: SecValue] = ["class": .string("genp"), "acct": .string("synced"), "sync": .bool(true)]
            #expect(try lab.status(.add, on: W.phone, as: app, synced.merging(["v_Data": .data(Data("s".utf8))]) { $1 }) == 0)

            let endpoint = try Endpoint(lab.state.keychaindEndpoint)
            let world = lab.state.builtWorld.path
            let curl = [
                "-s", "--cacert", "\(world)/trust/web-root-ca.pem", "--cert", "\(world)/devices/phone/device-chain.pem",
                "--key", "\(world)/devices/phone/device.key", "-w", "\n%{http_code}", "-X", "PUT", "\(endpoint)/v1/device",
            ]
            let state = #""platform":"ios","osVersion":"17.4","hasPasscode":true,"isLocked":false,"unlockedSinceBoot":true"#
            let other = try runTool("curl", curl + ["-d", "{\(state),\"iCloudAccount\":\"mallory@example.com\"}"])
            #expect(other.stdout.hasSuffix("403") && other.stdout.contains("accountMismatch"), "\(other.stdout)")
            let none = try runTool("curl", curl + ["-d", "{\(state)}"])
            #expect(none.stdout.hasSuffix("403") && none.stdout.contains("accountMismatch"), "\(none.stdout)")
            let same = try runTool("curl", curl + ["-d", "{\(state),\"iCloudAccount\":\"alice@example.com\"}"])
            #expect(same.stdout.hasSuffix("200"), "\(same.stdout)")

            let found = try lab.call(.copyMatching, on: W.phone, as: app, synced.merging(["r_Data": .bool(true)]) { $1 })
            #expect(found.result == .data(Data("s".utf8)), "the device still sees its own account's items")
            let log = try String(contentsOf: lab.state.log("keychaind"), encoding: .utf8)
            #expect(log.contains("device report refused"))
        }
    }
}
