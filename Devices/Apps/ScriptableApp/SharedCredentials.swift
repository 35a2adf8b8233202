import Dispatch
import Foundation
import Security

/// The shared-web-credential calls of keychainlab-app, through the Security module's functions,
/// each waiting for its completion handler and printing `{"error", "credentials"}`:
///
///     keychainlab-app add-web-credential FQDN ACCOUNT [PASSWORD]     (no password: delete)
///     keychainlab-app request-web-credential [FQDN|-] [ACCOUNT]      (- or none: NULL)
///     keychainlab-app suggest-password
enum SharedCredentials {
    /// Runs a shared-credential command; `false` when `command` is not one.
    static func run(_ command: String, _ arguments: [String]) -> Bool {
        switch command {
        case "add-web-credential":
            guard (2...3).contains(arguments.count) else { ScriptableApp.fail("usage: add-web-credential FQDN ACCOUNT [PASSWORD]") }
            let password: CFString? = arguments.count == 3 ? arguments[2] as NSString : nil
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var received: CFError?
            SecAddSharedWebCredential(arguments[0] as NSString, arguments[1] as NSString, password) { error in
                received = error
                done.signal()
            }
            done.wait()
            print(report(error: received, credentials: nil, includeCredentials: false))
        case "request-web-credential":
            let fqdn: CFString? = arguments.first.flatMap { $0 == "-" ? nil : $0 as NSString }
            let account: CFString? = arguments.count > 1 ? arguments[1] as NSString : nil
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var received: (CFArray?, CFError?) = (nil, nil)
            SecRequestSharedWebCredential(fqdn, account) { credentials, error in
                received = (credentials, error)
                done.signal()
            }
            done.wait()
            print(report(error: received.1, credentials: received.0, includeCredentials: true))
        case "suggest-password":
            print(SecCreateSharedWebCredentialPassword().map { String(describing: $0) } ?? "NULL")
        default:
            return false
        }
        return true
    }

    /// `{"error": {"domain", "code", "message"} | null, "credentials": [...] | null}`.
    static func report(error: CFError?, credentials: CFArray?, includeCredentials: Bool) -> String {
        var object: [String: Any] = [:]
        if let error {
            object["error"] = [
                "domain": String(describing: CFErrorGetDomain(error)!), "code": CFErrorGetCode(error),
                "message": error.localizedDescription,
            ]
        } else {
            object["error"] = NSNull()
        }
        if includeCredentials {
            object["credentials"] =
                credentials.map { list in
                    (list as? [Any] ?? []).map { element -> Any in
                        let dictionary = element as? [String: Any] ?? [:]
                        // Read back through Apple's constants, as an app does.
                        var entry: [String: Any] = [:]
                        for key in [kSecAttrServer, kSecAttrAccount, kSecSharedPassword, kSecAttrPort] {
                            if let value = dictionary[String(describing: key)] { entry[String(describing: key)] = value }
                        }
                        return entry
                    }
                } ?? NSNull()
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
