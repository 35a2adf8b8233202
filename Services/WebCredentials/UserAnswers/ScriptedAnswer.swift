import Foundation

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
