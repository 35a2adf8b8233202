import CMSSupport
import Foundation
import Testing
import WorldTestSupport

@Suite struct TrustStoreTests {
    @Test func explainsWhyAChainIsNotTrusted() async throws {
        try await withBuiltWorld { built in
            let leaf = try Data(contentsOf: built.file("ca/profile-signing.pem"))
            let intermediate = try Data(contentsOf: built.file("trust/developer-ca.pem"))
            let store = try built.trustStore()
            let now = Date()

            #expect(Self.isTrusted(store.evaluate(leaf, intermediates: [intermediate], at: now)))
            #expect(Self.reason(store.evaluate(leaf, intermediates: [], at: now)).contains("unable to get local issuer certificate"))
            #expect(Self.reason(store.evaluate(leaf, intermediates: [intermediate], at: now.addingTimeInterval(800 * 86_400))).contains("expired"))
            #expect(Self.reason(store.evaluate(leaf, intermediates: [intermediate], at: now.addingTimeInterval(-86_400))).contains("not yet valid"))
            // The web root does not vouch for code-signing certificates.
            #expect(!Self.isTrusted(try built.webTrustStore().evaluate(leaf, intermediates: [intermediate], at: now)))
            // A code-signing certificate is not a TLS server certificate.
            #expect(!Self.isTrusted(store.evaluate(leaf, intermediates: [intermediate], at: now, purpose: .tlsServer(host: "example.com"))))
            #expect(Self.reason(store.evaluate(Data("junk".utf8), intermediates: [], at: now)).contains("certificate"))
        }
    }

    @Test func trustsWebsitesForTheirOwnNamesOnly() async throws {
        try await withBuiltWorld { built in
            let leaf = try Data(contentsOf: built.file("websites/example.com/tls.pem"))
            let intermediate = try Data(contentsOf: built.file("trust/web-ca.pem"))
            let store = try built.webTrustStore()
            #expect(Self.isTrusted(store.evaluate(leaf, intermediates: [intermediate], at: Date(), purpose: .tlsServer(host: "example.com"))))
            #expect(!Self.isTrusted(store.evaluate(leaf, intermediates: [intermediate], at: Date(), purpose: .tlsServer(host: "signed.example.com"))))
        }
    }

    static func isTrusted(_ evaluation: ChainEvaluation) -> Bool {
        if case .trusted = evaluation { return true }
        return false
    }

    static func reason(_ evaluation: ChainEvaluation) -> String {
        if case .untrusted(let reason) = evaluation { return reason }
        return "trusted"
    }
}
