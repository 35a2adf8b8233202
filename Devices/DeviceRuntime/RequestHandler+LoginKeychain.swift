import AppIdentity
import DeviceProtocol
import KeychainTypes
import ServiceSupport
import WorldFile

extension RequestHandler {
    /// `lock-keychain` and `unlock-keychain` on a Mac's login keychain, from kclab (the control
    /// socket, `bundleID` nil: unlocked with the request's password, else the user's own) or from
    /// an app (SecKeychainLock, SecKeychainUnlock, `security unlock-keychain`: with the password it
    /// gives, else the user is asked). The answer carries the OSStatus: errSecAuthFailed (-25293) for
    /// a wrong password, errSecUserCanceled (-128) when the user cancels.
    func loginKeychain(_ request: DeviceRequest, as bundleID: String? = nil) async -> DeviceResponse {
        guard device.declaration.platform == .macos else {
            return .failure("\(configuration.id) runs \(device.declaration.platform.rawValue): only a Mac has a login keychain")
        }
        var response = DeviceResponse.call(status: SecStatus.success.code, name: SecStatus.success.name, result: nil, reason: nil)
        do {
            switch (request.action, bundleID) {
            case (.unlockKeychain(let password?), _):
                _ = try await device.unlockLoginKeychain(password: password)
            case (.unlockKeychain(nil), let bundleID?):
                if await device.loginKeychainLocked != false, await !device.askToUnlock("login", for: bundleID) {
                    response = Self.status(.userCanceled, "the user cancelled unlocking the login keychain")
                }
            case (.unlockKeychain(nil), nil):
                _ = try await device.unlockLoginKeychain(password: device.userPassword)
            default:
                _ = try await device.lockLoginKeychain()
            }
        } catch let refusal as LoginKeychainRefusal {
            response = Self.status(refusal.failure.status == 403 ? .authFailed : .notAvailable, refusal.description)
        } catch {
            response = Self.status(.notAvailable, "keychaind cannot be reached: \(error)")
        }
        if bundleID == nil { response.device = await device.status() }
        return response
    }

    private static func status(_ status: SecStatus, _ reason: String) -> DeviceResponse {
        .call(status: status.code, name: status.name, result: nil, reason: reason)
    }
}
