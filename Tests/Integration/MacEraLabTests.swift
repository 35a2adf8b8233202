import DeviceProtocol
import Foundation
import LabControl
import Testing
import WorldTestSupport

/// One era rule (macOS N reads association files as iOS N + 3) for associationd and for
/// `kclab aasa check --cdn`: Macs of 10.15 to 14 get the same era from both, and only the ones of
/// iOS 14's rules and later read through the CDN.
@Suite(.serialized) struct MacEraLabTests {
    static let app = "D3KQX62K1A.com.example.MacSite"

    /// macOS versions and the iOS release whose rules each follows.
    static let macs: [(version: String, era: Int)] = [("10.15", 13), ("11.7", 14), ("12.7", 15), ("13.6", 16), ("14.5", 17)]

    static let world = """
        name: eras
        teams: [{id: D3KQX62K1A}]
        apps:
          - bundleID: com.example.MacSite
            name: MacSite
            team: D3KQX62K1A
            platform: macos
            program: keychainlab-app
            entitlements:
              com.apple.developer.associated-domains: [webcredentials:example.com]
        devices:
        \(macs.map { "  - {id: mac-\($0.era), platform: macos, osVersion: \"\($0.version)\", apps: [com.example.MacSite]}" }.joined(separator: "\n"))
        websites:
          - domain: example.com
            aasa: {content: {webcredentials: {apps: [\(app)]}}}
        """

    @Test func associationdAndAASACheckFollowTheSameEra() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let listed = try lab.kclab(["associations", "--json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let records = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            for mac in Self.macs {
                let udid = try #require(lab.device("mac-\(mac.era)")?.udid)
                let record = try #require(records.first { $0["device"] as? String == udid }, "\(listed.stdout.prefix(2000))")
                #expect(record["era"] as? Int == mac.era, "associationd: macOS \(mac.version)")
                #expect(record["throughCDN"] as? Bool == (mac.era >= 14), "associationd: macOS \(mac.version)")
                #expect(record["state"] as? String == "approved", "\(record)")

                let checked = try lab.kclab(["aasa", "check", "example.com", "--cdn", "--os", "macos:\(mac.version)", "--app", Self.app, "--json"])
                let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any], "\(checked.stderr)")
                #expect(report["era"] as? Int == mac.era, "aasa check: macOS \(mac.version)")
                let rules = (report["checks"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
                #expect(rules.contains("cdn-era") == (mac.era < 14), "aasa check --cdn warns only for a device that reads the site: \(rules)")
            }
        }
    }
}
