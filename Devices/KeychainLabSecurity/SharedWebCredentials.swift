import DeviceProtocol
public import Foundation
import KeychainTypes

// Apple's shared web credentials functions (SecSharedCredential.h). The client-side argument
// checks run here, in the app, as Apple's client library runs them (spec associations.md d.2);
// the rest goes to the device, which asks webcredentiald and shows its prompts to the user.
// Completion handlers always run later, on a global queue, even for argument errors.

/// Saves, updates or (with a `nil` password) deletes the password for `account` at `fqdn`,
/// shared with Safari. The user may be asked first.
public func SecAddSharedWebCredential(
    _ fqdn: CFString,
    _ account: CFString,
    _ password: CFString?,
    _ completionHandler: @escaping (CFError?) -> Void
) {
    let handler = CompletionBox(completionHandler)
    guard fqdn.length > 0, account.length > 0 else {
        let error = SharedCredentialError.osStatus(errSecParam, "fqdn or account was not of type CFString, or not provided")
        DispatchQueue.global().async { handler.value(error) }
        return
    }
    let request = DeviceRequest(
        .addSharedWebCredential(
            fqdn: String(describing: fqdn),
            account: String(describing: account),
            password: password.map { String(describing: $0) }
        )
    )
    DispatchQueue.global().async {
        let response = DeviceConnection.shared.send(request)
        handler.value(SharedCredentialError.of(response))
    }
}

/// Asks for a saved password for `fqdn` (`nil`: the app's associated domains) and `account`
/// (`nil`: any). The user picks one, or declines.
public func SecRequestSharedWebCredential(
    _ fqdn: CFString?,
    _ account: CFString?,
    _ completionHandler: @escaping (CFArray?, CFError?) -> Void
) {
    let handler = CompletionBox(completionHandler)
    let problem: String? =
        if let fqdn, fqdn.length == 0 { "fqdn was empty or not a CFString" } else if let account, account.length == 0 {
            "account was empty or not a CFString"
        } else { nil }
    if let problem {
        let error = SharedCredentialError.osStatus(errSecParam, problem)
        DispatchQueue.global().async { handler.value(nil, error) }
        return
    }
    let request = DeviceRequest(
        .requestSharedWebCredential(fqdn: fqdn.map { String(describing: $0) }, account: account.map { String(describing: $0) })
    )
    DispatchQueue.global().async {
        let response = DeviceConnection.shared.send(request)
        // The client always hands over an array once the request was made: empty when nothing came.
        let credentials = (response.result.map(CFBridging.object) as? NSArray) ?? NSArray()
        handler.value(credentials, SharedCredentialError.of(response))
    }
}

/// A password in Safari's suggested form, `xxx-xxx-xxx-xxx` (spec associations.md d.6).
public func SecCreateSharedWebCredentialPassword() -> CFString? {
    SuggestedPassword.make().map { $0 as NSString }
}

/// Carries an app's completion handler to the global queue. Apple's signatures take plain
/// (non-Sendable) closures, and the handler is called exactly once, from one thread.
private struct CompletionBox<Handler>: @unchecked Sendable {
    let value: Handler
    init(_ value: Handler) { self.value = value }
}

/// The CFErrors shared-credential calls complete with.
enum SharedCredentialError {
    static func osStatus(_ status: OSStatus, _ message: String) -> CFError {
        NSError(domain: "NSOSStatusErrorDomain", code: Int(status), userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// The device's answer as a CFError: `nil` when the call succeeded, or when a quirk of Apple's
    /// hides a refusal (a declined prompt).
    static func of(_ response: DeviceResponse) -> CFError? {
        if let error = response.callError {
            return NSError(domain: error.domain, code: error.code, userInfo: [NSLocalizedDescriptionKey: error.message])
        }
        if let failure = response.error {
            return osStatus(errSecInternal, failure)
        }
        guard let status = response.status, status != errSecSuccess else { return nil }
        return osStatus(status, response.reason ?? "Error copying shared password")
    }
}
