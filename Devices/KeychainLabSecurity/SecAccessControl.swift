public import Foundation

/// The constraints of a `SecAccessControl`, with Apple's bit values.
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: CFOptionFlags
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }

    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    public static let touchIDAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let touchIDCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    public static let watch = SecAccessControlCreateFlags(rawValue: 1 << 5)
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)
}

/// An access-control object: a protection class and constraints. Being an `NSObject`, it fits in
/// `[String: AnyHashable]` dictionaries as wrappers build them. It is what `kSecAttrAccessControl`
/// holds in a result's attributes too, and two with the same protection and constraints are equal,
/// as `CFEqual` finds them.
public final class SecAccessControl: NSObject, @unchecked Sendable {
    // Immutable after init; @unchecked only because NSObject is not Sendable.
    /// The `kSecAttrAccessible` value.
    public let protection: String
    /// The constraints.
    public let flags: SecAccessControlCreateFlags

    init(protection: String, flags: SecAccessControlCreateFlags) {
        self.protection = protection
        self.flags = flags
    }

    public override var description: String {
        flags.isEmpty ? "<SecAccessControlRef: \(protection)>" : "<SecAccessControlRef: \(protection); flags 0x\(String(flags.rawValue, radix: 16))>"
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecAccessControl else { return false }
        return other.protection == protection && other.flags == flags
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(protection)
        hasher.combine(flags.rawValue)
        return hasher.finalize()
    }
}

/// Makes an access-control object; `nil` (and an error) for an unknown protection.
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?,
    _ protection: CFTypeRef,
    _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    let valid = ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"]
    guard let text = (protection as? String) ?? (protection as? NSString).map({ String(describing: $0) }), valid.contains(text) else {
        error?.pointee = Unmanaged.passRetained(NSError(domain: "NSOSStatusErrorDomain", code: Int(errSecParam)))
        return nil
    }
    return SecAccessControl(protection: text, flags: flags)
}

/// A random-number generator; only the default (`nil`) exists.
public final class SecRandom: Sendable {}
public typealias SecRandomRef = SecRandom
public let kSecRandomDefault: SecRandomRef? = nil

/// Fills `bytes` with cryptographically secure random bytes; 0 on success.
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    var generator = SystemRandomNumberGenerator()
    let buffer = bytes.bindMemory(to: UInt8.self, capacity: count)
    for index in 0..<count {
        buffer[index] = UInt8.random(in: .min ... .max, using: &generator)
    }
    return 0
}
