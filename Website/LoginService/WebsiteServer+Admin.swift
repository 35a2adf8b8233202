import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceSupport

extension WebsiteServer {
    /// What the lab's operator may do to the website, on a Unix socket in its state folder that
    /// only the website's user can open (the folder is 0700): `POST /v1/admin/reset` removes every
    /// account, session and passkey and answers `{"removed": N}` (`kclab reset --all`). The
    /// website has no TLS of its own (nginx adds it), so the socket's permissions are its lock,
    /// as a Docker engine's socket is; kclab never opens the website's database.
    static func adminApplication(_ configuration: Configuration, store: AccountStore, logger: Logger) -> some ApplicationProtocol {
        let router = Router()
        router.post("/v1/admin/reset") { _, _ -> Response in
            let removed = try store.eraseAll()
            logger.notice("every account removed by the operator", metadata: ["accounts": "\(removed)"])
            return try RouteSupport.json(["removed": removed], encoder: JSONEncoder())
        }
        // A socket left by a website that was killed would refuse the bind.
        try? FileManager.default.removeItem(at: configuration.adminSocket)
        return Application(
            router: router,
            configuration: .init(address: .unixDomainSocket(path: configuration.adminSocket.path), serverName: "website-admin"),
            logger: logger
        )
    }
}
