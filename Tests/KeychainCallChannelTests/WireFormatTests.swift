import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainTypes
import LabErrors
import Testing

/// The call channel's byte form: every value survives a round trip, and hostile bytes are a
/// `WireError`, never a crash or a huge allocation.
@Suite struct WireFormatTests {
    static let query: [String: SecValue] = [
        "class": .string("genp"), "acct": .string("älice ✓"), "v_Data": .data(Data([0, 1, 2, 255])), "pdmn": .string("ak"),
        "sync": .bool(true), "nega": .bool(false), "type": .integer(-42), "ratio": .double(0.25),
        "cdat": .date(Date(timeIntervalSinceReferenceDate: 123_456.789_012)), "m_Limit": .string("m_LimitAll"),
        "list": .array([.string("a"), .integer(Int64.max), .array([])]), "nested": .dictionary(["k": .data(Data()), "e": .dictionary([:])]),
    ]

    @Test func callsSurviveTheRoundTrip() throws {
        for call in SecItemCall.allCases {
            let attributes: [String: SecValue]? = call == .update ? ["acct": .string("bob")] : nil
            let message = CallMessage(
                id: 0xDEAD_BEEF,
                call: call,
                request: KeychainAPI.CallRequest(app: "ref-1", query: Self.query, attributesToUpdate: attributes)
            )
            let decoded = CallMessage.decode(message.encoded())
            #expect(decoded.id == 0xDEAD_BEEF)
            #expect(try decoded.message.get() == message)
        }
    }

    @Test func answersSurviveTheRoundTrip() throws {
        let answer = AnswerMessage(
            id: 7,
            body: .answer(KeychainAPI.CallResponse(status: .itemNotFound, result: .array([.dictionary(Self.query)]), reason: "no item"))
        )
        #expect(try AnswerMessage.decode(answer.encoded()) == answer)
        let empty = AnswerMessage(id: 8, body: .answer(KeychainAPI.CallResponse(status: .success, result: nil, reason: nil)))
        #expect(try AnswerMessage.decode(empty.encoded()) == empty)
        for confirmation in [
            Confirmation.allowUse(item: "Mail account", needsPassword: false), .allowUse(item: "Mail account", needsPassword: true),
            .unlock(keychain: "login"),
        ] {
            let asking = AnswerMessage(
                id: 10,
                body: .answer(KeychainAPI.CallResponse(status: .interactionNotAllowed, result: nil, reason: "ask", confirmation: confirmation))
            )
            #expect(try AnswerMessage.decode(asking.encoded()) == asking)
        }
        let problem = AnswerMessage(id: 9, body: .problem(.init(error: "unknownApp", message: "who?", reasons: ["a", "b"])))
        #expect(try AnswerMessage.decode(problem.encoded()) == problem)
    }

    @Test func oneTypeNamesTheCallsForEveryLayer() {
        #expect(SecItemCall.allCases.map(\.rawValue) == ["add", "copy-matching", "update", "delete"])
        #expect(SecItemCall(rawValue: "copy-matching") == .copyMatching && SecItemCall(rawValue: "steal") == nil)
        #expect(SecItemCall.allCases.map(\.function) == ["SecItemAdd", "SecItemCopyMatching", "SecItemUpdate", "SecItemDelete"])
        #expect(SecItemCall.allCases.map(\.wireTag) == [0, 1, 2, 3] && SecItemCall(wireTag: 4) == nil)
        #expect(SecItemCall.update.route == "/v1/items/update" && SecItemCall.delete.systemRoute == "/v1/system/items/delete")
    }

    static var hostile: [(String, [UInt8])] {
        let valid = CallMessage(id: 5, call: .add, request: .init(app: "a", query: ["acct": .string("x")])).encoded()
        // An add (id 5) by app "a", up to its query.
        let prefix: [UInt8] = [0, 0, 0, 5, 1, 0, 0, 0, 0, 1, 0x61]
        let deep = prefix + [8, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0x6B] + Array([[UInt8]](repeating: [7, 0, 0, 0, 1], count: 100).joined())
        return [
            ("empty", []),
            ("id only", [0, 0, 0, 5]),
            ("cut short", Array(valid.dropLast(3))),
            ("trailing bytes", valid + [0]),
            ("unknown kind", [0, 0, 0, 5, 9]),
            ("unknown call", [0, 0, 0, 5, 1, 77]),
            ("a string longer than the message", [0, 0, 0, 5, 1, 0, 0xFF, 0xFF, 0xFF, 0xF0, 0x61]),
            ("a count of four billion", prefix + [8, 0xFF, 0xFF, 0xFF, 0xFF]),
            ("invalid UTF-8", [0, 0, 0, 5, 1, 0, 0, 0, 0, 2, 0xC3, 0x28]),
            ("an unknown value tag", prefix + [8, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0x6B, 99]),
            ("a key that is not text", prefix + [8, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 1, 5, 1, 0]),
            ("a query that is not a dictionary", prefix + [1, 0, 0, 0, 1, 0x78, 0]),
            ("arrays nested 100 deep", deep),
        ]
    }

    @Test(arguments: hostile)
    func hostileBytesAreRefused(name: String, bytes: [UInt8]) {
        let decoded = CallMessage.decode(bytes)
        guard case .failure = decoded.message else {
            Issue.record("\(name) was read as a call")
            return
        }
        #expect(decoded.id == (bytes.count >= 4 ? 5 : nil), "\(name): the id is kept to answer with")
        #expect(throws: (any Error).self) { try AnswerMessage.decode(bytes) }
    }
}
