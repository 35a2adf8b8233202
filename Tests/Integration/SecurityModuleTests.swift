import DeviceProtocol
import Foundation
import LabControl
import Testing

/// Apps calling the Security module inside their own processes, through their device.
@Suite(.serialized) struct SecurityModuleTests {
    typealias W = IntegrationWorlds

    static func run(_ lab: RunningLab, _ app: String, _ arguments: [String], on device: String = IntegrationWorlds.phone) throws -> DeviceResponse {
        try DeviceClient(state: lab.state, device: device).send(DeviceRequest(.run(arguments: arguments), app: app))
    }

    static func json(_ response: DeviceResponse) throws -> [String: Any] {
        let line = (response.output ?? "").split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(response.output ?? response.error ?? "")")
    }

    @Test func theCAPIWorksInsideAnApp() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let added = try Self.json(Self.run(lab, "com.example.AppOne", ["add", #"{"class":"genp","svce":"s","acct":"a","v_Data":"cHc="}"#]))
            #expect(added["status"] as? Int == 0)
            #expect(added["name"] as? String == "errSecSuccess")
            let duplicate = try Self.json(Self.run(lab, "com.example.AppOne", ["add", #"{"class":"genp","svce":"s","acct":"a","v_Data":"cHc="}"#]))
            #expect(duplicate["status"] as? Int == -25299)
            let found = try Self.json(
                Self.run(lab, "com.example.AppTwo", ["copy", #"{"class":"genp","svce":"s","r_Data":true,"r_Attributes":true}"#])
            )
            let result = try #require(found["result"] as? [String: Any])
            #expect(result["v_Data"] as? String == "cHc=")
            #expect(result["agrp"] as? String == "ABCDE12345.com.example.SharedItems")
            #expect(result["acct"] as? String == "a")
            let updated = try Self.json(Self.run(lab, "com.example.AppTwo", ["update", #"{"class":"genp","svce":"s"}"#, #"{"v_Data":"bmV3"}"#]))
            #expect(updated["status"] as? Int == 0)
            let deleted = try Self.json(Self.run(lab, "com.example.AppOne", ["delete", #"{"class":"genp","svce":"s"}"#]))
            #expect(deleted["status"] as? Int == 0)
            let gone = try Self.json(Self.run(lab, "com.example.AppOne", ["copy", #"{"class":"genp","svce":"s"}"#]))
            #expect(gone["status"] as? Int == -25300)
            let message = try Self.run(lab, "com.example.AppOne", ["message", "-34018"])
            #expect(message.output?.contains("A required entitlement isn't present.") == true)
        }
    }

    /// kSecReturnRef on a password gives an app a SecKeychainItem on a Mac and nothing on an iPhone.
    @Test func aMacGivesAPasswordReference() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let item = #"{"class":"genp","svce":"ref","acct":"a","v_Data":"cHc="}"#
            let query = #"{"class":"genp","svce":"ref","r_Ref":true}"#
            for (device, app, expected) in [(W.mac, "com.example.MacApp", "<SecKeychainItem genp>"), (W.phone, "com.example.AppOne", nil)] {
                #expect(try Self.json(Self.run(lab, app, ["add", item], on: device))["status"] as? Int == 0)
                let found = try Self.json(Self.run(lab, app, ["copy", query], on: device))
                #expect(found["status"] as? Int == 0)
                #expect(found["result"] as? String == expected, "\(device): \(found)")
            }
        }
    }

    @Test func appsLearnTheirGroupsFromTheirSignature() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let groups = try Self.run(lab, "com.example.AppOne", ["groups"]).output?.split(separator: "\n").map(String.init)
            #expect(groups == ["ABCDE12345.com.example.SharedItems", "ABCDE12345.com.example.AppOne", "group.com.example.AppSuite"])
        }
    }

    @Test func manyThreadsAtOnce() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let response = try Self.run(lab, "com.example.AppOne", ["stress", "10", "30"])
            #expect(response.exitCode == 0, "\(response.output ?? "")")
            #expect(response.output?.contains("300 rounds, 0 failures") == true)
        }
    }

    @Test func execRunsAnyProgramAsADevelopmentApp() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let client = try DeviceClient(state: lab.state, device: W.phone)
            let shell = try client.send(DeviceRequest(.exec(program: "sh", arguments: ["-c", "echo $KEYCHAINLAB_APP"]), app: "com.example.AppOne"))
            #expect(shell.exitCode == 0)
            #expect(shell.output == "com.example.AppOne\n")
            let release = try client.send(DeviceRequest(.exec(program: "true", arguments: []), app: "com.example.Release"))
            #expect(release.error?.contains("get-task-allow") == true, "a distribution build cannot be run as another program")
        }
    }
}
