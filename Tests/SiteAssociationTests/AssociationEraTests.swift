import SiteAssociation
import Testing

/// The iOS release a device's association rules follow, and where it reads files from: one rule
/// for associationd and `kclab aasa check` (which once added 4 to a macOS version, not 3).
@Suite struct AssociationEraTests {
    @Test(arguments: [(false, 12, 12), (false, 17, 17), (true, 11, 14), (true, 13, 16), (true, 14, 17)])
    func macOSFollowsTheIOSReleaseItShippedWith(isMac: Bool, major: Int, era: Int) {
        #expect(AssociationEra.iOSRelease(isMac: isMac, major: major) == era)
    }

    @Test func iOS14AndLaterReadThroughTheCDNUnlessDirect() {
        #expect(!AssociationEra.readsThroughCDN(era: 13, direct: false))
        #expect(AssociationEra.readsThroughCDN(era: 14, direct: false))
        #expect(!AssociationEra.readsThroughCDN(era: 17, direct: true))
        #expect(AssociationEra.readsThroughCDN(era: AssociationEra.iOSRelease(isMac: true, major: 11), direct: false), "macOS 11 is iOS 14")
    }

    @Test func theCDNPath() {
        let url = AppleCDNPath.url(base: "https://cdn.example", authority: "example.com:8443")
        #expect(url == "https://cdn.example/a/v1/example.com:8443")
        #expect(AppleCDNPath.isCDN(url))
        #expect(!AppleCDNPath.isCDN("https://example.com/.well-known/apple-app-site-association"))
    }
}
