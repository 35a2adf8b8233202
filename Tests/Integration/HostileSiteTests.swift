import DeviceProtocol
import Foundation
import LabControl
import Testing
import WorldTestSupport

/// A website that serves a hostile association file (issue 24, point 3): 65,000 numbers in one
/// array, 130,032 bytes, just under the 128 KiB a device reads, which once kept associationd busy
/// for minutes. The site is denied for the rule it breaks, and another device's request for a
/// well-behaved site is answered in its usual time.
@Suite(.serialized) struct HostileSiteTests {
    static func world(hostileFile: URL) -> String {
        """
        name: hostile
        teams: [{id: D3KQX62K1A}]
        apps:
          - bundleID: com.example.DemoApp
            team: D3KQX62K1A
            program: keychainlab-app
            entitlements:
              com.apple.developer.associated-domains: [webcredentials:example.com]
          - bundleID: com.example.Hostile
            team: D3KQX62K1A
            program: keychainlab-app
            entitlements:
              com.apple.developer.associated-domains: [webcredentials:hostile.example.com]
        devices:
          - {id: phone, osVersion: "17.4", apps: [com.example.Hostile], user: {default: approve}}
          - {id: pad, osVersion: "17.4", apps: [com.example.DemoApp], user: {default: approve}}
        websites:
          - domain: example.com
            aasa: {content: {webcredentials: {apps: [D3KQX62K1A.com.example.DemoApp]}}}
            subdomains:
              - {name: hostile, aasa: {file: "\(hostileFile.path)"}}
        """
    }

    @Test func aHostileFileDelaysNoOtherSite() async throws {
        try await withTemporaryDirectory { folder in
            let hostile = folder.appending(path: "hostile-aasa.json")
            let numbers = Array(repeating: "1", count: 65_000).joined(separator: ",")
            try Data(("{\"webcredentials\": {\"apps\": [" + numbers + "]}}").utf8).write(to: hostile)
            try await withLab(Self.world(hostileFile: hostile)) { (lab: RunningLab) async throws in
                // While the phone's app asks for the hostile site again and again, the pad asks for its own.
                let phone = Task.detached {
                    for _ in 0..<5 {
                        _ = try? DeviceClient(state: lab.state, device: "phone").send(
                            DeviceRequest(.requestSharedWebCredential(fqdn: "hostile.example.com", account: nil), app: "com.example.Hostile")
                        )
                    }
                }
                let start = ContinuousClock.now
                let answer = try DeviceClient(state: lab.state, device: "pad").send(
                    DeviceRequest(.requestSharedWebCredential(fqdn: "example.com", account: nil), app: "com.example.DemoApp")
                )
                let elapsed = ContinuousClock.now - start
                await phone.value
                // No credential is saved, so the well-behaved site's answer is "not found", not a timeout (-25291).
                #expect(answer.status == -25300, "\(answer)")
                #expect(elapsed < .seconds(5), "the pad waited \(elapsed)")

                let listed = try lab.kclab(["associations", "--json"])
                #expect(listed.status == 0, "\(listed.stderr)")
                #expect(listed.stdout.contains("apps-type"), "the hostile site is denied for its rule: \(listed.stdout.prefix(2000))")
            }
        }
    }
}
