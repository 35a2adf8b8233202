import CMSSupport
import Foundation
import LabErrors
import Testing
import WorldTestSupport

@Suite struct SignedMessageTests {
    /// The profile signer of a built world, as a CMS signer.
    static func signer(_ built: BuiltWorld) throws -> CMSSigner {
        CMSSigner(
            certificatePEM: try Data(contentsOf: built.file("ca/profile-signing.pem")),
            privateKeyPEM: try Data(contentsOf: built.file("ca/profile-signing.key")),
            chainPEM: [try Data(contentsOf: built.file("trust/developer-ca.pem"))]
        )
    }

    @Test func signsAndOpens() async throws {
        try await withBuiltWorld { built in
            let content = Data("<plist>hello</plist>".utf8)
            for attributes in [true, false] {
                let message = try SignedMessage(der: try Self.signer(built).sign(content, signedAttributes: attributes))
                #expect(message.content == content)
                #expect(message.certificates.contains(message.signerCertificate))
                #expect(message.certificates.count == 2, "the signer and the intermediate travel with the message")
                let evaluation = try built.trustStore().evaluate(message.signerCertificate, intermediates: message.certificates, at: Date())
                guard case .trusted(let chain) = evaluation else {
                    Issue.record("expected a trusted chain, got \(evaluation)")
                    return
                }
                #expect(chain.count == 3)
            }
        }
    }

    @Test func refusesAlteredContent() async throws {
        try await withBuiltWorld { built in
            var der = try Self.signer(built).sign(Data("grant: nothing".utf8))
            let range = try #require(der.firstRange(of: Data("nothing".utf8)))
            der.replaceSubrange(range, with: Data("all!!!!".utf8))
            #expect(throws: CMSError(.badSignature, "")) { try SignedMessage(der: der) }
        }
    }

    @Test(arguments: [Data(), Data("not DER".utf8), Data([0x30, 0x03, 0x02, 0x01, 0x01])])
    func refusesMalformedMessages(_ der: Data) {
        #expect(throws: CMSError(.malformedMessage, "")) { try SignedMessage(der: der) }
    }

    @Test func refusesDetachedSignatures() async throws {
        try await withBuiltWorld { built in
            let content = built.file("content.txt")
            try Data("detached".utf8).write(to: content)
            let output = built.file("detached.der")
            let result = try runTool(
                "openssl",
                [
                    "cms", "-sign", "-binary", "-in", content.path, "-signer", built.file("ca/profile-signing.pem").path,
                    "-inkey", built.file("ca/profile-signing.key").path, "-outform", "DER", "-out", output.path,
                ]
            )
            #expect(result.status == 0, "\(result.stderr)")
            #expect(throws: CMSError(.missingContent, "")) { try SignedMessage(der: Data(contentsOf: output)) }
        }
    }

    /// OpenSSL's own `smime -sign` output, RSA with the rsaEncryption algorithm and NULL digest
    /// parameters that swift-certificates' CMS rejects, opens here.
    @Test func opensOpenSSLRSASignatures() async throws {
        try await withTemporaryDirectory { folder in
            let key = folder.appending(path: "rsa.key").path
            let certificate = folder.appending(path: "rsa.pem").path
            let json = folder.appending(path: "json.txt")
            let signed = folder.appending(path: "aasa.der")
            try Data(#"{"webcredentials":{"apps":["D3KQX62K1A.com.example.DemoApp"]}}"#.utf8).write(to: json)
            var result = try runTool(
                "openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                    "-subj", "/CN=example.com", "-days", "2", "-addext", "subjectAltName=DNS:example.com",
                ]
            )
            #expect(result.status == 0, "\(result.stderr)")
            result = try runTool(
                "openssl",
                [
                    "smime", "-sign", "-in", json.path, "-inkey", key, "-signer", certificate, "-noattr", "-nodetach",
                    "-outform", "DER", "-out", signed.path,
                ]
            )
            #expect(result.status == 0, "\(result.stderr)")
            let message = try SignedMessage(der: Data(contentsOf: signed))
            #expect(message.content == (try Data(contentsOf: json)))
            let store = try TrustStore(pem: Data(contentsOf: URL(fileURLWithPath: certificate)))
            #expect(
                TrustStoreTests.isTrusted(
                    store.evaluate(message.signerCertificate, intermediates: [], at: Date(), purpose: .tlsServer(host: "example.com"))
                )
            )
            guard
                case .untrusted(let reason) = store.evaluate(
                    message.signerCertificate,
                    intermediates: [],
                    at: Date(),
                    purpose: .tlsServer(host: "other.com")
                )
            else {
                Issue.record("a certificate for example.com must not pass for other.com")
                return
            }
            #expect(reason.contains("mismatch"))
        }
    }
}
