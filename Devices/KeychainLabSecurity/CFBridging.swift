package import Foundation
package import KeychainTypes

/// Turns the Core Foundation values an app passes into ``SecValue``s and back, as
/// Foundation bridges them on Apple platforms.
package enum CFBridging {
    /// A query or attributes dictionary; `nil` when a key is not text or a value has no SecItem form.
    package static func dictionary(_ object: NSDictionary) -> [String: SecValue]? {
        var dictionary: [String: SecValue] = [:]
        for (key, element) in object {
            guard let name = (key as? String) ?? (key as? NSString).map({ String(describing: $0) }), let converted = value(element) else {
                return nil
            }
            dictionary[name] = converted
        }
        return dictionary
    }

    /// One value; `nil` when it has no SecItem form.
    package static func value(_ object: Any) -> SecValue? {
        switch object {
        case let item as SecKeychainItem:
            return .dictionary(["$ref": .string(item.itemClass), "v_PersistentRef": .data(item.persistentRef)])
        case let control as SecAccessControl:
            return .dictionary(["prot": .string(control.protection), "flags": .integer(Int64(bitPattern: UInt64(control.flags.rawValue)))])
        case let access as SecAccess:
            return access.access.secValue
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
    /// ``SecKeychainItem``, or a dictionary whose keys bridge to `String`, in which
    /// `kSecAttrAccessControl` is a ``SecAccessControl``, as Apple's results hold it.
    package static func object(_ value: SecValue) -> AnyObject {
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
            for (key, element) in entries {
                if key == "accc", let control = accessControl(element) {
                    dictionary[key] = control
                } else {
                    dictionary[key] = object(element)
                }
            }
            return dictionary as NSDictionary
        }
    }

    /// The access-control object keychaind sends as `{"prot": PROTECTION, "flags": FLAGS}`.
    private static func accessControl(_ value: SecValue) -> SecAccessControl? {
        guard case .dictionary(let entries) = value, case .string(let protection)? = entries["prot"] else { return nil }
        let flags = entries["flags"]?.number.map { CFOptionFlags(UInt64(bitPattern: $0)) } ?? 0
        return SecAccessControl(protection: protection, flags: SecAccessControlCreateFlags(rawValue: flags))
    }
}
