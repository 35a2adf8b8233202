public import Foundation

/// The JSON form people write keychain queries in (`kclab app call`, docs, demos): Apple's constant
/// strings as keys and values; `v_Data`, `v_PersistentRef` and `gena` as base64 strings (any other
/// string there is passed on as a string); dates as ISO 8601 strings. `{"$data": …}` and
/// `{"$date": …}` are accepted anywhere too. A constant's name reads as its value
/// (``SecConstantTable``): `{"kSecClass": "kSecClassGenericPassword"}` is `{"class": "genp"}`, as
/// Swift code writes queries; a `kSec…` key that names no constant is refused by name.
public enum ConventionalJSON {
    /// Keys whose string values are base64 data.
    public static let dataKeys: Set<String> = ["v_Data", "v_PersistentRef", "gena"]
    /// Keys whose string values are dates.
    public static let dateKeys: Set<String> = ["cdat", "mdat", "sdat", "edat"]

    /// Reads a JSON object into a SecItem dictionary; errors name the key.
    public static func dictionary(from data: Data) throws -> [String: SecValue] {
        if let problem = StrictJSON.problem(in: data) {
            throw ConventionalJSONError("not valid JSON at \(problem)")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw ConventionalJSONError("not valid JSON: \(String(decoding: data.prefix(80), as: UTF8.self))")
        }
        guard let dictionary = object as? [String: Any] else {
            throw ConventionalJSONError("expected a JSON object such as {\"class\": \"genp\", \"acct\": \"alice\"}")
        }
        var result: [String: SecValue] = [:]
        for (name, value) in dictionary {
            let key = try rawKey(name)
            guard result[key] == nil else { throw ConventionalJSONError("\(name) and \(key) are the same key: give it once") }
            result[key] = try convert(value, key: key)
        }
        return result
    }

    /// A key as the keychain reads it: a constant's name becomes its value.
    static func rawKey(_ name: String) throws -> String {
        guard name.hasPrefix("kSec") else { return name }
        guard let value = SecConstantTable.byName[name] else {
            throw ConventionalJSONError(
                "\(name) is not a constant of the Security framework: write a kSec… name it has, or the raw key (class, acct, svce, agrp, v_Data, r_Data, m_Limit…)"
            )
        }
        return value
    }

    private static func convert(_ value: Any, key: String) throws -> SecValue {
        switch value {
        case let text as String where text.hasPrefix("kSec") && SecConstantTable.byName[text] != nil:
            // A constant's name as a value, such as kSecClassGenericPassword or kSecMatchLimitAll.
            return .string(SecConstantTable.byName[text]!)
        case let text as String:
            // A string that is not base64 stays a string: the device then judges a value of the
            // wrong type as securityd does (`kSecValueData` as a CFString is errSecParam, si-11).
            if dataKeys.contains(key), let data = Data(base64Encoded: text) {
                return .data(data)
            }
            if dateKeys.contains(key) {
                guard let date = SecValue.parseDate(text) else { throw ConventionalJSONError("\(key): '\(text)' is not an ISO 8601 date") }
                return .date(date)
            }
            return .string(text)
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return .bool(number.boolValue) }
            if number.doubleValue.rounded() == number.doubleValue, abs(number.doubleValue) < 9e18 { return .integer(number.int64Value) }
            return .double(number.doubleValue)
        case let array as [Any]:
            return .array(try array.map { try convert($0, key: key) })
        case let nested as [String: Any]:
            if nested.count == 1, let base64 = nested["$data"] as? String {
                guard let data = Data(base64Encoded: base64) else { throw ConventionalJSONError("\(key): $data is not base64") }
                return .data(data)
            }
            if nested.count == 1, let text = nested["$date"] as? String {
                guard let date = SecValue.parseDate(text) else { throw ConventionalJSONError("\(key): $date is not an ISO 8601 date") }
                return .date(date)
            }
            var entries: [String: SecValue] = [:]
            for (name, element) in nested { entries[name] = try convert(element, key: name) }
            return .dictionary(entries)
        case is NSNull:
            throw ConventionalJSONError("\(key): null is not a keychain value")
        default:
            throw ConventionalJSONError("\(key): unsupported value")
        }
    }

    /// A result as conventional JSON: data as base64, dates as ISO 8601.
    public static func object(_ value: SecValue) -> Any {
        switch value {
        case .string(let text): text
        case .data(let data): data.base64EncodedString()
        case .integer(let number): number
        case .double(let number): number
        case .bool(let flag): flag
        case .date(let date): SecValue.formatDate(date)
        case .array(let elements): elements.map(object)
        case .dictionary(let entries): entries.mapValues(object)
        }
    }
}

/// A query that is not conventional JSON.
public struct ConventionalJSONError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
