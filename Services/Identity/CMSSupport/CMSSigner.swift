import COpenSSL
public import Foundation
public import LabErrors

/// Makes CMS SignedData messages with the content attached, as `openssl cms -sign -nodetach` does.
public struct CMSSigner: Sendable {
    /// The signer's certificate, PEM.
    public let certificatePEM: Data
    /// The signer's private key, PEM (PKCS #8 or traditional).
    public let privateKeyPEM: Data
    /// Intermediate certificates to carry in the message, PEM, so a verifier can build the chain.
    public let chainPEM: [Data]

    /// A signer for this identity.
    public init(certificatePEM: Data, privateKeyPEM: Data, chainPEM: [Data] = []) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.chainPEM = chainPEM
    }

    /// Signs `content` and returns the DER message.
    ///
    /// - Parameter signedAttributes: `false` behaves like `openssl smime -noattr` (seed 002, Listing 2).
    public func sign(_ content: Data, signedAttributes: Bool = true) throws(CMSError) -> Data {
        OpenSSLErrorQueue.clear()
        let certificate = try X509Handle(certificate: certificatePEM)
        let key = try Self.privateKey(privateKeyPEM)
        defer { EVP_PKEY_free(key) }
        var chain: [X509Handle] = []
        for pem in chainPEM {
            chain.append(contentsOf: try X509Handle.all(inPEM: pem))
        }
        let stack = X509Stack(chain)
        let input = MemoryBIO(content)
        var flags = UInt32(CMS_BINARY)
        if !signedAttributes { flags |= UInt32(CMS_NOATTR) }
        guard let cms = CMS_sign(certificate.pointer, key, stack.pointer, input.pointer, flags) else {
            throw CMSError(.signingFailed, "OpenSSL could not sign: \(OpenSSLErrorQueue.drain())")
        }
        defer { CMS_ContentInfo_free(cms) }
        let output = MemoryBIO()
        guard i2d_CMS_bio(output.pointer, cms) == 1 else {
            throw CMSError(.signingFailed, "OpenSSL could not encode the message: \(OpenSSLErrorQueue.drain())")
        }
        return output.contents
    }

    private static func privateKey(_ pem: Data) throws(CMSError) -> OpaquePointer {
        let bio = MemoryBIO(pem)
        guard let key = PEM_read_bio_PrivateKey(bio.pointer, nil, nil, nil) else {
            throw CMSError(.malformedPrivateKey, "not a PEM private key: \(OpenSSLErrorQueue.drain())")
        }
        return key
    }
}
