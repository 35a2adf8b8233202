import COpenSSL
public import Foundation
public import LabErrors

/// A set of trusted root certificates, and the chain check OpenSSL makes against them.
public struct TrustStore: Sendable, Hashable {
    /// What the leaf certificate must be good for.
    public enum Purpose: Sendable, Hashable {
        /// S/MIME signing, OpenSSL's default for `openssl cms -verify`.
        case smimeSigning
        /// Any purpose (`-purpose any`), for signatures by TLS certificates such as signed AASA files.
        case any
        /// A TLS server certificate valid for this host name or IP address.
        case tlsServer(host: String)
    }

    /// The trusted roots, DER.
    public let anchors: [Data]

    /// A store trusting these DER roots.
    public init(anchors: [Data]) {
        self.anchors = anchors
    }

    /// A store trusting every certificate of a PEM bundle.
    public init(pem: Data) throws(CMSError) {
        anchors = try X509Handle.all(inPEM: pem).map(\.der)
    }

    /// Checks that `leaf` chains to one of the anchors through `intermediates`, valid at `date`,
    /// and is good for `purpose`.
    public func evaluate(
        _ leaf: Data,
        intermediates: [Data],
        at date: Date,
        purpose: Purpose = .smimeSigning
    ) -> ChainEvaluation {
        OpenSSLErrorQueue.clear()
        let leafHandle: X509Handle
        let untrusted: [X509Handle]
        do {
            leafHandle = try X509Handle(certificate: leaf)
            untrusted = try intermediates.map { data throws(CMSError) in try X509Handle(certificate: data) }
        } catch {
            return .untrusted(reason: error.message)
        }
        guard let store = X509_STORE_new() else { fatalError("OpenSSL could not allocate a store") }
        defer { X509_STORE_free(store) }
        for anchor in anchors {
            guard let handle = try? X509Handle(certificate: anchor) else { continue }
            X509_STORE_add_cert(store, handle.pointer)
        }
        guard let context = X509_STORE_CTX_new() else { fatalError("OpenSSL could not allocate a context") }
        defer { X509_STORE_CTX_free(context) }
        let stack = X509Stack(untrusted)
        guard X509_STORE_CTX_init(context, store, leafHandle.pointer, stack.pointer) == 1 else {
            return .untrusted(reason: OpenSSLErrorQueue.drain())
        }
        let parameters = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_time(parameters, time_t(date.timeIntervalSince1970))
        switch purpose {
        case .smimeSigning:
            X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SMIME_SIGN)
        case .any:
            X509_STORE_CTX_set_purpose(context, X509_PURPOSE_ANY)
        case .tlsServer(let host):
            X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER)
            // An address is checked against the IP entries of the certificate, a name against its DNS entries.
            if X509_VERIFY_PARAM_set1_ip_asc(parameters, host) != 1 {
                OpenSSLErrorQueue.clear()
                X509_VERIFY_PARAM_set1_host(parameters, host, host.utf8.count)
            }
        }
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let depth = X509_STORE_CTX_get_error_depth(context)
            let reason = String(cString: X509_verify_cert_error_string(Int(code)))
            OpenSSLErrorQueue.clear()
            return .untrusted(reason: depth == 0 ? reason : "\(reason) (at chain depth \(depth))")
        }
        let chain = X509Stack.handles(of: X509_STORE_CTX_get0_chain(context)).map(\.der)
        return .trusted(chain: chain)
    }
}

/// The answer of a chain check: the chain found, or why there is none.
public enum ChainEvaluation: Sendable, Hashable {
    /// The chain from the leaf to a trusted root, DER, leaf first.
    case trusted(chain: [Data])
    /// No trusted chain, with OpenSSL's reason ("certificate has expired", "unable to get local issuer certificate"...).
    case untrusted(reason: String)
}
