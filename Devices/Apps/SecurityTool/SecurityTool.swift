import Foundation
import Security

/// security-tool: a subset of macOS's `security` command, for a Mac's login keychain, run as a
/// macOS app (`kclab app exec --device MAC --app APP -- security-tool …`), through the Security
/// module only. The real tool's flags and exit statuses: an OSStatus failure prints
/// `security: FUNCTION: MESSAGE` and exits with the status's low byte (44 for an item not found,
/// 45 for a duplicate); a usage error exits 2.
///
///     security-tool find-generic-password [-a ACCOUNT] [-s SERVICE] [-l LABEL] [-g] [-w]
///     security-tool add-generic-password -a ACCOUNT -s SERVICE -w PASSWORD [-l LABEL] [-U]
///     security-tool delete-generic-password [-a ACCOUNT] [-s SERVICE] [-l LABEL]
///     security-tool find-internet-password [-a ACCOUNT] [-s SERVER] [-r PROTOCOL] [-P PORT] [-p PATH] [-g] [-w]
///     security-tool add-internet-password -a ACCOUNT -s SERVER -w PASSWORD [-r PROTOCOL] [-P PORT] [-p PATH] [-l LABEL] [-U]
///     security-tool delete-internet-password [-a ACCOUNT] [-s SERVER] [-r PROTOCOL] [-P PORT] [-p PATH]
///     security-tool dump-keychain [-d]
///     security-tool lock-keychain [login.keychain]
///     security-tool unlock-keychain [-p PASSWORD] [login.keychain]
@main
enum SecurityTool {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else { usage() }
        if command == "lock-keychain" || command == "unlock-keychain" {
            lockOrUnlock(unlocking: command == "unlock-keychain", Array(arguments.dropFirst()))
        }
        let options = Options(Array(arguments.dropFirst()))
        switch command {
        case "find-generic-password": find(genericPassword: true, options)
        case "find-internet-password": find(genericPassword: false, options)
        case "add-generic-password": add(genericPassword: true, options)
        case "add-internet-password": add(genericPassword: false, options)
        case "delete-generic-password": delete(genericPassword: true, options)
        case "delete-internet-password": delete(genericPassword: false, options)
        case "dump-keychain": dump(revealing: options.flags.contains("d"))
        default: usage()
        }
    }

    /// The item's search attributes from the command line; the login keychain only, as the real
    /// tool's SecKeychain calls reach no other.
    static func query(genericPassword: Bool, _ options: Options) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: genericPassword ? kSecClassGenericPassword : kSecClassInternetPassword,
            kSecUseDataProtectionKeychain as String: false,
        ]
        let keys: [(String, CFString)] =
            genericPassword
            ? [("a", kSecAttrAccount), ("s", kSecAttrService), ("l", kSecAttrLabel)]
            : [("a", kSecAttrAccount), ("s", kSecAttrServer), ("r", kSecAttrProtocol), ("p", kSecAttrPath), ("l", kSecAttrLabel)]
        for (flag, key) in keys {
            if let value = options.values[flag] { query[key as String] = value }
        }
        if !genericPassword, let port = options.values["P"] {
            guard let number = Int(port) else { usage("-P takes a port number") }
            query[kSecAttrPort as String] = number
        }
        return query
    }

    static func find(genericPassword: Bool, _ options: Options) {
        var search = query(genericPassword: genericPassword, options)
        search[kSecReturnAttributes as String] = true
        let wantsPassword = options.flags.contains("w") || options.flags.contains("g")
        if wantsPassword { search[kSecReturnData as String] = true }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        guard status == errSecSuccess, let item = result as? [String: Any] else { fail("SecKeychainSearchCopyNext", status) }
        let password = (item[kSecValueData as String] as? Data).map { String(decoding: $0, as: UTF8.self) } ?? ""
        if options.flags.contains("w") {
            print(password)
            return
        }
        describe(item, itemClass: genericPassword ? "genp" : "inet")
        if options.flags.contains("g") {
            FileHandle.standardError.write(Data("password: \"\(password)\"\n".utf8))
        }
    }

    static func add(genericPassword: Bool, _ options: Options) {
        guard options.values["a"] != nil, options.values["s"] != nil, let password = options.values["w"] else {
            usage("-a, -s and -w are required")
        }
        var attributes = query(genericPassword: genericPassword, options)
        attributes[kSecValueData as String] = Data(password.utf8)
        var status = SecItemAdd(attributes as CFDictionary, nil)
        if status == errSecDuplicateItem, options.flags.contains("U") {
            let changes: [String: Any] = [kSecValueData as String: Data(password.utf8)]
            status = SecItemUpdate(query(genericPassword: genericPassword, options) as CFDictionary, changes as CFDictionary)
        }
        guard status == errSecSuccess else { fail("SecKeychainItemCreateFromContent (<default>)", status) }
    }

    static func delete(genericPassword: Bool, _ options: Options) {
        var search = query(genericPassword: genericPassword, options)
        search[kSecReturnAttributes as String] = true
        var result: CFTypeRef?
        let found = SecItemCopyMatching(search as CFDictionary, &result)
        guard found == errSecSuccess, let item = result as? [String: Any] else { fail("SecKeychainSearchCopyNext", found) }
        describe(item, itemClass: genericPassword ? "genp" : "inet")
        let status = SecItemDelete(query(genericPassword: genericPassword, options) as CFDictionary)
        guard status == errSecSuccess else { fail("SecKeychainItemDelete", status) }
        print("password has been deleted.")
    }

    /// Every item of the login keychain, attributes only unless `-d` asks for the secrets (each is
    /// read on its own, so the login keychain's prompts apply to each).
    static func dump(revealing: Bool) {
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword] {
            let search: [String: Any] = [
                kSecClass as String: itemClass, kSecUseDataProtectionKeychain as String: false, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true, kSecReturnPersistentRef as String: true,
            ]
            var result: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &result)
            if status == errSecItemNotFound { continue }
            guard status == errSecSuccess, let items = result as? [[String: Any]] else { fail("SecKeychainSearchCopyNext", status) }
            for item in items {
                describe(item, itemClass: itemClass as String)
                guard revealing, let reference = item[kSecValuePersistentRef as String] as? Data else { continue }
                let one: [String: Any] = [kSecValuePersistentRef as String: reference, kSecReturnData as String: true]
                var data: CFTypeRef?
                let read = SecItemCopyMatching(one as CFDictionary, &data)
                let text = (data as? Data).map { "\"\(String(decoding: $0, as: UTF8.self))\"" } ?? "<not available: \(read)>"
                print("data:\n\(text)")
            }
        }
    }

    /// An item as the real tool prints it: the keychain, the class, then each attribute.
    static func describe(_ item: [String: Any], itemClass: String) {
        print("keychain: \"login.keychain-db\"")
        print("class: \"\(itemClass)\"")
        print("attributes:")
        // Attribute codes are four characters; the data's digest is not an attribute.
        for key in item.keys.sorted() where key.count == 4 && key != "sha1" {
            print("    \"\(key)\"\(render(item[key]!))")
        }
    }

    /// `lock-keychain` and `unlock-keychain [-p PASSWORD]` on the login keychain (the only one a
    /// lab Mac has; naming another is errSecNoSuchKeychain). Without `-p` the user is asked for the
    /// password by the Mac (the real tool asks on the terminal).
    static func lockOrUnlock(unlocking: Bool, _ arguments: [String]) -> Never {
        var rest = arguments
        var password: String?
        if unlocking, rest.first == "-p" {
            guard rest.count >= 2 else { usage("-p takes a value") }
            password = rest[1]
            rest.removeFirst(2)
        }
        guard rest.count <= 1 else { usage("unexpected '\(rest[1])'") }
        if let name = rest.first, !["login.keychain", "login.keychain-db"].contains((name as NSString).lastPathComponent) {
            FileHandle.standardError.write(Data("security: \(name): The specified keychain could not be found.\n".utf8))
            exit(Int32(UInt8(truncatingIfNeeded: errSecNoSuchKeychain)))
        }
        let status: OSStatus
        if !unlocking {
            status = SecKeychainLock(nil)
        } else if let password {
            let bytes = Array(password.utf8)
            status = bytes.withUnsafeBytes { SecKeychainUnlock(nil, UInt32($0.count), $0.baseAddress, true) }
        } else {
            status = SecKeychainUnlock(nil, 0, nil, false)
        }
        if status != errSecSuccess { fail(unlocking ? "SecKeychainUnlock <NULL>" : "SecKeychainLock <NULL>", status) }
        exit(0)
    }

    static func render(_ value: Any) -> String {
        switch value {
        case let data as Data: return "<blob>=\"\(String(decoding: data, as: UTF8.self))\""
        case let text as String: return "<blob>=\"\(text)\""
        case let date as Date: return "<timedate>=\"\(date.formatted(.iso8601))\""
        case let number as NSNumber: return "<uint32>=\(number)"
        default: return "<blob>=<NULL>"
        }
    }

    static func fail(_ function: String, _ status: OSStatus) -> Never {
        let message = SecCopyErrorMessageString(status, nil).map { String(describing: $0) } ?? "OSStatus \(status)"
        FileHandle.standardError.write(Data("security: \(function): \(message)\n".utf8))
        exit(Int32(UInt8(truncatingIfNeeded: status)))
    }

    static func usage(_ problem: String? = nil) -> Never {
        let text = [
            problem.map { "security-tool: \($0)" },
            "usage: security-tool find-|add-|delete-generic-password, find-|add-|delete-internet-password, dump-keychain [-d], lock-keychain, unlock-keychain [-p PASSWORD]",
        ].compactMap(\.self).joined(separator: "\n")
        FileHandle.standardError.write(Data((text + "\n").utf8))
        exit(2)
    }
}

/// `-a VALUE`-style options and bare flags (`-w` alone, `-U`, `-g`, `-d`), as `security` reads them.
struct Options {
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(_ arguments: [String]) {
        let takesValue: Set<String> = ["a", "s", "l", "r", "P", "p"]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("-"), argument.count == 2 else { SecurityTool.usage("unexpected '\(argument)'") }
            let name = String(argument.dropFirst())
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            if takesValue.contains(name) {
                guard let next else { SecurityTool.usage("\(argument) takes a value") }
                values[name] = next
                index += 2
            } else if name == "w", let next, !next.hasPrefix("-") {
                // -w PASSWORD when adding; a bare -w asks for the password when finding.
                values[name] = next
                flags.insert(name)
                index += 2
            } else {
                flags.insert(name)
                index += 1
            }
        }
    }
}
