import AppIdentity
import LabErrors
import Testing

@Suite struct IdentifierTests {
    @Test(arguments: ["ABCDE12345", "D3KQX62K1A", "0123456789"])
    func acceptsTeamIDs(_ text: String) throws {
        #expect(try TeamID(text).rawValue == text)
    }

    @Test(arguments: ["", "ABCDE1234", "ABCDE123456", "abcde12345", "ABCDE-1234", "ABCDE 1234", "ÄBCDE12345"])
    func rejectsMalformedTeamIDs(_ text: String) {
        #expect(throws: IdentityError(.malformedValue, "")) { try TeamID(text) }
    }

    @Test(arguments: ["com.example.AppOne", "a", "com.example.app-one", "X1.y2"])
    func acceptsBundleIDs(_ text: String) throws {
        #expect(try BundleID(text).rawValue == text)
    }

    @Test(arguments: ["", ".com.example", "com..example", "com.example.", "com example", "com/example", "com.exämple"])
    func rejectsMalformedBundleIDs(_ text: String) {
        #expect(throws: IdentityError(.malformedValue, "")) { try BundleID(text) }
    }

    @Test func appIDJoinsPrefixAndBundleID() throws {
        let appID = try AppID("ABCDE12345.com.example.AppOne")
        #expect(appID.prefix.rawValue == "ABCDE12345")
        #expect(appID.bundleID.rawValue == "com.example.AppOne")
        #expect(appID.rawValue == "ABCDE12345.com.example.AppOne")
        #expect(throws: IdentityError(.malformedValue, "")) { try AppID("ABCDE12345") }
        #expect(throws: IdentityError(.malformedValue, "")) { try AppID("short.com.example") }
    }

    @Test(arguments: [
        ("ABCDE12345.com.example.AppOne", "ABCDE12345.com.example.AppOne", true),
        ("ABCDE12345.com.example.AppOne", "ABCDE12345.com.example.AppTwo", false),
        ("ABCDE12345.*", "ABCDE12345.com.example.AppOne", true),
        ("ABCDE12345.*", "ZZZZZ99999.com.example.AppOne", false),
        ("ABCDE12345.com.example.*", "ABCDE12345.com.example.AppOne", true),
        ("ABCDE12345.com.example.*", "ABCDE12345.com.other.AppOne", false),
    ])
    func appIDPatternsMatch(_ pattern: String, _ appID: String, _ expected: Bool) throws {
        #expect(try AppIDPattern(pattern).matches(AppID(appID)) == expected)
    }

    @Test(arguments: [
        ("*", "anything at all", true),
        ("ABCDE12345.*", "ABCDE12345.shared", true),
        ("ABCDE12345.*", "ABCDE12345.", true),
        ("ABCDE12345.*", "ABCDE1234.shared", false),
        ("group.one", "group.one", true),
        ("group.one", "group.one.more", false),
        ("group.one", "GROUP.ONE", false),
    ])
    func entitlementPatternsMatch(_ pattern: String, _ value: String, _ expected: Bool) {
        #expect(EntitlementPattern(pattern).matches(value) == expected)
    }

    @Test(arguments: [("17.4", "17.4"), ("12", "12.0"), ("12.5.1", "12.5.1"), ("13.0.0", "13.0")])
    func parsesOSVersions(_ text: String, _ shown: String) throws {
        #expect(try OSVersion(text).description == shown)
    }

    @Test(arguments: ["", "17.", "a.b", "1.2.3.4", "-1", "17.4 beta"])
    func rejectsMalformedOSVersions(_ text: String) {
        #expect(throws: IdentityError(.malformedValue, "")) { try OSVersion(text) }
    }

    @Test func ordersOSVersions() throws {
        #expect(try OSVersion("12.5") < OSVersion("13"))
        #expect(try OSVersion("13.0.1") > OSVersion("13"))
        #expect(try OSVersion("15.4") >= OSVersion("15.4.0"))
    }

    @Test func emptyAccessGroupIsInvalid() {
        #expect(throws: IdentityError(.malformedValue, "")) { try AccessGroup("") }
    }
}
