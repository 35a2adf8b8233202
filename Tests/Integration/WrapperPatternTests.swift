import DeviceProtocol
import Foundation
import LabControl
import Testing
import WorldTestSupport

/// What the open-source keychain wrappers' suites rely on, run as a wrapper of that shape
/// (Devices/Apps/WrapperPatterns) inside a real app process on an iOS and a macOS device. That the
/// program builds at all is the first check: its `Keychain` type sits beside `import Security`.
@Suite(.serialized) struct WrapperPatternTests {
    typealias W = IntegrationWorlds

    /// Runs wrapper-patterns as `app` on `device` and reads the JSON line it prints.
    static func report(_ lab: RunningLab, on device: String, as app: String) throws -> [String: Any] {
        let program = productsDirectory.appending(path: "wrapper-patterns").path
        let response = try DeviceClient(state: lab.state, device: device).send(DeviceRequest(.exec(program: program, arguments: []), app: app))
        #expect(response.exitCode == 0, "\(response.error ?? "") \(response.output ?? "")")
        let line = (response.output ?? "").split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(response.output ?? response.error ?? "")")
    }

    @Test func resultsLookedUpByConstantsAndStringsOnBothPlatforms() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            for (device, app) in [(W.phone, "com.example.AppOne"), (W.mac, "com.example.MacApp")] {
                let report = try Self.report(lab, on: device, as: app)
                #expect(report["cfStringKeyEqualsString"] as? Bool == true, "AnyHashable(kSecAttrAccount) == AnyHashable(\"acct\")")
                #expect(report["stored"] as? [Int] == [0, 0], "\(device)")
                #expect(report["updated"] as? Int == 0, "a duplicate add falls back to update on \(device)")
                #expect(report["bob"] as? String == "three", "\(device)")
                #expect(report["allKeys"] as? [String] == ["alice", "bob"], "[[AnyHashable: Any]] looked up with kSecAttrAccount on \(device)")
                #expect(report["stringKeyedAccounts"] as? [String] == ["alice", "bob"], "[String: Any] looked up with kSecAttrAccount as String")
                // A Mac app's items go to the login keychain, where access groups do not apply.
                let groups = device == W.mac ? [] : ["ABCDE12345.com.example.SharedItems", "ABCDE12345.com.example.SharedItems"]
                #expect(report["groups"] as? [String] == groups, "\(device)")
            }
        }
    }

    /// KeychainAccess and Valet add kSecMatchLimitAll to deletes on every platform but iOS: an iOS
    /// device refuses it (errSecParam), a macOS device strips it and deletes every match.
    @Test func deleteWithMatchLimitAllDependsOnThePlatform() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let phone = try Self.report(lab, on: W.phone, as: "com.example.AppOne")
            #expect(phone["removeAll"] as? Int == -50)
            #expect(phone["remainingKeys"] as? [String] == ["alice", "bob"])
            let mac = try Self.report(lab, on: W.mac, as: "com.example.MacApp")
            #expect(mac["removeAll"] as? Int == 0)
            #expect(mac["remainingKeys"] as? [String] == [])
        }
    }
}
