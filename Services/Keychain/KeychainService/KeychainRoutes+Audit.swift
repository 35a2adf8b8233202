import Foundation
import Hummingbird
import KeychainAPI
import ServiceSupport

extension KeychainRoutes {
    /// `GET /v1/admin/audit?device=UDID[&after=SEQ][&since=ISO8601][&limit=N]`: the decisions
    /// keychaind made for a device's apps, oldest first, each with its sequence number, from the
    /// lines it keeps in memory (the last 4096 or more). Without `after`, the latest; with it, the
    /// entries after that number, a page at a time: a reader passes each answer's `next` as the
    /// next `after` until it reaches `latest`, and `dropped` says how many of those it asked for
    /// were gone from memory first. That is how `kclab test` reads every call of a run. For the
    /// lab's operator only; values never.
    func addAuditRoute(to router: Router<DeviceRequestContext>) {
        router.get("/v1/admin/audit") { request, context in
            _ = try await Self.administrator(context)
            let parameters = request.uri.queryParameters
            guard let device = parameters.get("device").map({ String($0) }), !device.isEmpty else {
                throw Self.problem(.badRequest, "name the device: device=UDID")
            }
            var since: Date? = nil
            if let text = parameters.get("since").map({ String($0) }) {
                guard let date = try? Date(text, strategy: .iso8601) else {
                    throw Self.problem(.badRequest, "since must be an ISO 8601 time such as 2026-11-27T12:00:00Z, not '\(text)'")
                }
                since = date
            }
            var after: Int64? = nil
            if let text = parameters.get("after").map({ String($0) }) {
                guard let number = Int64(text), number >= 0 else {
                    throw Self.problem(.badRequest, "after must be an audit sequence number, 0 or more (an answer's next), not '\(text)'")
                }
                after = number
            }
            let limit = parameters.get("limit").map { String($0) }
            guard let count = limit.map(Int.init) ?? KeychainAuditLog.recentCapacity, (1...KeychainAuditLog.recentCapacity).contains(count) else {
                throw Self.problem(.badRequest, "limit must be 1 to \(KeychainAuditLog.recentCapacity)")
            }
            let audit = calls.recorder.audit
            let answer =
                if let after {
                    audit.page(device: device, after: after, since: since, limit: count)
                } else {
                    audit.latest(device: device, since: since, limit: count)
                }
            return try RouteSupport.json(answer, encoder: KeychainAPI.AdminItems.encoder())
        }
    }
}
