import Foundation
import KeychainLab
import Security

/// Between the conventional JSON of the command line and the CF values the Security API takes:
/// `v_Data`, `gena` and `v_PersistentRef` are base64; dates ISO 8601; an access-control object
/// `{"prot", "flags"}`.
enum Conversion {
    static let dataKeys: Set<String> = ["v_Data", "gena", "v_PersistentRef"]

    static func dictionary(_ text: String) -> NSDictionary? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
        var dictionary: [String: Any] = [:]
        for (key, value) in object {
            if dataKeys.contains(key), let base64 = value as? String, let data = Data(base64Encoded: base64) {
                dictionary[key] = data
            } else {
                dictionary[key] = value
            }
        }
        return dictionary as NSDictionary
    }

    static func report(status: OSStatus, result: CFTypeRef?) -> String {
        let name = KeychainError.name(of: status) ?? "OSStatus \(status)"
        let object: [String: Any] = ["status": Int(status), "name": name, "result": json(result) ?? NSNull()]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func json(_ value: Any?) -> Any? {
        switch value {
        case nil: return nil
        case let data as Data: return data.base64EncodedString()
        case let date as Date: return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        case let text as String: return text
        case let number as NSNumber: return number
        // As keychaind's JSON has it, so that a printed result can be given back.
        case let control as SecAccessControl: return ["prot": control.protection, "flags": NSNumber(value: control.flags.rawValue)]
        case let array as [Any]: return array.map { json($0) ?? NSNull() }
        case let dictionary as [String: Any]: return dictionary.mapValues { json($0) ?? NSNull() }
        case let dictionary as NSDictionary:
            var result: [String: Any] = [:]
            for (key, element) in dictionary { result["\(key)"] = json(element) ?? NSNull() }
            return result
        default: return "\(value!)"
        }
    }
}
