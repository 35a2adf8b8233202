import Foundation
import KeychainTypes
import Testing

/// The binary form sealed attributes and lookup digests are made of: it must never change, or
/// stored items could no longer be found or read.
@Suite struct SecValueBinaryTests {
    @Test func theFormIsFixed() {
        #expect(SecValueBinary.encode(.dictionary(["a": .bool(true)])) == [8, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0x61, 5, 1])
        #expect(
            SecValueBinary.encode(.dictionary(["b": .integer(-2), "a": .data(Data([9]))]))
                == [8, 0, 0, 0, 2, 1, 0, 0, 0, 1, 0x61, 2, 0, 0, 0, 1, 9, 1, 0, 0, 0, 1, 0x62, 3] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE],
            "keys in sorted order, integers as 8 big-endian bytes"
        )
        let array: [UInt8] = [7, 0, 0, 0, 2, 1, 0, 0, 0, 2, 0xC3, 0xA9, 4, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0]
        #expect(SecValueBinary.encode(.array([.string("é"), .double(1)])) == array)
    }

    @Test func everyKindSurvivesTheRoundTrip() throws {
        let value = SecValue.dictionary([
            "s": .string("älice"), "d": .data(Data([0, 255])), "i": .integer(.min), "f": .double(-0.5), "t": .bool(true), "n": .bool(false),
            "w": .date(Date(timeIntervalSinceReferenceDate: 1.000_000_1)), "l": .array([.array([]), .dictionary([:])]),
        ])
        var reader = SecValueBinary.Reader(SecValueBinary.encode(value))
        #expect(try reader.readValue() == value && reader.isAtEnd)
    }
}
