import Foundation
import KeychainLabSecurity
import KeychainTypes
import Testing

/// macOS's legacy access control API, as Valet's MacTests call it: trusted applications made from
/// a path or from the calling app, an access object listing them, and `kSecAttrAccess` carrying
/// it to the device in a SecItemAdd dictionary.
@Suite struct LegacyAccessClientTests {
    static let systemUIServer = "/System/Library/CoreServices/SystemUIServer.app"

    static func trustedApplication(_ path: String?) throws -> SecTrustedApplication {
        var application: SecTrustedApplication?
        let status: OSStatus
        if let path {
            status = SecTrustedApplicationCreateFromPath(path, &application)
        } else {
            status = SecTrustedApplicationCreateFromPath(nil, &application)
        }
        #expect(status == errSecSuccess)
        return try #require(application)
    }

    static func access(_ descriptor: String, _ list: NSArray?) -> (OSStatus, SecAccess?) {
        var access: SecAccess?
        let status = SecAccessCreate(descriptor as CFString, list, &access)
        return (status, access)
    }

    @Test func anAddCarriesTheListToTheKeychain() throws {
        let list = [try Self.trustedApplication(nil), try Self.trustedApplication(Self.systemUIServer)] as NSArray
        let (status, made) = Self.access("Access Control List", list)
        #expect(status == errSecSuccess)
        let access = try #require(made)
        let query: [String: AnyHashable] = [
            kSecClass as String: kSecClassGenericPassword as String,
            kSecAttrAccount as String: "KeepIt",
            kSecAttrAccess as String: access,
        ]
        let sent = try #require(CFBridging.dictionary(query as NSDictionary))
        let expected = LegacyAccess(descriptor: "Access Control List", trustedApplications: [.caller, .path(Self.systemUIServer)])
        #expect(sent[LegacyAccess.key].flatMap { LegacyAccess($0) } == expected)
        #expect(sent["acls"] == expected.secValue)
    }

    /// No list trusts the app that adds the item alone; an empty list, no app.
    @Test func noListAndAnEmptyListDiffer() throws {
        let none = try #require(Self.access("default", nil).1)
        let empty = try #require(Self.access("nobody", [] as NSArray).1)
        #expect(none.description == "<SecAccess default>")
        let sentNone = try #require(CFBridging.value(none))
        let sentEmpty = try #require(CFBridging.value(empty))
        #expect(LegacyAccess(sentNone) == LegacyAccess(descriptor: "default", trustedApplications: nil))
        #expect(LegacyAccess(sentEmpty) == LegacyAccess(descriptor: "nobody", trustedApplications: []))
    }

    @Test func aListOfAnythingButTrustedApplicationsIsRefused() {
        let (status, access) = Self.access("x", ["/Applications/Mail.app"] as NSArray)
        #expect(status == errSecParam)
        #expect(access == nil)
    }

    @Test func trustedApplicationsCompareByWhatTheyName() throws {
        #expect(try Self.trustedApplication(Self.systemUIServer) == Self.trustedApplication(Self.systemUIServer))
        #expect(try Self.trustedApplication(nil) != Self.trustedApplication(Self.systemUIServer))
    }

    @Test func theKeyHasApplesValue() {
        #expect(kSecAttrAccess as String == "acls")
        #expect(LegacyAccess.key == "acls")
    }
}
