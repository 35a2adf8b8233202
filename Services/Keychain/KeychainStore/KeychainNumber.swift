import Crypto
import Foundation
import Synchronization

/// Rows name their keychain by number: the first 8 bytes of the SHA-256 of its name. Every index
/// leads with the keychain, and a name ("device:" and a 40-digit UDID) took 47 bytes in each of
/// them; a number takes 8 and needs no lookup table to find (the `keychains` table only keeps the
/// names for listings).
enum KeychainNumber {
    private static let known = Mutex<[String: Int64]>([:])

    static func of(_ name: String) -> Int64 {
        if let number = known.withLock({ $0[name] }) { return number }
        let digest = Array(SHA256.hash(data: Data(name.utf8)))
        let number = Int64(bitPattern: digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        known.withLock { known in
            if known.count > 4096 { known.removeAll() }
            known[name] = number
        }
        return number
    }
}
