import AppIdentity
import Foundation
import Testing

/// The hand-written XML property-list writer: what it writes reads back as the same values, in the
/// layout Apple's tools write.
@Suite struct XMLPropertyListTests {
    static let everyKind: [String: PlistValue] = [
        "string": .string("x < y & z > w"),
        "bool": .bool(true),
        "false": .bool(false),
        "integer": .integer(-42),
        "real": .real(1.5),
        "date": .date(Date(timeIntervalSince1970: 1_700_000_000)),
        "data": .data(Data((0..<200).map { UInt8($0) })),
        "array": .array([.string("ABCDE12345.*"), .integer(1), .array([]), .dictionary([:])]),
        "nested": .dictionary(["keychain-access-groups": .array([.string("a"), .string("b")]), "<key&>": .bool(false)]),
        "empty array": .array([]),
        "empty dictionary": .dictionary([:]),
    ]

    @Test func everyKindOfValueReadsBack() throws {
        let data = PlistValue.xmlPropertyList(Self.everyKind)
        #expect(try PlistValue.dictionary(fromPropertyList: data) == Self.everyKind)
    }

    @Test func layoutIsApples() {
        let data = PlistValue.xmlPropertyList([
            "b": .array([.integer(1), .string("x<&>"), .bool(true)]),
            "a": .data(Data([1, 2, 3])),
            "c": .dictionary([:]),
        ])
        #expect(
            String(decoding: data, as: UTF8.self) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t<key>a</key>
                \t<data>
                \tAQID
                \t</data>
                \t<key>b</key>
                \t<array>
                \t\t<integer>1</integer>
                \t\t<string>x&lt;&amp;&gt;</string>
                \t\t<true/>
                \t</array>
                \t<key>c</key>
                \t<dict/>
                </dict>
                </plist>

                """
        )
    }

    @Test func equalValuesGiveEqualBytes() {
        var reordered: [String: PlistValue] = [:]
        for key in Self.everyKind.keys.reversed() { reordered[key] = Self.everyKind[key] }
        #expect(PlistValue.xmlPropertyList(reordered) == PlistValue.xmlPropertyList(Self.everyKind))
    }
}
