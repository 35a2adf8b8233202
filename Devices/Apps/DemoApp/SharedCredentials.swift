import Dispatch
import Foundation
import Security

/// Seed 002's shared-web-credential calls, as the listings make them, waiting for the completion
/// handler (which runs on a global queue).
enum SharedCredentials {
    struct Credential {
        let server: String
        let user: String
        let password: String
    }

    /// Listing 3: `SecRequestSharedWebCredential(NULL, NULL, …)`; the first (only) dictionary.
    static func request() -> (Credential?, CFError?) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var found: (Credential?, CFError?) = (nil, nil)
        SecRequestSharedWebCredential(nil, nil) { credentials, error in
            defer { done.signal() }
            if let error {
                found = (nil, error)
                return
            }
            // "There will only ever be one credential dictionary"
            guard let credentials, CFArrayGetCount(credentials) > 0,
                let credentialDict = (credentials as? [[String: Any]])?.first,
                let server = credentialDict[kSecAttrServer as String] as? String,
                let userName = credentialDict[kSecAttrAccount as String] as? String,
                let password = credentialDict[kSecSharedPassword as String] as? String
            else { return }
            found = (Credential(server: server, user: userName, password: password), nil)
        }
        done.wait()
        return found
    }

    /// Listings 4 and 5: `SecAddSharedWebCredential(domain, name, password or NULL, …)`.
    static func add(domain: String, user: String, password: String?) -> CFError? {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: CFError?
        SecAddSharedWebCredential(domain as CFString, user as CFString, password.map { $0 as CFString }) { error in
            failure = error
            done.signal()
        }
        done.wait()
        return failure
    }

    static func describe(_ error: CFError) -> String {
        "\(error.localizedDescription) (\(CFErrorGetDomain(error) ?? "") \(CFErrorGetCode(error)))"
    }
}

/// `CFArrayGetCount`, as the listing calls it.
func CFArrayGetCount(_ array: CFArray) -> Int {
    array.count
}
