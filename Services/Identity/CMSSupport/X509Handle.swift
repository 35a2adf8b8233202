import COpenSSL
import Foundation
import LabErrors

/// One OpenSSL `X509`, owned and freed by this object.
final class X509Handle {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Shares `pointer` with its current owner by taking a reference of our own.
    init(retaining pointer: OpaquePointer) {
        X509_up_ref(pointer)
        self.pointer = pointer
    }

    /// Reads a certificate in DER or PEM form.
    convenience init(certificate bytes: Data) throws(CMSError) {
        OpenSSLErrorQueue.clear()
        let bio = MemoryBIO(bytes)
        if let pem = PEM_read_bio_X509(bio.pointer, nil, nil, nil) {
            self.init(owning: pem)
            return
        }
        OpenSSLErrorQueue.clear()
        let der = MemoryBIO(bytes)
        guard let certificate = d2i_X509_bio(der.pointer, nil) else {
            throw CMSError(.malformedCertificate, "not a PEM or DER certificate: \(OpenSSLErrorQueue.drain())")
        }
        self.init(owning: certificate)
    }

    /// Every certificate of a PEM bundle, in order.
    static func all(inPEM bytes: Data) throws(CMSError) -> [X509Handle] {
        OpenSSLErrorQueue.clear()
        let bio = MemoryBIO(bytes)
        var handles: [X509Handle] = []
        while let certificate = PEM_read_bio_X509(bio.pointer, nil, nil, nil) {
            handles.append(X509Handle(owning: certificate))
        }
        // Reading stops with a "no start line" error at the end of the bundle; that is not a failure.
        OpenSSLErrorQueue.clear()
        guard !handles.isEmpty else {
            throw CMSError(.malformedCertificate, "no PEM certificate found")
        }
        return handles
    }

    deinit {
        X509_free(pointer)
    }

    /// The certificate's DER encoding.
    var der: Data {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(pointer, &out)
        guard length > 0, let out else { return Data() }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Data(bytes: out, count: Int(length))
    }
}

/// An OpenSSL `STACK_OF(X509)` built from handles; the stack holds references of its own.
final class X509Stack {
    let pointer: OpaquePointer

    init(_ handles: [X509Handle]) {
        guard let stack = keychainlab_sk_X509_new_null() else { fatalError("OpenSSL could not allocate a stack") }
        for handle in handles {
            X509_up_ref(handle.pointer)
            keychainlab_sk_X509_push(stack, handle.pointer)
        }
        pointer = stack
    }

    deinit {
        keychainlab_sk_X509_pop_free(pointer)
    }

    /// Copies the certificates of any OpenSSL stack into owned handles.
    static func handles(of stack: OpaquePointer?) -> [X509Handle] {
        guard let stack else { return [] }
        return (0..<keychainlab_sk_X509_num(stack)).compactMap { index in
            keychainlab_sk_X509_value(stack, index).map { X509Handle(retaining: $0) }
        }
    }
}
