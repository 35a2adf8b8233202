public import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, then 74 random bits.
    ///
    /// Items get these so that newer items sort after older ones: the store's UUID index then
    /// grows at its end instead of taking a random page on every add. Persistent references carry
    /// the UUID, which tells no more than the item's `cdat`.
    public static func timeOrdered(at date: Date = Date()) -> UUID {
        var random = SystemRandomNumberGenerator()
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
        for index in 6..<16 { bytes[index] = random.next() }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}
