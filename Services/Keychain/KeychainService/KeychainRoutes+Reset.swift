import Hummingbird
import KeychainAPI
import KeychainItems
import Logging
import ServiceSupport

extension KeychainRoutes {
    /// `POST /v1/admin/reset`: removes every item of every keychain, for the lab's operator only
    /// (`kclab reset`, for demos and tests). Keys, devices and registered apps are kept.
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
