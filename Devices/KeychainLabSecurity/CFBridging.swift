import Foundation
import KeychainTypes

/// Turns the Core Foundation values an app passes into ``SecValue``s and back, as
/// Foundation bridges them on Apple platforms.
enum CFBridging {
    /// A query or attributes dictionary; `nil` when a key is not text or a value has no SecItem form.
    static func dictionary(_ object: NSDictionary) -> [String: SecValue]? {
        var dictionary: [String: SecValue] = [:]
        for (key, element) in object {
            guard let name = (key as? String) ?? (key as? NSString).map({ String(describing: $0) }), let converted = value(element) else {
                return nil
            }
            dictionary[name] = converted
        }
        return dictionary
    }

    static func value(_ object: Any) -> SecValue? {
        switch object {
        case let item as SecKeychainItem:
            return .dictionary(["$ref": .string(item.itemClass), "v_PersistentRef": .data(item.persistentRef)])
        case let control as SecAccessControl:
            return .dictionary(["prot": .string(control.protection), "flags": .integer(Int64(bitPattern: UInt64(control.flags.rawValue)))])
        case let text as String:
            return .string(text)
        case let text as NSString:
            return .string(String(describing: text))
        case let data as Data:
            return .data(data)
        case let date as Date:
            return .date(date)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "f", "d": return .double(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        case let array as [Any]:
            var elements: [SecValue] = []
            for element in array {
                guard let converted = value(element) else { return nil }
                elements.append(converted)
            }
            return .array(elements)
        case let nested as NSDictionary:
            return dictionary(nested).map(SecValue.dictionary)
        default:
            return nil
        }
    }

    /// The object an app receives: NSString, NSData, NSNumber, NSDate, NSArray, a password's
    /// ``SecKeychainItem``, or a dictionary whose keys bridge to `String`.
    static func object(_ value: SecValue) -> AnyObject {
        switch value {
        case .string(let text): return text as NSString
        case .data(let data): return data as NSData
        case .integer(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .bool(let flag): return NSNumber(value: flag)
        case .date(let date): return date as NSDate
        case .array(let elements): return elements.map(object) as NSArray
        case .dictionary(let entries):
            if case .string(let itemClass)? = entries["$ref"], ["genp", "inet"].contains(itemClass),
                case .data(let reference)? = entries["v_PersistentRef"]
            {
                return SecKeychainItem(itemClass: itemClass, persistentRef: reference)
            }
            var dictionary: [String: Any] = [:]
            for (key, element) in entries { dictionary[key] = object(element) }
            return dictionary as NSDictionary
        }
    }
}
