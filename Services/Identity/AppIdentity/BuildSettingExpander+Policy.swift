extension BuildSettingExpander {
    /// What an unknown name or a malformed reference does.
    public enum Policy: Hashable, Sendable {
        /// Every problem is an error: an unknown name (even with `:default=`), a reference never
        /// closed, an empty name, an unknown operator, a cycle, a limit. The error for an unknown
        /// name lists `known`.
        case strict(known: [String])
        /// Xcode's: an unknown name expands to nothing and is recorded (``unresolved``) unless a
        /// `:default=` gives it a value; any other problem is said (``problems``) and expansion
        /// goes on (a reference never closed stays as written, an unknown operator is ignored).
        case lenient
    }

    /// The bounds that make a hostile text cost bounded time.
    public struct Limits: Hashable, Sendable {
        /// How many settings deep a chain of settings referring to settings may go.
        public var depth: Int
        /// The longest a setting's expansion may be, in UTF-8 bytes.
        public var length: Int
        /// How many bytes all expansions may write together (the caller's own text aside).
        public var budget: Int
        /// How deeply references may nest in one text (`$(A_$(B_$(C)))` is 3).
        public var nesting: Int

        /// Limits far beyond real projects' settings.
        public static let standard = Limits(depth: 64, length: 65_536, budget: 4 << 20, nesting: 16)

        /// Limits of your choosing.
        public init(depth: Int, length: Int, budget: Int, nesting: Int) {
            self.depth = depth
            self.length = length
            self.budget = budget
            self.nesting = nesting
        }
    }
}
