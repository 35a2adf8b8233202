import SiteAssociation
import Testing

/// Entries of the associated-domains entitlement (spec associations.md a.1, a.2).
@Suite struct AssociatedDomainTests {
    @Test func readsEntries() throws {
        let plain = try AssociatedDomain("webcredentials:Example.com")
        #expect(plain.service == .webcredentials && plain.host == "example.com" && !plain.isWildcard && plain.port == nil)
        let ported = try AssociatedDomain("webcredentials:example.com:8443?mode=developer")
        #expect(ported.port == 8443 && ported.mode == .developer && ported.fileAuthority == "example.com:8443")
        let wildcard = try AssociatedDomain("applinks:*.example.com")
        #expect(wildcard.isWildcard && wildcard.host == "example.com")
        #expect(wildcard.covers("www.example.com") && wildcard.covers("a.b.example.com"))
        #expect(!wildcard.covers("example.com"), "*.example.com does not cover example.com")
        #expect(try AssociatedDomain("applinks:example.com?mode=developer+managed").mode == .developerManaged)
    }

    @Test(
        arguments: [
            "example.com", "web:example.com", "applinks:https://example.com", "applinks:example.com/", "applinks:example.com/path",
            "applinks:example.com:8080", "appclips:*.example.com", "webcredentials:example.com?mode=debug", "webcredentials:exämple.com",
            "webcredentials:", "webcredentials:example.com:99999",
        ]
    )
    func refusesMalformedEntries(entry: String) {
        #expect(throws: AssociatedDomainError.self) { try AssociatedDomain(entry) }
    }
}
