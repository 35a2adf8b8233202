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
