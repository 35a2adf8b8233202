/// A setting's key with conditions, `NAME[sdk=iphoneos*][arch=arm64][config=Debug]`, as project
/// files and `.xcconfig` files write them: the name, and each condition's parameter and pattern.
struct ConditionalSetting: Hashable {
    /// What a build is, for the conditions to match: the SDK, the architecture, the configuration.
    struct Build: Hashable {
        var sdk: String
        var arch: String
        var configuration: String
    }

    struct Condition: Hashable {
        var parameter: String
        var pattern: String
    }

    let name: String
    let conditions: [Condition]

    /// The key read, or nil for a key with no conditions or malformed ones (a name of its own, then).
    /// White space may stand around the brackets, as `.xcconfig` files allow.
    init?(_ key: String) {
        let key = key[...]
        guard let open = key.firstIndex(of: "[") else { return nil }
        let name = key[..<open].trimmingSpaces
        guard !name.isEmpty else { return nil }
        var conditions: [Condition] = []
        var rest = key[open...].trimmingSpaces
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]"), let equals = rest[..<close].firstIndex(of: "=") else { return nil }
            let parameter = rest[rest.index(after: rest.startIndex)..<equals].trimmingSpaces
            guard !parameter.isEmpty else { return nil }
            conditions.append(Condition(parameter: String(parameter), pattern: String(rest[rest.index(after: equals)..<close].trimmingSpaces)))
            rest = rest[rest.index(after: close)...].trimmingSpaces
        }
        guard !conditions.isEmpty else { return nil }
        self.name = String(name)
        self.conditions = conditions
    }

    /// The key as Xcode writes it, without white space: `NAME[sdk=iphoneos*][arch=arm64]`.
    var key: String {
        name + conditions.map { "[\($0.parameter)=\($0.pattern)]" }.joined()
    }

    /// Whether every condition holds for `build`; a condition on anything else (`variant`, `dest`)
    /// holds for no build the lab makes.
    func matches(_ build: Build) -> Bool {
        conditions.allSatisfy { condition in
            switch condition.parameter {
            case "sdk": Self.glob(condition.pattern, matches: build.sdk)
            case "arch": Self.glob(condition.pattern, matches: build.arch)
            case "config": Self.glob(condition.pattern, matches: build.configuration)
            default: false
            }
        }
    }

    /// `fnmatch`'s `*` (any run) and `?` (any one character); everything else stands for itself.
    /// Greedy with one point to go back to, so a pattern costs at most its length times the text's.
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern.utf8)
        let text = Array(text.utf8)
        var p = 0
        var t = 0
        var star: (pattern: Int, text: Int)? = nil
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if let last = star {
                p = last.pattern + 1
                t = last.text + 1
                star = (last.pattern, last.text + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}

extension Substring {
    /// Without the spaces and tabs at either end.
    fileprivate var trimmingSpaces: Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
