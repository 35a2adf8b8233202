import Foundation

/// A form of a web page, read as a browser reads it: its action, and each input's name, type,
/// value and `autocomplete` hint (how Safari tells the username and password fields).
public struct HTMLForm: Sendable {
    public struct Input: Sendable {
        public var name: String
        public var type: String
        public var value: String
        public var autocomplete: String
    }

    public var id: String
    public var action: String
    public var inputs: [Input]
    /// Every attribute of the form tag (such as a passkey form's `data-options`).
    public var attributes: [String: String] = [:]

    /// Every form of `html`, in order.
    public static func all(in html: String) -> [HTMLForm] {
        var forms: [HTMLForm] = []
        var rest = html[...]
        // The standard library's firstRange(of:) searches in place; Foundation's range(of:) copies
        // the rest of the page on every call, which makes a page of many forms quadratic.
        while let start = rest.firstRange(of: "<form"), let end = rest[start.upperBound...].firstRange(of: "</form>") {
            // The tag ends at its own `>`, never past the form's end (`<form</form>` is a form).
            let tagEnd = rest[start.upperBound..<end.lowerBound].firstIndex(of: ">") ?? end.lowerBound
            let attributes = Self.attributes(String(rest[start.upperBound..<tagEnd]))
            var inputs: [Input] = []
            var inner = rest[tagEnd..<end.lowerBound]
            while let input = inner.firstRange(of: "<input") {
                let close = inner[input.upperBound...].firstIndex(of: ">") ?? inner.endIndex
                let fields = Self.attributes(String(inner[input.upperBound..<close]))
                if let name = fields["name"] {
                    inputs.append(
                        Input(name: name, type: fields["type"] ?? "text", value: fields["value"] ?? "", autocomplete: fields["autocomplete"] ?? "")
                    )
                }
                inner = inner[close...]
            }
            forms.append(HTMLForm(id: attributes["id"] ?? "", action: attributes["action"] ?? "", inputs: inputs, attributes: attributes))
            rest = rest[end.upperBound...]
        }
        return forms
    }

    /// The first form whose id is `id`.
    public static func named(_ id: String, in html: String) -> HTMLForm? {
        all(in: html).first { $0.id == id }
    }

    /// The field for the account name (`autocomplete="username"`).
    public var usernameField: Input? { inputs.first { $0.autocomplete == "username" } }
    /// The password field: `current-password` to sign in, `new-password` to choose one.
    public func passwordField(_ hint: String) -> Input? { inputs.first { $0.type == "password" && $0.autocomplete == hint } }
    /// Hidden fields, sent back as they are (CSRF tokens).
    public var hidden: [(String, String)] { inputs.filter { $0.type == "hidden" }.map { ($0.name, $0.value) } }

    /// `name="value"` pairs of a tag.
    static func attributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = text[...]
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].split(whereSeparator: \.isWhitespace).last.map(String.init)?.lowercased() ?? ""
            var after = rest[rest.index(after: equals)...]
            guard let quote = after.first, quote == "\"" || quote == "'" else { break }
            after = after.dropFirst()
            guard let close = after.firstIndex(of: quote) else { break }
            result[name] = Self.unescape(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return result
    }

    /// Text of a page with its entities decoded.
    public static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
