import Foundation

/// How a user answers a shared-web-credential prompt.
///
/// Text form, as the world file and `kclab device answer` write it: `approve`, `decline`,
/// `pick N` (the Nth account of a picker, from 1).
public enum PromptAnswer: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The approve button ("Save Password", "Update Password", "Delete Password"); in a picker,
    /// the first account.
    case approve
    /// "Not Now".
    case decline
    /// The Nth account of a picker (from 1); on an alert, the same as approve.
    case pick(Int)

    /// Reads the text form; `nil` for anything else.
    public init?(text: String) {
        let words = text.split(separator: " ").map(String.init)
        switch words.first?.lowercased() {
        case "approve" where words.count == 1: self = .approve
        case "decline" where words.count == 1: self = .decline
        case "pick" where words.count == 2:
            guard let index = Int(words[1]), index >= 1 else { return nil }
            self = .pick(index)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .approve: "approve"
        case .decline: "decline"
        case .pick(let index): "pick \(index)"
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let answer = PromptAnswer(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not approve, decline or pick N"))
        }
        self = answer
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// An answer the scripted user gives, possibly after thinking for a while: `approve`,
/// `wait 2s then decline`, `wait 500ms then pick 2`.
public struct ScriptedAnswer: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How long the user looks at the prompt first, in milliseconds.
    public var delayMilliseconds: Int
    public var answer: PromptAnswer

    public init(_ answer: PromptAnswer, delayMilliseconds: Int = 0) {
        self.answer = answer
        self.delayMilliseconds = delayMilliseconds
    }

    /// The longest a scripted user may wait: a minute.
    public static let longestDelayMilliseconds = 60_000

    /// Reads the text form; `nil` for anything else.
    public init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("wait ") else {
            guard let answer = PromptAnswer(text: trimmed) else { return nil }
            self.init(answer)
            return
        }
        let words = trimmed.split(separator: " ", maxSplits: 3).map(String.init)
        guard words.count == 4, words[2].lowercased() == "then", let delay = Self.milliseconds(words[1]),
            delay <= Self.longestDelayMilliseconds, let answer = PromptAnswer(text: words[3])
        else { return nil }
        self.init(answer, delayMilliseconds: delay)
    }

    /// `250ms`, `2s` → milliseconds.
    private static func milliseconds(_ text: String) -> Int? {
        if text.hasSuffix("ms") { return Int(text.dropLast(2)).flatMap { $0 >= 0 ? $0 : nil } }
        if text.hasSuffix("s"), let seconds = Double(text.dropLast()), seconds >= 0 { return Int(seconds * 1000) }
        return nil
    }

    public var description: String {
        delayMilliseconds == 0 ? answer.description : "wait \(delayMilliseconds)ms then \(answer)"
    }

    /// What the text form must look like, for error messages.
    public static let grammar = "approve, decline, pick N, or wait 2s then ANSWER"

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let answer = ScriptedAnswer(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not \(Self.grammar)"))
        }
        self = answer
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
