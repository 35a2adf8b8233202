/// A world file that cannot be used: unreadable, not YAML, an unknown key, a malformed value, or a
/// reference to something it does not declare. The description names the file, line, column and
/// key: `demo.yaml:12:7: apps[1].team: no team ABCDE12346 is declared`.
public struct WorldError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of failure this is; stable strings, safe to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The raw code.
        public let rawValue: String

        /// The file cannot be read.
        public static let unreadable = Code(rawValue: "unreadable")
        /// The text is not valid YAML.
        public static let syntax = Code(rawValue: "syntax")
        /// A key the format does not define.
        public static let unknownKey = Code(rawValue: "unknownKey")
        /// A required key is absent.
        public static let missingKey = Code(rawValue: "missingKey")
        /// A value of the wrong type or form.
        public static let malformedValue = Code(rawValue: "malformedValue")
        /// A name declared twice, or a reference to something not declared.
        public static let inconsistent = Code(rawValue: "inconsistent")

        /// A textual form of the code.
        public var description: String { rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// The world file's name as given.
    public let file: String
    /// The line, from 1; 0 when the failure is not tied to a place.
    public let line: Int
    /// The column, from 1; 0 when unknown.
    public let column: Int
    /// The key, as a path from the top: `apps[1].entitlements`.
    public let key: String
    /// What is wrong, for people.
    public let message: String

    /// Makes an error.
    public init(_ code: Code, file: String, line: Int, column: Int, key: String, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// The errors found after this one in the same file, when a check goes on past the first.
    public var further: [WorldError] = []

    /// This error and every further one, in the order of the file.
    public var all: [WorldError] {
        var first = self
        first.further = []
        return [first] + further
    }

    /// One error for several, or nil for none.
    static func combined(_ errors: [WorldError]) -> WorldError? {
        let ordered = errors.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        guard var first = ordered.first else { return nil }
        first.further = Array(ordered.dropFirst())
        return first
    }

    /// `file:line:column: key: message`, one line per error.
    public var description: String {
        var text = file
        if line > 0 { text += ":\(line)" }
        if column > 0 { text += ":\(column)" }
        if !key.isEmpty { text += ": \(key)" }
        return ([text + ": " + message] + further.map(\.description)).joined(separator: "\n")
    }

    public static func == (lhs: WorldError, rhs: WorldError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
