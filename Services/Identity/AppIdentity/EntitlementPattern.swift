/// A value in a provisioning profile's entitlements that allows values in an app's signature:
/// exact text, or text ending in `*` that allows any value starting with what precedes it
/// (`ABCDE12345.*`). A lone `*` allows anything.
public struct EntitlementPattern: Hashable, Sendable {
    /// The pattern text.
    public let rawValue: String

    /// Wraps pattern text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether `value` is allowed by this pattern.
    public func matches(_ value: String) -> Bool {
        guard rawValue.hasSuffix("*") else { return value == rawValue }
        return value.hasPrefix(rawValue.dropLast())
    }
}

/// A profile's array of allowed values, indexed so that checking a claimed value costs its own
/// length, not the length of the profile's array: exact strings in a set, `…*` patterns in a
/// prefix tree, everything else by equality. Checking every element of a claimed array against a
/// profile's array is then linear in the two, not their product.
struct EntitlementPatternSet {
    private var exact: Set<String> = []
    private var others: Set<PlistValue> = []
    private var allowsAll = false
    private var allowsEveryString = false
    private var allowsEveryBool = false
    private var allowsFalse = false
    /// The prefixes of `…*` patterns, as a tree of UTF-8 bytes; `prefixEnds[node]` marks a whole prefix.
    private var prefixChildren: [[UInt8: Int]] = [[:]]
    private var prefixEnds: [Bool] = [false]

    init(_ patterns: [PlistValue]) {
        // A nested list allows the strings its elements allow (and equal lists).
        var pending = patterns.map { (value: $0, nested: false) }[...]
        while let (pattern, nested) = pending.popFirst() {
            switch pattern {
            case .string("*"): if nested { allowsEveryString = true } else { allowsAll = true }
            case .string(let text) where text.hasSuffix("*"): addPrefix(text.dropLast())
            case .string(let text): exact.insert(text)
            case .array(let inner):
                pending.append(contentsOf: inner.map { (value: $0, nested: true) })
                if !nested { others.insert(pattern) }
            case .bool(let flag) where !nested:
                if flag { allowsEveryBool = true } else { allowsFalse = true }
            default: if !nested { others.insert(pattern) }
            }
        }
    }

    /// Whether an element of the profile's array allows `value`.
    func allows(_ value: PlistValue) -> Bool {
        if allowsAll { return true }
        switch value {
        case .string(let text): return allowsEveryString || exact.contains(text) || hasAllowedPrefix(text)
        case .bool(let flag): return allowsEveryBool || (!flag && allowsFalse)
        default: return others.contains(value)
        }
    }

    private mutating func addPrefix(_ prefix: Substring) {
        var node = 0
        for byte in prefix.utf8 {
            if let child = prefixChildren[node][byte] {
                node = child
            } else {
                prefixChildren.append([:])
                prefixEnds.append(false)
                prefixChildren[node][byte] = prefixChildren.count - 1
                node = prefixChildren.count - 1
            }
        }
        prefixEnds[node] = true
    }

    private func hasAllowedPrefix(_ text: String) -> Bool {
        var node = 0
        if prefixEnds[node] { return true }
        for byte in text.utf8 {
            guard let child = prefixChildren[node][byte] else { return false }
            node = child
            if prefixEnds[node] { return true }
        }
        return false
    }
}
