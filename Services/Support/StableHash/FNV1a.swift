/// FNV-1a, 64-bit: a hash that is the same in every process, on every machine and in every
/// release, unlike Swift's seeded `Hasher`. The lab places things by it: an account on its shard
/// (cloudd's `ShardedZoneStorage`), an app on its user ID (a device's `AppUser`), and names
/// a web-credential prompt so that an answer applies to it alone (`Prompt.id`).
public enum FNV1a {
    /// The hash of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
