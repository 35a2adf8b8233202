public import LabErrors

/// The lab's one expander of build-setting references, `$(NAME)`, `${NAME}` and `$NAME`, with
/// Xcode's operators (`:lower`, `:upper`, `:rfc1034identifier`, `:identifier`,
/// `:c99extidentifier`, `:dir`, `:file`, `:base`, `:suffix`, `:standardizepath`, chained left to
/// right, and `:default=VALUE` for a name that is empty or undefined), nested names
/// (`$(FOO_$(BAR))`) and `$(inherited)`. Where settings come from is the caller's
/// lookup; what a problem does is the ``Policy``: a world file's entitlements refuse it, an Xcode
/// project's settings say it and go on, as Xcode does.
///
/// Each definition is read and expanded once (memoized), in time linear in its length; a cycle, a
/// chain deeper than ``Limits/depth``, a setting's expansion longer than ``Limits/length`` and all
/// expansions together past ``Limits/budget`` bytes are cut, so that settings that double at each
/// level cost bounded time and memory.
///
/// How Xcode reads a reference is swift-build's (`MacroExpressionParser`,
/// `MacroEvaluationProgram`): an undefined `$NAME` stays as written, `$$` is one `$`, and an
/// operator's value (`:default=a.b`) ends at the next colon.
public struct BuildSettingExpander {
    /// Finds `name`'s definition: on any level when `below` is nil, else beneath level `below`.
    public typealias Lookup = (_ name: String, _ below: Int?) -> BuildSettingDefinition?

    private struct Key: Hashable {
        let name: String
        let level: Int
    }

    /// What the expander does with a problem.
    public let policy: Policy
    /// Its bounds.
    public let limits: Limits
    private let lookup: Lookup
    /// The names that resolved to nothing (lenient only), in the order met, each once, at most 64.
    public private(set) var unresolved: [String] = []
    /// The problems met (lenient only), one sentence each, each once, at most 64.
    public private(set) var problems: [String] = []
    /// The problems said, to say each once in constant time.
    private var saidBefore: Set<String> = []
    private var memo: [Key: String] = [:]
    private var expanding: Set<Key> = []
    private var activeReferences = 0
    private var written = 0
    private var exhausted = false
    /// The text being expanded, for messages.
    private var subject = ""

    /// An expander reading definitions through `lookup`.
    public init(policy: Policy, limits: Limits = .standard, lookup: @escaping Lookup) {
        self.policy = policy
        self.limits = limits
        self.lookup = lookup
    }

    /// An expander over `levels` of settings, the first above the rest.
    public init(policy: Policy, limits: Limits = .standard, levels: [[String: String]]) {
        self.init(policy: policy, limits: limits) { name, below in
            let start = below.map { $0 + 1 } ?? 0
            guard start >= 0, start < levels.count else { return nil }
            for level in start..<levels.count {
                if let text = levels[level][name] { return BuildSettingDefinition(name: name, level: level, text: text) }
            }
            return nil
        }
    }

    /// `text` with every reference in it expanded.
    public mutating func expand(_ text: String) throws(IdentityError) -> String {
        subject = text
        return try evaluate(text, in: nil)
    }

    /// The expanded value of the setting `name`, or nil when nothing defines it.
    public mutating func value(of name: String) throws(IdentityError) -> String? {
        subject = "$(\(name))"
        guard let definition = lookup(name, nil) else { return nil }
        return try expand(definition)
    }

    private mutating func expand(_ definition: BuildSettingDefinition) throws(IdentityError) -> String {
        let key = Key(name: definition.name, level: definition.level)
        if let known = memo[key] { return known }
        guard expanding.count < limits.depth else {
            try problem("$(\(definition.name)) refers to settings more than \(limits.depth) deep", then: "cut there")
            return ""
        }
        guard expanding.insert(key).inserted else {
            try problem("$(\(definition.name)) refers to itself through other settings", then: "expanded to nothing")
            return ""
        }
        defer { expanding.remove(key) }
        let value = try evaluate(definition.text, in: definition)
        memo[key] = value
        return value
    }

    /// `text` read and expanded within `definition` (nil for a text of the caller's).
    private mutating func evaluate(_ text: String, in definition: BuildSettingDefinition?) throws(IdentityError) -> String {
        let expression = BuildSettingExpression(text, maximumNesting: limits.nesting)
        if let failure = expression.failure {
            let rest = "'\(Self.excerpt(failure.rest))'"
            let quoted = definition == nil && failure.rest.startIndex == text.startIndex ? rest : "\(rest) in \(place(definition))"
            switch failure.kind {
            case .unterminated: try problem("\(quoted) is never closed", then: "kept as written")
            case .nestedTooDeep: try problem("\(quoted) nests references more than \(limits.nesting) deep", then: "kept as written")
            }
        }
        var result = ""
        try evaluate(expression.parts, into: &result, in: definition)
        return result
    }

    private mutating func evaluate(
        _ parts: [BuildSettingExpression.Part],
        into result: inout String,
        in definition: BuildSettingDefinition?
    ) throws(IdentityError) {
        for part in parts {
            switch part {
            case .literal(let text) where definition == nil:
                // The caller's own text: only what references bring can grow past it.
                result.append(contentsOf: text)
                continue
            case .literal(let text):
                try write(text, into: &result, in: definition)
            case .reference(let reference):
                guard !exhausted else { continue }
                try write(try substitute(reference, in: definition)[...], into: &result, in: definition)
            }
            if let definition, result.utf8.count > limits.length {
                try problem("$(\(definition.name)) expands to more than \(limits.length) characters", then: "cut there")
                result = Self.prefix(of: result, bytes: limits.length)
                return
            }
        }
    }

    private mutating func write(_ text: Substring, into result: inout String, in definition: BuildSettingDefinition?) throws(IdentityError) {
        guard try charge(text.utf8.count, in: definition) else { return }
        result.append(contentsOf: text)
    }

    /// Counts `bytes` against the budget: false once it is spent.
    private mutating func charge(_ bytes: Int, in definition: BuildSettingDefinition?) throws(IdentityError) -> Bool {
        written += bytes
        guard written > limits.budget else { return true }
        if !exhausted {
            exhausted = true
            try problem("the settings expand to more than \(limits.budget) characters", then: "\(place(definition)) was cut there")
        }
        return false
    }

    /// The value of one reference, its operators applied.
    private mutating func substitute(
        _ reference: BuildSettingExpression.Reference,
        in definition: BuildSettingDefinition?
    ) throws(IdentityError) -> String {
        // Names made of references nest within settings that refer to settings: one bound for both
        // keeps the stack shallow however the two are mixed.
        guard activeReferences < 2 * limits.depth else {
            try problem("'\(Self.excerpt(reference.spelling))' nests references more than \(2 * limits.depth) deep", then: "cut there")
            return ""
        }
        activeReferences += 1
        defer { activeReferences -= 1 }
        var name = ""
        try evaluate(reference.name, into: &name, in: definition)
        var value: String? = nil
        // `$(inherited)`, and a setting that names itself (`TEAM = $(TEAM)`), read the levels beneath.
        if let definition, name == "inherited" || name == definition.name {
            if let beneath = lookup(definition.name, definition.level) { value = try expand(beneath) }
        } else if let found = name.isEmpty ? nil : lookup(name, nil) {
            value = try expand(found)
        } else if reference.isBare {
            return String(reference.spelling)
        } else {
            try unknown(name, reference, in: definition)
        }
        for operation in reference.operations {
            switch operation {
            case .retrieval(let operatorName):
                guard let retrieval = BuildSettingOperator(operatorName) else {
                    let spelling = Self.excerpt(reference.spelling)
                    try problem("'\(spelling)' uses :\(operatorName), an operator Xcode does not have", then: "ignored")
                    continue
                }
                guard let text = value else { continue }
                let applied = retrieval.apply(to: text)
                guard try charge(applied.utf8.count, in: definition) else { return "" }
                value = applied
            case .replacement(let operatorName, let operand):
                guard operatorName == "default" else {
                    let spelling = Self.excerpt(reference.spelling)
                    try problem("'\(spelling)' uses :\(operatorName)=, an operator the lab does not read", then: "ignored")
                    continue
                }
                if value?.isEmpty ?? true {
                    var replacement = ""
                    try evaluate(operand, into: &replacement, in: definition)
                    value = replacement
                }
            }
        }
        return value ?? ""
    }

    private mutating func unknown(
        _ name: String,
        _ reference: BuildSettingExpression.Reference,
        in definition: BuildSettingDefinition?
    ) throws(IdentityError) {
        if name.isEmpty {
            try problem("'\(Self.excerpt(reference.spelling))' in \(place(definition)) names no setting", then: "expanded to nothing")
            return
        }
        switch policy {
        case .strict(let known):
            let names = known.map { "$(\($0))" }.joined(separator: ", ")
            throw IdentityError(.malformedValue, "unknown build variable $(\(name)) in \(place(nil)) (known: \(names))")
        case .lenient:
            let defaulted = reference.operations.contains { if case .replacement("default", _) = $0 { true } else { false } }
            guard !defaulted, name != "inherited", unresolved.count < 64, !unresolved.contains(name) else { return }
            unresolved.append(name)
        }
    }

    /// A problem: strict, an error saying `sentence`; lenient, `sentence` and what was done instead.
    private mutating func problem(_ sentence: String, then consequence: String) throws(IdentityError) {
        switch policy {
        case .strict:
            throw IdentityError(.malformedValue, sentence)
        case .lenient:
            let said = "\(sentence): \(consequence)"
            if problems.count < 64, saidBefore.insert(said).inserted { problems.append(said) }
        }
    }

    private func place(_ definition: BuildSettingDefinition?) -> String {
        definition.map { "$(\($0.name))" } ?? "'\(Self.excerpt(subject[...]))'"
    }

    /// At most 80 characters of `text`, so that a message stays short whatever it quotes.
    private static func excerpt(_ text: Substring) -> String {
        // prefix(81) first: counting the whole of a long text for each message would be quadratic.
        let head = text.prefix(81)
        return head.count <= 80 ? String(head) : String(head.prefix(80)) + "…"
    }

    /// The longest prefix of `text` within `bytes` UTF-8 bytes that ends between two scalars.
    private static func prefix(of text: String, bytes: Int) -> String {
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: bytes)
        while end > text.startIndex, UTF8.isContinuation(text.utf8[end]) { end = text.utf8.index(before: end) }
        return String(text[..<end])
    }
}
