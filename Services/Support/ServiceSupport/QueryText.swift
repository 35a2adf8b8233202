import Foundation

/// Values in a URL's query.
public enum QueryText {
    /// `value` percent-encoded for a query parameter.
    public static func escaped(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~:@"))) ?? value
    }
}
