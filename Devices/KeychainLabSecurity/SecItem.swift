import DeviceProtocol
public import Foundation
import KeychainTypes

// Apple's SecItem functions. Each call goes to the app's device, which knows which app is calling
// and forwards the call to keychaind with the app's signed identity.

/// Adds an item; `result` receives what the return keys ask for.
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    call(.add, attributes, result: result)
}

/// Finds items; `result` receives what the return keys ask for.
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    call(.copyMatching, query, result: result)
}

/// Changes every item matching `query`.
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    guard let changes = CFBridging.dictionary(attributesToUpdate) else { return errSecParam }
    return call(.update, query, attributesToUpdate: changes, result: nil)
}

/// Deletes every item matching `query`.
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    call(.delete, query, result: nil)
}

/// The message for a status, as the Security framework words it. Like Apple's, a status without a
/// message gets the made-up text "OSStatus N" rather than `nil`.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    let message = secErrorsByStatus[status]?.message ?? ""
    return (message.isEmpty ? "OSStatus \(status)" : message) as NSString
}

private func call(
    _ call: SecItemCall,
    _ dictionary: CFDictionary,
    attributesToUpdate: [String: SecValue]? = nil,
    result: UnsafeMutablePointer<CFTypeRef?>?
) -> OSStatus {
    // A value with no SecItem form (an object the keychain cannot store) is a bad parameter.
    guard let query = CFBridging.dictionary(dictionary) else { return errSecParam }
    let response = DeviceConnection.shared.send(DeviceRequest(.secItem(call, query: query, attributesToUpdate: attributesToUpdate)))
    guard let status = response.status else { return errSecNotAvailable }
    if status == errSecSuccess, let value = response.result {
        result?.pointee = CFBridging.object(value)
    }
    return status
}
