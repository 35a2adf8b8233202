import Testing
import WebAuthn

/// The CBOR decoder against RFC 8949 Appendix A's examples, and its bounds on hostile input.
@Suite struct CBORTests {
    static let examples: [(hex: String, item: CBOR)] = [
        ("00", .unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1903e8", .unsigned(1000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)), ("20", .int(-1)), ("3903e7", .int(-1000)),
        ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6449455446", .text("IETF")),
        ("62c3bc", .text("ü")), ("80", .array([])), ("83010203", .array([.int(1), .int(2), .int(3)])),
        ("a201020304", .map([(.int(1), .int(2)), (.int(3), .int(4))])), ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
        ("a26161016162820203", .map([(.text("a"), .int(1)), (.text("b"), .array([.int(2), .int(3)]))])),
    ]

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }

    @Test func decodesAndEncodesTheRFCsExamples() throws {
        for (hex, item) in Self.examples {
            #expect(try CBORDecoder.decode(Self.bytes(hex)) == item, "\(hex)")
            #expect(item.encoded() == Self.bytes(hex), "\(hex)")
        }
    }

    @Test(arguments: [
        ("5f42010243030405ff", "indefinite"),  // indefinite-length byte string
        ("c11a514b67b0", "tags"),  // a tag
        ("f93c00", "float"),  // a half float
        ("5a00000010", "past the end"),  // a length past the end
        ("9affffffff", "past the end"),  // an array claiming 2^32 - 1 elements
        ("a201020318", "ends"),  // a map cut short inside its last value
        ("a201020103", "repeats"),  // a repeated key
        ("0000", "follow"),  // bytes after the item
        ("62c328", "UTF-8"),  // invalid UTF-8
    ])
    func refusesWhatWebAuthnNeverSends(hex: String, mentions: String) {
        #expect {
            try CBORDecoder.decode(Self.bytes(hex))
        } throws: { error in
            "\(error)".contains(mentions)
        }
    }

    @Test func refusesDeepNesting() {
        let deep = [UInt8](repeating: 0x81, count: 100) + [0x00]
        #expect(throws: CBORDecoder.Failure.self) { try CBORDecoder.decode(deep) }
    }
}
