import DeviceProtocol
import Foundation
import KeychainAPI
@_spi(Testing) import KeychainCallChannel
import KeychainTypes
import LabControl
import LabErrors
import NIOHTTP1
import NIOSSL
import ServiceSupport
import Testing
import WorldBuilder
import WorldTestSupport

/// keychaind's call channel, the way devices send SecItem calls: the same answers as the HTTP API,
/// devices only, and bad frames answered or dropped without harm.
@Suite(.serialized) struct CallChannelTests {
    typealias W = IntegrationWorlds

    /// keychaind's two doors, opened with `device`'s certificate (or the given TLS identity).
    struct Doors {
        let http: ServiceClient
        let calls: KeychainCallClient

        init(_ lab: RunningLab, tls: TLSConfiguration) throws {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: lab.state.keychaindEndpoint)) as? [String: Any]
            let address = try #require((object?["calls"] as? String)?.split(separator: ":"))
            http = ServiceClient(baseURL: object?["url"] as? String ?? "", tls: tls)
            calls = try KeychainCallClient(host: String(address[0]), port: try #require(Int(address[1])), tls: tls)
        }

        func shutdown() async {
            await calls.shutdown()
            await http.shutdown()
        }

        /// Registers an installed app's signed files, as the device does, and gives its reference.
        func register(_ bundleID: String, lab: RunningLab) async throws -> String {
            let bundle = lab.state.builtWorld.appending(path: "apps/\(bundleID).app")
            let registration = KeychainAPI.AppRegistration(
                profile: try Data(contentsOf: bundle.appending(path: "embedded.mobileprovision")),
                codeSignature: try Data(contentsOf: bundle.appending(path: "_CodeSignature/CodeSignature"))
            )
            return try await http.send(.POST, "/v1/apps", registration, as: KeychainAPI.RegisteredApp.self).app
        }
    }

    static func withDoors(_ body: (RunningLab, Doors) async throws -> Void) async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let doors = try Doors(lab, tls: try TLSIdentities.deviceClient(world: lab.state.builtWorld, device: W.phone))
            do {
                try await body(lab, doors)
            } catch {
                await doors.shutdown()
                throw error
            }
            await doors.shutdown()
        }
    }

    /// keychaind verifies each app's files once for all devices, yet checks every device against
    /// a development profile's list: a device the world never listed (minted from its device CA,
    /// as a fleet's are) is refused an app the phone registered first, and given one under a
    /// distribution profile.
    @Test func eachDeviceIsCheckedAgainstTheProfilesList() async throws {
        try await Self.withDoors { lab, doors in
            _ = try await doors.register("com.example.AppOne", lab: lab)
            let minted = try DeviceIdentityMinter(world: lab.state.builtWorld).mint(name: "stranger", udid: "00008110-STRANGER00001", account: nil)
            let stranger = try Doors(
                lab,
                tls: try TLSIdentities.deviceClient(world: lab.state.builtWorld, chainPEM: minted.chainPEM, keyPEM: minted.keyPEM)
            )
            var refusal = ""
            do {
                _ = try await stranger.register("com.example.AppOne", lab: lab)
            } catch let failure as ServiceClient.Failure {
                refusal = failure.body
            }
            let release = try? await stranger.register("com.example.Release", lab: lab)
            await stranger.shutdown()
            #expect(refusal.contains("device-not-provisioned") && refusal.contains("00008110-STRANGER00001"), "\(refusal)")
            #expect(release != nil, "a distribution profile provisions every device")
        }
    }

    @Test func answersAsTheHTTPAPIDoes() async throws {
        try await Self.withDoors { lab, doors in
            let app = try await doors.register("com.example.AppOne", lab: lab)
            let add: [String: SecValue] = ["class": .string("genp"), "acct": .string("carol"), "v_Data": .data(Data("s3cret".utf8))]
            guard case .answer(let added) = try await doors.calls.call(.add, .init(app: app, query: add)) else {
                Issue.record("the add was refused")
                return
            }
            #expect(added.status == 0 && added.name == "errSecSuccess")
            let query: [String: SecValue] = ["class": .string("genp"), "acct": .string("carol"), "r_Data": .bool(true), "r_Attributes": .bool(true)]
            guard case .answer(let channel) = try await doors.calls.call(.copyMatching, .init(app: app, query: query)) else {
                Issue.record("the copy was refused")
                return
            }
            let http = try await doors.http.send(
                .POST,
                "/v1/items/copy-matching",
                KeychainAPI.CallRequest(app: app, query: query),
                as: KeychainAPI.CallResponse.self
            )
            // The same answer; JSON carries dates to the millisecond, the channel carries them whole.
            #expect(channel.status == http.status && channel.reason == http.reason)
            #expect(channel.result.map(Self.toMilliseconds) == http.result, "the call channel and the HTTP API give the same item")
            #expect(channel.result?.dictionaryValue?["v_Data"] == .data(Data("s3cret".utf8)))
            // The device's own calls take the channel too: the app sees the item it shares.
            let shared = try lab.call(.copyMatching, on: W.phone, as: "com.example.AppOne", ["class": .string("genp"), "acct": .string("carol")])
            #expect(shared.status == 0)
            let missing = try await doors.calls.call(.delete, .init(app: app, query: ["class": .string("genp"), "acct": .string("nobody")]))
            #expect(missing == .answer(KeychainAPI.CallResponse(status: .itemNotFound, result: nil, reason: missingReason(missing))))
        }
    }

    @Test func refusesStrangersAndBadFramesWithoutHarm() async throws {
        try await Self.withDoors { lab, doors in
            let app = try await doors.register("com.example.AppOne", lab: lab)
            let keep: [String: SecValue] = ["class": .string("genp"), "acct": .string("keep"), "v_Data": .data(Data("kept".utf8))]
            _ = try await doors.calls.call(.add, .init(app: app, query: keep))

            let unknown = try await doors.calls.call(.copyMatching, .init(app: "not-registered", query: ["class": .string("genp")]))
            #expect(problemCode(unknown) == "unknownApp")
            // A device that skips its own size check is refused by keychaind all the same.
            let big: [String: SecValue] = ["class": .string("genp"), "acct": .string("big"), "v_Data": .data(Data(count: (1 << 20) + 1))]
            guard case .answer(let tooBig) = try await doors.calls.call(.add, .init(app: app, query: big)) else {
                Issue.record("the oversized add was not answered")
                return
            }
            #expect(tooBig.status == -50 && tooBig.reason?.contains("1 MiB") == true && tooBig.reason?.contains("not sent") == false)
            let garbage = try await doors.calls.send(raw: [0, 0, 0, 42, 1, 0, 0xFF, 0xFF, 0xFF, 0xFF], answeredAs: 42)
            #expect(problemCode(garbage) == "badRequest")

            // A frame announcing more than the limit closes that connection; keychaind goes on.
            let world = lab.state.builtWorld
            let flood = try Doors(lab, tls: try TLSIdentities.deviceClient(world: world, device: W.phone))
            await #expect(throws: (any Error).self) {
                _ = try await flood.calls.send(raw: Array(repeating: 0x41, count: CallFrame.maximumLength + 1), answeredAs: 1)
            }
            await flood.shutdown()

            // A system service's certificate chains to the world's root but is no device.
            let service = try Doors(lab, tls: try TLSIdentities.systemServiceClient(world: world, service: "webcredentiald"))
            let notADevice = try await service.calls.call(.copyMatching, .init(app: app, query: ["class": .string("genp")]))
            #expect(problemCode(notADevice) == "notADevice")
            await service.shutdown()

            // Without a client certificate the handshake fails.
            var anonymous = TLSConfiguration.makeClientConfiguration()
            anonymous.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(world.appending(path: "trust/web-root-ca.pem").path))
            anonymous.certificateVerification = .noHostnameVerification
            let stranger = try Doors(lab, tls: anonymous)
            await #expect(throws: (any Error).self) {
                _ = try await stranger.calls.call(.copyMatching, .init(app: app, query: ["class": .string("genp")]))
            }
            await stranger.shutdown()

            let query: [String: SecValue] = ["class": .string("genp"), "acct": .string("keep"), "r_Data": .bool(true)]
            guard case .answer(let kept) = try await doors.calls.call(.copyMatching, .init(app: app, query: query)) else {
                Issue.record("the copy was refused")
                return
            }
            #expect(kept.result == .data(Data("kept".utf8)), "stored items are intact")
        }
    }

    static func toMilliseconds(_ value: SecValue) -> SecValue {
        switch value {
        case .date(let date): .date(SecValue.parseDate(SecValue.formatDate(date)) ?? date)
        case .dictionary(let members): .dictionary(members.mapValues(toMilliseconds))
        case .array(let values): .array(values.map(toMilliseconds))
        default: value
        }
    }

    func problemCode(_ body: AnswerMessage.Body) -> String? {
        if case .problem(let problem) = body { return problem.error }
        return nil
    }

    func missingReason(_ body: AnswerMessage.Body) -> String? {
        if case .answer(let answer) = body { return answer.reason }
        return nil
    }
}
