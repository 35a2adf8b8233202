import Hummingbird
import KeychainAPI
import KeychainItems
import Logging
import ServiceSupport

extension KeychainRoutes {
    /// `POST /v1/admin/reset`: removes every item of every keychain, tombstones and the devices'
    /// queued sync changes with them, for the lab's operator only (`kclab reset`, for demos and
    /// tests, once the devices' iCloud Keychains are paused; cloudd's zones are emptied next).
    /// Keys, devices and registered apps are kept.
    func addResetRoute(to router: Router<DeviceRequestContext>) {
        router.post("/v1/admin/reset") { _, context in
            let administrator = try await Self.administrator(context)
            let removed = try await calls.engine.store.eraseAll()
            context.logger.notice(
                "every keychain item removed by the operator",
                metadata: ["operator": "\(administrator.name)", "items": "\(removed)"]
            )
            return try RouteSupport.json(KeychainAPI.ResetAnswer(removed: removed), encoder: KeychainAPI.AdminItems.encoder())
        }
    }
}
