import DeviceProtocol
import Foundation
import KeychainTypes
import Testing

/// A device request is an action with what it needs: written as one flat JSON object with `op`
/// (the wire form every device, app and kclab speaks) and read back as the same action; a line
/// that lacks what its operation needs is refused where it is read, naming what is missing.
@Suite struct DeviceRequestWireTests {
    static let actions: [DeviceRequest.Action] = [
        .secItem(.update, query: ["class": .string("genp")], attributesToUpdate: ["acct": .string("a")]),
        .secItem(.copyMatching, query: ["class": .string("genp")]),
        .secItem(.add, query: ["class": .string("genp"), "v_Data": .data(Data("x".utf8))]),
        .secItem(.delete, query: [:]),
        .info, .status, .installUpdate, .lock, .unlock, .reboot, .setPasscode, .removePasscode, .lockKeychain, .uninstall, .install,
        .run(arguments: ["login", "--password", "-"], input: "s3cret\n"),
        .exec(program: "/bin/sh", arguments: ["-c", "true"], input: nil, workingDirectory: "/tmp"),
        .exec(program: "/bin/sh", arguments: [], workingDirectory: "/tmp", readable: ["/src/dependency", "/src/other"]),
        .unlockKeychain(password: "pw"), .unlockKeychain(),
        .addSharedWebCredential(fqdn: "example.com", account: "alice", password: nil),
        .requestSharedWebCredential(fqdn: nil, account: nil),
        .setAnswers(["approve"], defaultAnswer: "decline"), .setAnswers(nil),
        .passkeyRegister(.init(relyingParty: "example.com", userName: "dora", userID: "AAAA", challenge: "BBBB", origin: "https://example.com")),
        .passkeyAssert(.init(relyingParty: "example.com", challenge: "BBBB", credentialIDs: ["CCCC"])),
        .passkeyList(relyingParty: "example.com"),
        .sync(.offline), .sync(.online), .sync(.retry), .sync(.status), .sync(.offKeep), .sync(.offDelete), .sync(.on),
        .sync(.pause), .sync(.resume), .sync(.reset),
    ]

    @Test(arguments: actions) func anActionReadsBackAsItself(_ action: DeviceRequest.Action) throws {
        let request = DeviceRequest(action, app: "com.example.AppOne")
        let line = try JSONEncoder().encode(request)
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        #expect(object["op"] as? String == action.operation.rawValue)
        #expect(try JSONDecoder().decode(DeviceRequest.self, from: line) == request)
    }

    /// A request that asks for its program's output as it runs says so with `stream`; one that
    /// does not leaves the key out.
    @Test func streamingIsOnTheWireOnlyWhenAsked() throws {
        let streaming = DeviceRequest(.exec(program: "swift", arguments: ["test"]), app: "com.example.AppOne", streamsOutput: true)
        let line = try JSONEncoder().encode(streaming)
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        #expect(object["stream"] as? Bool == true)
        #expect(try JSONDecoder().decode(DeviceRequest.self, from: line).streamsOutput)
        let plain = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(DeviceRequest(.status))) as? [String: Any]
        #expect(plain?["stream"] == nil)
    }

    @Test func everyOperationHasAnAction() {
        let written = Set(Self.actions.map(\.operation))
        #expect(written == Set(DeviceRequest.Operation.allCases))
    }

    @Test(arguments: [
        (#"{"op":"exec","app":"a"}"#, "exec needs a program"),
        (#"{"op":"exec","arguments":[]}"#, "exec needs a program"),
        (#"{"op":"passkey-register","fqdn":"example.com","account":"dora","challenge":"B"}"#, "passkey-register needs the user's handle"),
        (#"{"op":"passkey-assert","fqdn":"example.com"}"#, "passkey-assert needs a challenge"),
        (#"{"op":"passkey-list"}"#, "passkey-list needs the relying party"),
        (#"{"op":"sync"}"#, "sync needs what to do"),
    ])
    func aRequestLackingWhatItNeedsIsRefused(_ line: String, _ saying: String) {
        #expect {
            try JSONDecoder().decode(DeviceRequest.self, from: Data(line.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.hasPrefix(saying)
        }
    }

    @Test func theWireFormKeepsItsFlatFields() throws {
        let line = #"{"op":"exec","app":"com.example.AppOne","arguments":["sh","-c","echo hi"],"input":"x","workingDirectory":"/w"}"#
        let request = try JSONDecoder().decode(DeviceRequest.self, from: Data(line.utf8))
        #expect(request.app == "com.example.AppOne")
        #expect(request.action == .exec(program: "sh", arguments: ["-c", "echo hi"], input: "x", workingDirectory: "/w"))
    }
}
