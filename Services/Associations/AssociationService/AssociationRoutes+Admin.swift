import AppIdentity
import AssociationAPI
import Hummingbird
import Logging
import ServiceSupport

extension AssociationRoutes {
    /// What the lab's operator (kclab, with the administrator certificate) may read: every device's
    /// associations, so that `kclab associations` and `kclab explain domain` never open
    /// associationd's database. No device, app or system service may use it.
    ///
    /// `GET /v1/admin/associations[?app=APP][&host=DOMAIN][&device=UDID]`: `app` is an app ID or a
    /// bundle ID, `host` the entry's domain as written (`*.example.com` for a wildcard).
    func addAdminRoutes(to router: Router<DeviceRequestContext>) {
        router.get("/v1/admin/associations") { request, context in
            let administrator = try await SystemServiceIdentity.administrator(context.channel, refusing: AssociationAPI.ProblemCode.self)
            let query = request.uri.queryParameters
            let app = query.get("app")
            let host = query.get("host")?.lowercased()
            let records = try center.records(device: query.get("device")).filter { record in
                (app.map(record.isOf(app:)) ?? true) && (host.map { record.domain == $0 } ?? true)
            }
            context.logger.notice(
                "associations listed by the operator",
                metadata: ["operator": "\(administrator.name)", "records": "\(records.count)"]
            )
            return try Self.json(records)
        }
    }
}
