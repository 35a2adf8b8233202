import SiteAssociationFetch
import Testing

/// `--resolve HOST=ADDR[:PORT]`, as kclab, the CDN and associationd read it.
@Suite struct ResolutionsTests {
    @Test func readsEntries() throws {
        let map = try Resolutions.parse(["Example.com=127.0.0.1:8443", "www.example.com=10.0.0.2"])
        #expect(map["example.com"]?.address == "127.0.0.1" && map["example.com"]?.port == 8443)
        #expect(map["www.example.com"]?.address == "10.0.0.2" && map["www.example.com"]?.port == nil)
    }

    @Test(arguments: ["example.com", "=1.2.3.4", "example.com=", "example.com=1.2.3.4:http", "example.com=1.2.3.4:0", "a=b:1:2"])
    func refusesMalformedEntries(entry: String) {
        #expect(throws: ResolutionError.self) { try Resolutions.parse([entry]) }
    }
}
