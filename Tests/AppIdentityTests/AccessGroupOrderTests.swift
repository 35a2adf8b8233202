import AppIdentity
import Testing

/// The access-group list of spec keychain.md §1.1, from entitlements already approved by a profile.
@Suite struct AccessGroupOrderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let entitlements: [String: PlistValue]
        let expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "seed 000: keychain group, app ID, app group",
            entitlements: [
                "keychain-access-groups": .array([.string("ABCDE12345.com.example.SharedItems")]),
                "application-identifier": .string("ABCDE12345.com.example.AppOne"),
                "com.apple.security.application-groups": .array([.string("group.com.example.AppSuite")]),
            ],
            expected: ["ABCDE12345.com.example.SharedItems", "ABCDE12345.com.example.AppOne", "group.com.example.AppSuite"]
        ),
        Case(
            name: "no keychain groups: the app ID comes first and is the default",
            entitlements: [
                "application-identifier": .string("ABCDE12345.com.example.AppTwo"),
                "com.apple.security.application-groups": .array([.string("group.b"), .string("group.a")]),
            ],
            expected: ["ABCDE12345.com.example.AppTwo", "group.b", "group.a"]
        ),
        Case(
            name: "empty strings are dropped, duplicates kept",
            entitlements: [
                "keychain-access-groups": .array([.string(""), .string("X.shared"), .string("X.shared")]),
                "application-identifier": .string("X.app"),
            ],
            expected: ["X.shared", "X.shared", "X.app"]
        ),
        Case(
            name: "a keychain-access-groups entry that is not a string voids the whole entitlement",
            entitlements: [
                "keychain-access-groups": .array([.string("X.shared"), .integer(1)]),
                "application-identifier": .string("X.app"),
            ],
            expected: ["X.app"]
        ),
        Case(
            name: "keychain-access-groups that is not an array is ignored",
            entitlements: [
                "keychain-access-groups": .string("X.shared"),
                "application-identifier": .string("X.app"),
            ],
            expected: ["X.app"]
        ),
        Case(
            name: "macOS spells the app ID com.apple.application-identifier",
            entitlements: [
                "keychain-access-groups": .array([.string("X.shared")]),
                "com.apple.application-identifier": .string("X.mac"),
            ],
            expected: ["X.shared", "X.mac"]
        ),
        Case(
            name: "associated application identifiers come between keychain groups and the app ID",
            entitlements: [
                "keychain-access-groups": .array([.string("X.shared")]),
                "com.apple.developer.associated-application-identifier": .array([.string("X.ios")]),
                "application-identifier": .string("X.catalyst"),
            ],
            expected: ["X.shared", "X.ios", "X.catalyst"]
        ),
        Case(
            name: "App Clips do not get their app groups as keychain groups",
            entitlements: [
                "application-identifier": .string("X.clip"),
                "com.apple.developer.on-demand-install-capable": .bool(true),
                "com.apple.security.application-groups": .array([.string("group.x")]),
            ],
            expected: ["X.clip"]
        ),
        Case(name: "no entitlements, no groups", entitlements: [:], expected: []),
    ]

    @Test(arguments: cases)
    func formsAppleOrder(_ testCase: Case) throws {
        let entitlements = Entitlements(testCase.entitlements)
        #expect(entitlements.accessGroups.map(\.rawValue) == testCase.expected)
        #expect(entitlements.defaultAccessGroup?.rawValue == testCase.expected.first)
    }
}
