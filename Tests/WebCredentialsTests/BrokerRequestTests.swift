import AppIdentity
import Foundation
import KeychainTypes
import Synchronization
import Testing
import UserAnswers
import WebCredentialAPI
import WebCredentials

/// SecRequestSharedWebCredential: G1's picker (d.4) and G2's password request (d.5).
@Suite struct BrokerRequestTests {
    typealias F = BrokerFixture

    static func filled() -> F {
        let fixture = F()
        fixture.keychain.save(host: "example.com", account: "safari-bob", password: "b0b", comment: "Safari")
        fixture.keychain.save(host: "example.com", account: "alice", password: "al1ce", comment: "default")
        fixture.keychain.save(host: "example.com", account: "Passwords not saved", password: "")
        fixture.keychain.save(host: "www.example.com", account: "carol", password: "c4rol", port: 8443, comment: "default")
        return fixture
    }

    @Test func g1ShowsAPickerOfApprovedItemsDefaultCommentFirst() async throws {
        let fixture = Self.filled()
        let asked = await fixture.request(nil, nil, app: F.app("12.5"))
        let prompt = try #require(asked.prompt)
        #expect(prompt.kind == .picker)
        #expect(prompt.title == "Select a Saved Password to Use With “DemoApp”")
        #expect(prompt.choices == ["alice (example.com)", "carol (www.example.com:8443)", "safari-bob (example.com)"])
        let picked = await fixture.request(nil, nil, app: F.app("12.5"), answer: .pick(2))
        #expect(picked.status == 0 && picked.error == nil)
        #expect(
            picked.credentials == [["srvr": .string("www.example.com"), "acct": .string("carol"), "spwd": .string("c4rol"), "port": .integer(8443)]]
        )
        #expect(fixture.users.records.withLock { $0["\(F.appID)@www.example.com"] } == true)
    }

    @Test func g1CancelIsAnEmptyArrayWithNoError() async {
        let fixture = Self.filled()
        let canceled = await fixture.request("example.com", nil, app: F.app("15.3"), answer: .decline)
        #expect(canceled.status == 0 && canceled.error == nil && canceled.credentials == [])
    }

    @Test func g1WithNothingSavedIsItemNotFound() async {
        let fixture = F()
        let none = await fixture.request("example.com", "alice", app: F.app("12.5"))
        #expect(none.status == -25300 && none.error?.message == "no matching items found" && none.credentials == [])
    }

    @Test func g1OffersNothingFromAnUnapprovedSite() async {
        var fixture = Self.filled()
        fixture.sites = FixedSites(["\(F.appID)@www.example.com"])
        let asked = await fixture.request("example.com", nil, app: F.app("12.5"))
        #expect(asked.status == -25300)
    }

    @Test func g1NullFQDNFromIOS14TakesEveryServiceAndAnyRefusalAbortsTheRequest() async {
        let fixture = Self.filled()
        let domains = ["webcredentials:example.com", "applinks:links.example.com"]
        #expect(await fixture.request(nil, nil, app: F.app("13.7", domains: domains)).prompt?.kind == .picker)
        let modern = await fixture.request(nil, nil, app: F.app("14.8", domains: domains))
        #expect(modern.status == -34018)
        #expect(modern.error?.message == "links.example.com not found in com.apple.developer.associated-domains entitlement")
        #expect(await fixture.request(nil, nil, app: F.app("12.5", domains: [])).error?.message == "No domain provided")
    }

    @Test func g2IgnoresTheAccountAndNamesTheFQDNAskedFor() async throws {
        let fixture = Self.filled()
        let asked = await fixture.request("example.com", "nobody", app: F.app("17.4"))
        #expect(asked.prompt?.kind == .passwordRequest)
        let picked = await fixture.request("example.com", "nobody", app: F.app("17.4"), answer: .pick(2))
        #expect(picked.credentials == [["srvr": .string("example.com"), "acct": .string("carol"), "spwd": .string("c4rol")]])
    }

    @Test func g2CancelAndEmptyAreItemNotFoundWithAnAuthorizationError() async {
        let fixture = Self.filled()
        let canceled = await fixture.request(nil, nil, app: F.app("17.4"), answer: .decline)
        #expect(canceled.status == -25300 && canceled.credentials == [])
        #expect(canceled.error?.domain == "com.apple.AuthenticationServices.AuthorizationError" && canceled.error?.code == 1001)
        let empty = await F().request(nil, nil, app: F.app("16.0"))
        #expect(empty.status == -25300 && empty.error?.code == 1001)
    }

    @Test func g2WithoutWebCredentialsEntriesNeedsAnFQDN() async {
        let refused = await F().request(nil, nil, app: F.app("17.4", domains: ["applinks:example.com"]))
        #expect(refused.status == -50 && refused.error?.message == "fqdn was NULL, and no associated domains found")
        let mac = await F().request(nil, nil, app: F.app("14.0", platform: .macos, domains: ["webcredentials:"]))
        #expect(mac.error?.message == "fqdn was NULL, and no associated domains found")
    }

    @Test func behaviourByRelease() {
        func behaviour(_ version: String) -> BrokerBehaviour { F.app(version).behaviour }
        #expect(behaviour("15.3").requestGeneration == .picker)
        #expect(behaviour("15.4").requestGeneration == .passwordRequest)
        #expect(F.app("11.0", platform: .macos).behaviour.requestGeneration == .passwordRequest)
        #expect(!behaviour("12.5").promptsForNewAccount && behaviour("13.0").promptsForNewAccount)
        #expect(behaviour("10.3").promptsForUnchangedPassword && !behaviour("11.0").promptsForUnchangedPassword)
    }
}
