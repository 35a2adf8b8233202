import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport
import Yams

/// What a device refuses at install, what keychaind refuses at the door, and bad input.
@Suite(.serialized) struct InstallAndTransportTests {
    typealias W = IntegrationWorlds

    @Test func tamperedAndOverEntitledBundlesAreRefusedAtInstall() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let phone = try #require(lab.device(W.phone))
            #expect(phone.installed.map(\.bundleID).contains("com.example.AppOne"))
            let thief = try #require(phone.refused["com.other.Thief"])
            #expect(thief.contains { $0.hasPrefix("entitlement-not-allowed") && $0.contains("ABCDE12345.com.example.SharedItems") })
            let tampered = try #require(phone.refused["com.example.Tampered"])
            #expect(tampered.contains { $0.hasPrefix("modified-after-signing") })
            let call = try lab.call(.copyMatching, on: W.phone, as: "com.other.Thief", ["class": .string("genp")])
            #expect(call.status == nil)
            #expect(call.error?.contains("was refused at install on phone: entitlement-not-allowed") == true, "\(call.error ?? "")")
        }
    }

    @Test func keychaindAnswersDeviceCertificatesOnly() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let endpoint = try Endpoint(lab.state.keychaindEndpoint)
            let world = lab.state.builtWorld.path
            let ca = "\(world)/trust/web-root-ca.pem"
            let device = try runTool(
                "curl",
                [
                    "-s", "--cacert", ca, "--cert", "\(world)/devices/phone/device-chain.pem", "--key", "\(world)/devices/phone/device.key",
                    "\(endpoint)/v1/health",
                ]
            )
            #expect(device.stdout.contains("\"ok\""), "\(device.stderr)")
            let anonymous = try runTool("curl", ["-s", "--cacert", ca, "\(endpoint)/v1/health"])
            #expect(anonymous.status != 0 && anonymous.stdout.isEmpty, "a client without a certificate fails the handshake")
            let team = try runTool(
                "curl",
                [
                    "-s", "--cacert", ca, "--cert", "\(world)/teams/ABCDE12345/signing.pem", "--key", "\(world)/teams/ABCDE12345/signing.key",
                    "\(endpoint)/v1/health",
                ]
            )
            #expect(!team.stdout.contains("\"ok\""), "a team's signing certificate is not a device")
        }
    }

    /// keychaind serves exactly what its OpenAPI document describes: every documented path and
    /// method answers (a bad body is a 4xx, never 404 or 405), and nothing else does.
    @Test func routesMatchTheOpenAPIDocument() async throws {
        let operations = try OpenAPIRoutes.operations(in: "Services/Keychain/KeychainAPI/openapi.yaml")
        #expect(operations.count >= 7, "\(operations)")
        try await withLab(W.family) { (lab: RunningLab) async throws in
            try OpenAPIRoutes.check(
                operations,
                undocumented: [("GET", "/v1/items"), ("POST", "/v1/health/x"), ("DELETE", "/v1/apps"), ("GET", "/v2/health")],
                endpoint: try Endpoint(lab.state.keychaindEndpoint).url,
                lab: lab,
                device: W.phone
            )
        }
    }

    @Test func badInputGetsAClearAnswerAndLosesNothing() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let app = "com.example.AppOne"
            #expect(
                try lab.status(.add, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("keep"), "v_Data": .data(Data("kept".utf8))])
                    == 0
            )
            let endpoint = try Endpoint(lab.state.keychaindEndpoint)
            let world = lab.state.builtWorld.path
            let curl = [
                "-s", "--cacert", "\(world)/trust/web-root-ca.pem", "--cert", "\(world)/devices/phone/device-chain.pem",
                "--key", "\(world)/devices/phone/device.key", "-w", "\n%{http_code}", "-X", "POST",
            ]
            let malformed = try runTool("curl", curl + ["-d", "{not json", "\(endpoint)/v1/items/add"])
            #expect(malformed.stdout.hasSuffix("400") && malformed.stdout.contains("badRequest"))
            let unknownApp = try runTool("curl", curl + ["-d", #"{"app":"0000","query":{"class":"genp"}}"#, "\(endpoint)/v1/items/copy-matching"])
            #expect(unknownApp.stdout.hasSuffix("412") && unknownApp.stdout.contains("unknownApp"))
            let repeated = try runTool("curl", curl + ["-d", #"{"app":"0000","query":{"acct":"a","acct":"b"}}"#, "\(endpoint)/v1/items/add"])
            #expect(repeated.stdout.hasSuffix("400") && repeated.stdout.contains("repeats the key 'acct'"), "\(repeated.stdout)")
            let unknownCall = try runTool("curl", curl + ["-d", #"{"app":"0000","query":{}}"#, "\(endpoint)/v1/items/steal"])
            #expect(unknownCall.stdout.hasSuffix("404") && unknownCall.stdout.contains("unknownCall"), "\(unknownCall.stdout)")
            let huge = lab.state.root.appending(path: "huge.json")
            try Data(("{\"app\":\"x\",\"query\":{\"class\":\"" + String(repeating: "a", count: 5 << 20) + "\"}}").utf8).write(to: huge)
            let tooLarge = try runTool("curl", curl + ["--data-binary", "@\(huge.path)", "\(endpoint)/v1/items/add"])
            #expect(tooLarge.stdout.hasSuffix("413"))

            let oversized = try lab.call(
                .add,
                on: W.phone,
                as: app,
                ["class": .string("genp"), "acct": .string("big"), "v_Data": .data(Data(count: (1 << 20) + 1))]
            )
            #expect(oversized.status == -50 && oversized.reason?.contains("not sent") == true, "refused by the device before sending")
            var many: [String: SecValue] = ["class": .string("genp")]
            for index in 0..<130 { many["f\(index)"] = .bool(true) }
            #expect(try lab.status(.copyMatching, on: W.phone, as: app, many) == -50)
            #expect(try lab.status(.add, on: W.phone, as: app, ["class": .string("genp"), "acct": .integer(7)]) == -50)
            #expect(try lab.status(.add, on: W.phone, as: app, ["class": .string("nope")]) == -25306)
            #expect(try lab.status(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "zzzz": .string("x")]) == -25303)

            let kept = try lab.call(.copyMatching, on: W.phone, as: app, ["class": .string("genp"), "acct": .string("keep"), "r_Data": .bool(true)])
            #expect(kept.result == .data(Data("kept".utf8)), "stored items are intact")
        }
    }

    @Test func noSecretReachesTheDiskOrTheLogs() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let secret = "hunter2-\(UUID().uuidString)"
            #expect(
                try lab.status(
                    .add,
                    on: W.phone,
                    as: "com.example.AppOne",
                    ["class": .string("genp"), "acct": .string("alice"), "v_Data": .data(Data(secret.utf8))]
                ) == 0
            )
            #expect(
                try lab.status(
                    .add,
                    on: W.phone,
                    as: "com.example.AppOne",
                    ["class": .string("genp"), "acct": .string("alice"), "v_Data": .data(Data(secret.utf8))]
                ) == -25299
            )
            let read = try lab.call(.copyMatching, on: W.phone, as: "com.example.AppTwo", ["class": .string("genp"), "r_Data": .bool(true)])
            #expect(read.result == .data(Data(secret.utf8)))
            var scanned = 0
            let files = FileManager.default.enumerator(at: lab.state.root, includingPropertiesForKeys: nil)
            while let url = files?.nextObject() as? URL {
                // Signed bundles were written before the secret existed; everything else is scanned.
                if url.pathExtension == "app" || url.lastPathComponent == "world" {
                    files?.skipDescendants()
                    continue
                }
                guard let bytes = try? Data(contentsOf: url), !bytes.isEmpty else { continue }
                scanned += 1
                #expect(bytes.firstRange(of: Data(secret.utf8)) == nil, "the secret is in \(url.path)")
            }
            #expect(scanned > 10, "the scan covered the database, its WAL, the keys, the devices and every log")
        }
    }
}

extension Endpoint {
    /// The URL in keychaind's endpoint file.
    init(_ file: URL) throws {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        self.url = object?["url"] as? String ?? ""
    }

    var description: String { url }
}

struct Endpoint: CustomStringConvertible {
    let url: String
}
