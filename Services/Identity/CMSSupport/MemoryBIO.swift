import COpenSSL
import Foundation

/// A read-only or growable in-memory OpenSSL BIO, freed when the value goes away.
final class MemoryBIO {
    let pointer: OpaquePointer
    /// A read-only BIO keeps its bytes alive for as long as OpenSSL may read them.
    private let backing: UnsafeMutableRawBufferPointer?

    /// An empty BIO that OpenSSL writes into.
    init() {
        guard let bio = BIO_new(BIO_s_mem()) else { fatalError("OpenSSL could not allocate a memory BIO") }
        pointer = bio
        backing = nil
    }

    /// A BIO that reads `bytes`.
    init(_ bytes: Data) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        bytes.copyBytes(to: buffer)
        guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(bytes.count)) else {
            buffer.deallocate()
            fatalError("OpenSSL could not allocate a memory BIO")
        }
        pointer = bio
        backing = buffer
    }

    deinit {
        BIO_free(pointer)
        backing?.deallocate()
    }

    /// Everything written into the BIO so far.
    var contents: Data {
        var start: UnsafeMutablePointer<CChar>?
        let length = keychainlab_BIO_get_mem_data(pointer, &start)
        guard let start, length > 0 else { return Data() }
        return Data(bytes: start, count: length)
    }
}
