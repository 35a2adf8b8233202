import COpenSSL
public import Foundation
public import LabErrors

/// A CMS SignedData message whose signature has been checked against its own content.
///
/// Opening a message proves only that the signer's key signed these bytes. Whether the signer is
/// trusted is a separate question, answered by ``TrustStore/evaluate(_:intermediates:at:purpose:)``,
/// so that a caller can say precisely which of the two failed.
public struct SignedMessage: Sendable, Hashable {
    /// The signed content.
    public let content: Data
    /// The signer's certificate, DER.
    public let signerCertificate: Data
    /// Every certificate the message carries, DER (the signer's included), for chain building.
    public let certificates: [Data]

    /// Parses a DER message and checks its signature.
    ///
    /// Throws ``CMSError/Code/malformedMessage`` for bytes that are not CMS,
    /// ``CMSError/Code/missingContent`` for a detached signature, and
    /// ``CMSError/Code/badSignature`` when the signature does not match the content.
    public init(der: Data) throws(CMSError) {
        let opened = try Self.open(der, checkingSignature: true)
        content = opened.content
        signerCertificate = opened.signer
        certificates = opened.certificates
    }

    /// Reads a message's content and certificates without checking its signature, so that a
    /// person can be shown what a message that was changed after signing says. Nothing read this
    /// way may be trusted: ``init(der:)`` is the only door to a ``SignedMessage``.
    public static func unverifiedContent(der: Data) throws(CMSError) -> (content: Data, signer: Data, certificates: [Data]) {
        try open(der, checkingSignature: false)
    }

    private static func open(_ der: Data, checkingSignature: Bool) throws(CMSError) -> (content: Data, signer: Data, certificates: [Data]) {
        OpenSSLErrorQueue.clear()
        let input = MemoryBIO(der)
        guard let cms = d2i_CMS_bio(input.pointer, nil) else {
            throw CMSError(.malformedMessage, "not a DER CMS message: \(OpenSSLErrorQueue.drain())")
        }
        defer { CMS_ContentInfo_free(cms) }
        guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed else {
            throw CMSError(.malformedMessage, "the CMS message is not SignedData")
        }
        guard CMS_is_detached(cms) == 0 else {
            throw CMSError(.missingContent, "the CMS message carries no content (a detached signature)")
        }
        let output = MemoryBIO()
        // The chain is evaluated separately (TrustStore), so only the signature is checked here.
        var flags = UInt32(CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY)
        if !checkingSignature { flags |= UInt32(CMS_NO_CONTENT_VERIFY | CMS_NO_ATTR_VERIFY) }
        guard CMS_verify(cms, nil, nil, nil, output.pointer, flags) == 1 else {
            throw CMSError(.badSignature, "the signature does not match the content: \(OpenSSLErrorQueue.drain())")
        }
        let signers = X509Stack.handles(of: CMS_get0_signers(cms))
        guard signers.count == 1, let signer = signers.first else {
            throw CMSError(.badSignature, "expected exactly one signer, found \(signers.count)")
        }
        let carried = CMS_get1_certs(cms)
        defer { if let carried { keychainlab_sk_X509_pop_free(carried) } }
        return (output.contents, signer.der, X509Stack.handles(of: carried).map(\.der))
    }
}
