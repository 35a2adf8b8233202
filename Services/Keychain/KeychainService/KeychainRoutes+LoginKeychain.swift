import AppIdentity
import Foundation
import Hummingbird
import KeychainAPI
import KeychainTypes
import Logging
import ServiceSupport

extension KeychainRoutes {
    /// A Mac's login keychain lock (spec keychain.md §5): the device unlocks it with its user's
    /// password (at login, from a prompt, or `kclab device unlock-keychain`) and locks it. The
    /// password is checked against keychaind's verifier, never logged, never stored.
    func addLoginKeychainRoutes(to router: Router<DeviceRequestContext>) {
        router.get("/v1/login-keychain") { _, context in
            let device = try await self.mac(context)
            return try Self.json(self.loginKeychainState(device))
        }
        router.post("/v1/login-keychain/lock") { _, context in
            let device = try await self.mac(context)
            guard self.calls.logins.lock(device: device) else {
                throw Self.problem(.noLoginKeychain, "\(device) has no login keychain yet: its user has not logged in (unlocked it)")
            }
            context.logger.info("login keychain locked", metadata: ["device.udid": "\(device)"])
            return try Self.json(self.loginKeychainState(device))
        }
        router.post("/v1/login-keychain/unlock") { request, context in
            let device = try await self.mac(context)
            let body = try await Self.decode(KeychainAPI.LoginKeychainUnlock.self, request, context)
            guard body.password.utf8.count <= LoginKeychains.maximumPasswordLength else {
                throw Self.problem(.badRequest, "a password is at most \(LoginKeychains.maximumPasswordLength) bytes")
            }
            let created = !self.calls.logins.exists(device: device)
            guard try self.calls.logins.unlock(device: device, password: body.password) == .unlocked else {
                context.logger.notice("login keychain unlock refused: wrong password", metadata: ["device.udid": "\(device)"])
                throw Self.problem(
                    .authFailed,
                    "\(SecStatus.authFailed): the password is not the login keychain's (\(SecStatus.authFailed.message))"
                )
            }
            context.logger.info(created ? "login keychain created" : "login keychain unlocked", metadata: ["device.udid": "\(device)"])
            return try Self.json(self.loginKeychainState(device))
        }
    }

    private func loginKeychainState(_ device: String) -> KeychainAPI.LoginKeychainState {
        KeychainAPI.LoginKeychainState(exists: calls.logins.exists(device: device), isLocked: calls.logins.isLocked(device: device))
    }

    /// The calling device's UDID, when it is a Mac (only a Mac has a login keychain).
    private func mac(_ context: DeviceRequestContext) async throws -> String {
        let device = try await Self.device(context)
        guard let report = devices.report(for: device.udid) else {
            throw Self.problem(.unknownDevice, "device \(device.udid) must report its state (PUT /v1/device) first")
        }
        guard report.platform == .macos else {
            throw Self.problem(.notAMac, "only a Mac has a login keychain; \(device.udid) runs \(report.platform)")
        }
        return device.udid
    }
}
