import Foundation

/// An `application/x-www-form-urlencoded` body as the website reads it.
public enum FormBody {
    /// `a=1&b=x+y` → fields; nil when a pair is not valid percent-encoding or a name repeats.
    public static func fields(_ text: String) -> [String: String]? {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count == 2 ? parts[1] : ""), fields[name] == nil else { return nil }
            fields[name] = value
        }
        return fields
    }

    private static func decode(_ part: Substring) -> String? {
        part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
