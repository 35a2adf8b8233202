import Decisions
import Foundation
import Hummingbird
import KeychainAPI
import ServiceSupport

extension KeychainRoutes {
    /// `GET /v1/admin/audit[?device=UDID][&after=SEQ][&since=ISO8601][&limit=N][&wait=S]`: the
    /// decisions keychaind made (for a device's apps, or every device's), oldest first, each with its sequence number, from the
    /// lines it keeps in memory (the last 4096 or more). Without `after`, the latest; with it, the
    /// entries after that number, a page at a time: a reader passes each answer's `next` as the
    /// next `after` until it reaches `latest`, and `dropped` says how many of those it asked for
    /// were gone from memory first. That is how `kclab test` reads every call of a run. With `wait`
    /// (1 to 25 seconds) and `after`, an answer that would be empty waits up to that long for a
    /// decision: how the console follows the feed. For the lab's operator only; values never.
    func addAuditRoute(to router: Router<DeviceRequestContext>) {
        router.get("/v1/admin/audit") { request, context in
            _ = try await Self.administrator(context)
            let parameters = request.uri.queryParameters
            let device = parameters.get("device").map { String($0) }
            if device?.isEmpty == true { throw Self.problem(.badRequest, "device= names a device's UDID; leave it out for every device") }
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
            var wait: Duration = .zero
            if let text = parameters.get("wait").map({ String($0) }) {
                guard let seconds = Int(text), (1...25).contains(seconds), after != nil else {
                    throw Self.problem(.badRequest, "wait must be 1 to 25 seconds, with after=SEQ, not '\(text)'")
                }
                wait = .seconds(seconds)
            }
            let audit = calls.recorder.audit
            guard let after else {
                return try RouteSupport.json(audit.latest(device: device, since: since, limit: count), encoder: Self.auditEncoder)
            }
            var answer = audit.page(device: device, after: after, since: since, limit: count)
            let deadline = ContinuousClock.now + wait
            while answer.entries.isEmpty, answer.dropped == 0, ContinuousClock.now < deadline, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                answer = audit.page(device: device, after: answer.next, since: since, limit: count)
            }
            return try RouteSupport.json(answer, encoder: Self.auditEncoder)
        }
    }

    private static var auditEncoder: JSONEncoder { KeychainAPI.AdminItems.encoder() }
}
