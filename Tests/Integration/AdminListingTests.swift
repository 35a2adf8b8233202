import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// kclab keychain list: the operator's view of every keychain, data only when revealed, through
/// a route only the administrator certificate opens.
@Suite(.serialized) struct AdminListingTests {
    typealias W = IntegrationWorlds

    @Test func theOperatorListsMetadataAndRevealsOnlyWhenAsked() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let app = "com.example.AppOne"
            let secret = "listing-secret-\(UUID().uuidString.prefix(8))"
            #expect(
                try lab.status(.add, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("listed"), "v_Data": .data(Data(secret.utf8))])
                    == 0
            )
            #expect(try lab.status(.add, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("synced"), "sync": .bool(true)]) == 0)

            let table = try lab.kclab(["keychain", "list", "--device", W.phone])
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.stdout.contains("listed") && table.stdout.contains("synced") && table.stdout.contains("ABCDE12345.com.example.SharedItems"))
            #expect(table.stdout.contains("2 in ABCDE12345.com.example.SharedItems"), "\(table.stdout)")
            #expect(!table.stdout.contains(secret), "no data without --reveal")

            let revealed = try lab.kclab(["keychain", "list", "--device", W.phone, "--reveal", "--json"])
            let listing = try #require(try JSONSerialization.jsonObject(with: Data(revealed.stdout.utf8)) as? [String: Any])
            let items = try #require(listing["items"] as? [[String: Any]])
            let listed = try #require(items.first { $0["account"] as? String == "listed" })
            #expect(listed["data"] as? String == Data(secret.utf8).base64EncodedString())
            #expect(items.first { $0["account"] as? String == "synced" }?["synchronizable"] as? Bool == true)

            // A Mac's login keychain is the device's too; its items show no group or protection.
            let mail: [String: SecValue] = ["class": .string("genp"), "acct": .string("in-login"), "v_Data": .data(Data("pw".utf8))]
            #expect(try lab.status(.add, on: W.mac, as: "com.example.MacApp", mail) == 0)
            let mac = try lab.kclab(["keychain", "list", "--device", W.mac, "--json"])
            let macItems = try #require(
                (try JSONSerialization.jsonObject(with: Data(mac.stdout.utf8)) as? [String: Any])?["items"] as? [[String: Any]]
            )
            let login = try #require(macItems.first { $0["account"] as? String == "in-login" }, "\(mac.stdout)")
            #expect((login["keychain"] as? String)?.hasPrefix("login:") == true)
            #expect(login["group"] as? String == "" && login["protection"] == nil, "\(login)")
            let macTable = try lab.kclab(["keychain", "list", "--device", W.mac])
            #expect(macTable.stdout.contains("1 in the login keychain"), "\(macTable.stdout)")

            let account = try lab.kclab(["keychain", "list", "--account", "alice@example.com"])
            #expect(account.stdout.contains("synced") && !account.stdout.contains("listed"), "\(account.stdout)")

            // A device's certificate, though it chains to the same root, does not open the route.
            let endpoint = try Endpoint(lab.state.keychaindEndpoint)
            let world = lab.state.builtWorld.path
            let device = try runTool(
                "curl",
                [
                    "-s", "--cacert", "\(world)/trust/web-root-ca.pem", "--cert", "\(world)/devices/phone/device-chain.pem", "--key",
                    "\(world)/devices/phone/device.key", "-w", "\n%{http_code}", "\(endpoint)/v1/admin/items?keychain=device:00008030-PHONE",
                ]
            )
            #expect(device.stdout.hasSuffix("403") && device.stdout.contains("notAnAdministrator"), "\(device.stdout)")
        }
    }
}
