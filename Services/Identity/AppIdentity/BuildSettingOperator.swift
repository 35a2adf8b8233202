import Foundation

/// An operator Xcode applies to a setting's value after a colon, `$(PRODUCT_NAME:rfc1034identifier)`,
/// as swift-build's `MacroEvaluationRetrievalOperator` applies it. (`:default=VALUE`, the one
/// replacement operator the lab reads, is the expander's: it needs the value's references.)
enum BuildSettingOperator: String, CaseIterable {
    /// The value in lower case.
    case lower
    /// The value in upper case.
    case upper
    /// A DNS label: letters, digits and `-` stay, a leading digit and anything else (`.` and `_`
    /// too) becomes `-`; "My App" is "My-App".
    case rfc1034identifier
    /// A C identifier: letters, digits and `_` stay, a leading digit and anything else becomes `_`.
    case identifier
    /// A C99 extended identifier: as ``identifier``, but letters and digits of any script stay.
    case c99extidentifier
    /// The directory part of a path, with its trailing slash (`a/b/c.txt` is `a/b/`, `c.txt` is `./`).
    case dir
    /// The last component of a path (`a/b/c.txt` is `c.txt`).
    case file
    /// The last component without its extension (`a/b/c.tar.gz` is `c.tar`).
    case base
    /// The extension with its dot (`a/b/c.tar.gz` is `.gz`; none is nothing).
    case suffix
    /// The path without `.` components and repeated or trailing slashes; `..` is resolved in an
    /// absolute path only, as `-[NSString stringByStandardizingPath]` does without the file system.
    case standardizepath

    /// The operator named `name`, or nil for one Xcode does not have.
    init?(_ name: Substring) {
        self.init(rawValue: String(name))
    }

    /// The operator applied to `text`; linear in its length.
    func apply(to text: String) -> String {
        switch self {
        case .lower: text.lowercased()
        case .upper: text.uppercased()
        case .rfc1034identifier: Self.mangled(text, keeping: "-", replacement: "-")
        case .identifier: Self.mangled(text, keeping: "_", replacement: "_")
        case .c99extidentifier: Self.extendedIdentifier(text)
        case .dir: Self.directory(of: text)
        case .file: String(Self.lastComponent(of: text))
        case .base: String(Self.splitExtension(Self.lastComponent(of: text)).stem)
        case .suffix: Self.splitExtension(Self.lastComponent(of: text)).suffix.map { ".\($0)" } ?? ""
        case .standardizepath: Self.standardized(text)
        }
    }

    /// Each character that is not an ASCII letter, a digit after the first character, or `kept`,
    /// replaced by `replacement` (one for each character people see, as Xcode counts them).
    private static func mangled(_ text: String, keeping kept: Character, replacement: Character) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var isFirst = true
        for character in text {
            // Not ASCII reads as 0, which no rule keeps.
            let keep =
                switch character.asciiValue ?? 0 {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): true
                case UInt8(ascii: "0")...UInt8(ascii: "9"): !isFirst
                default: character == kept
                }
            result.append(keep ? character : replacement)
            isFirst = false
        }
        return result
    }

    /// Xcode's `:c99extidentifier`, with Unicode's letters and decimal digits standing for C99's
    /// Annex D list of the characters an identifier may hold.
    private static func extendedIdentifier(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var isFirst = true
        for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
            let isDigit = scalar.properties.numericType == .decimal
            let isLetter = scalar.properties.isAlphabetic || scalar == "_"
            scalars.append(isLetter || (isDigit && !isFirst) ? scalar : "_")
            isFirst = false
        }
        return String(scalars)
    }

    /// The path without its trailing slashes; a path of slashes alone is `/`.
    private static func trimmed(_ path: Substring) -> Substring {
        var end = path.endIndex
        while end > path.startIndex, path.utf8[path.utf8.index(before: end)] == UInt8(ascii: "/") { end = path.utf8.index(before: end) }
        return end == path.startIndex && !path.isEmpty ? path.prefix(1) : path[..<end]
    }

    private static func lastComponent(of path: String) -> Substring {
        let path = trimmed(path[...])
        guard path != "/", let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return path[path.utf8.index(after: slash)...]
    }

    private static func directory(of path: String) -> String {
        let path = trimmed(path[...])
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "./" }
        let parent = trimmed(path[..<slash])
        return parent.isEmpty || parent == "/" ? "/" : String(parent) + "/"
    }

    /// A file name's stem and extension: `c.tar.gz` is `c.tar` and `gz`, `.profile` and `..` have none.
    private static func splitExtension(_ name: Substring) -> (stem: Substring, suffix: Substring?) {
        guard name != ".", name != "..", let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else {
            return (name, nil)
        }
        return (name[..<dot], name[name.utf8.index(after: dot)...])
    }

    private static func standardized(_ path: String) -> String {
        let components = path.split(separator: "/").filter { $0 != "." }
        guard path.hasPrefix("/") else { return components.joined(separator: "/") }
        var kept: [Substring] = []
        for component in components {
            if component == ".." {
                _ = kept.popLast()
            } else {
                kept.append(component)
            }
        }
        return "/" + kept.joined(separator: "/")
    }
}
