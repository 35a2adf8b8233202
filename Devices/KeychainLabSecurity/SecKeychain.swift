import DeviceProtocol
public import Foundation
import KeychainTypes

/// A keychain reference (`SecKeychainRef`): on a Mac, the user's login keychain, the only file
/// keychain a lab Mac has. iOS has no `SecKeychain` functions; called there, they answer
/// errSecUnimplemented.
public final class SecKeychain: NSObject {
    public override var description: String { "<SecKeychain login.keychain-db>" }
}

/// Apple's name for a reference to a ``SecKeychain``.
public typealias SecKeychainRef = SecKeychain

/// The default keychain: the login keychain.
public func SecKeychainCopyDefault(_ keychain: UnsafeMutablePointer<SecKeychain?>) -> OSStatus {
    keychain.pointee = SecKeychain()
    return errSecSuccess
}

/// Locks `keychain` (`nil`: the default, the login keychain).
public func SecKeychainLock(_ keychain: SecKeychain?) -> OSStatus {
    loginKeychainCall(DeviceRequest(.lockKeychain))
}

/// Unlocks `keychain` (`nil`: the login keychain) with the `passwordLength` bytes at `password`
/// when `usePassword` is true; otherwise the user is asked for the password.
public func SecKeychainUnlock(_ keychain: SecKeychain?, _ passwordLength: UInt32, _ password: UnsafeRawPointer?, _ usePassword: Bool) -> OSStatus {
    guard usePassword else { return loginKeychainCall(DeviceRequest(.unlockKeychain())) }
    guard let password else { return errSecParam }
    let text = String(decoding: UnsafeRawBufferPointer(start: password, count: Int(passwordLength)), as: UTF8.self)
    return loginKeychainCall(DeviceRequest(.unlockKeychain(password: text)))
}

private func loginKeychainCall(_ request: DeviceRequest) -> OSStatus {
    let response = DeviceConnection.shared.send(request)
    if response.error != nil { return errSecUnimplemented }
    return response.status ?? errSecNotAvailable
}
