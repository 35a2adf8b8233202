import CloudAPI
import CloudZones
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceSupport

/// cloudd's routes: every one needs a device certificate naming an iCloud account, and reaches
/// that account's zones only.
struct CloudRoutes: Sendable {
    let zones: CloudZones
    let watch: ChangeWatch<ZoneID>
    /// Each zone's last change number as this replica knows it: a wait's answer without a store call.
    let tokens: ZoneTokens
    let audit: CloudAuditLog
    /// The threads store calls block: a pool for each shard.
    let pools: StorePools

    static let views: Set<String> = ["Applications", "CreditCards", "Passwords", "Backstop"]

    func add(to router: Router<DeviceRequestContext>) {
        router.get("/v1/health") { _, _ in try Self.json(["status": "ok"]) }
        router.post("/v1/zones/:view/modify") { request, context in
            let (device, zone) = try await zone(context, "modify")
            let body = try await RouteSupport.decode(
                CloudAPI.ModifyRequest.self,
                request,
                limit: 2 * CloudAPI.maximumPayload * 4,
                refusing: CloudAPI.ProblemCode.self,
                decoder: CloudAPI.decoder()
            )
            guard body.writes.count <= CloudAPI.maximumBatch else {
                throw Self.problem(.badRequest, "at most \(CloudAPI.maximumBatch) writes in one batch, not \(body.writes.count)")
            }
            guard Set(body.writes.map(\.uuid)).count == body.writes.count else {
                throw Self.problem(.badRequest, "a batch names each record once")
            }
            if let large = body.writes.first(where: { ($0.payload?.count ?? 0) >= CloudAPI.maximumPayload }) {
                throw Self.problem(.recordTooLarge, "the record \(large.uuid) is \(large.payload?.count ?? 0) bytes: records are under 1 MiB")
            }
            let writes = body.writes.map { RecordWrite(uuid: $0.uuid, payload: $0.payload, expectedTag: $0.expectedTag) }
            let era = tokens.era
            let (outcomes, latest) = try await blocking(zone) { try zones.apply(writes, in: zone) }
            tokens.note(zone, latest, readIn: era)
            var answered: [String: CloudAPI.Outcome] = [:]
            var applied = false
            var counts: [CloudAPI.Outcome.Status: Int] = [:]
            for (uuid, outcome) in outcomes {
                switch outcome {
                case .saved(let tag):
                    applied = true
                    answered[uuid.uuidString] = CloudAPI.Outcome(status: .saved, changeTag: tag)
                case .deleted:
                    applied = true
                    answered[uuid.uuidString] = CloudAPI.Outcome(status: .deleted)
                case .conflict(let server):
                    answered[uuid.uuidString] = CloudAPI.Outcome(
                        status: .conflict,
                        server: server.map { CloudAPI.Record(uuid: $0.uuid, changeTag: $0.changeTag, payload: $0.payload) }
                    )
                case .notAttempted:
                    answered[uuid.uuidString] = CloudAPI.Outcome(status: .notAttempted)
                }
            }
            context.logger.info(
                "modify",
                metadata: ["zone": "\(zone)", "writes": "\(body.writes.count)", "applied": "\(applied)"]
            )
            for outcome in answered.values { counts[outcome.status, default: 0] += 1 }
            let outcome = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            audit.record(CloudAuditLine(device, zone, "modify", status: 200, outcome: outcome))
            if applied { watch.changed(zone) }
            return try Self.json(CloudAPI.ModifyResponse(outcomes: answered))
        }
        router.get("/v1/zones/:view/changes") { request, context in
            let (device, zone) = try await zone(context, "changes")
            let query = request.uri.queryParameters
            let limit = min(400, max(1, Int(query.get("limit") ?? "") ?? 400))
            let page: ZoneChanges
            let era = tokens.era
            do {
                let since = query.get("since")
                page = try await blocking(zone) { try zones.changes(in: zone, since: since, limit: limit) }
            } catch ZoneChangesError.tokenExpired {
                audit.record(CloudAuditLine(device, zone, "changes", status: 410, outcome: "tokenExpired"))
                throw Self.problem(.tokenExpired, "the change token is not one this zone gave: fetch every change again (no since)")
            }
            let fetched = "\(page.changes.count) \(page.changes.count == 1 ? "change" : "changes")\(page.moreComing ? ", more coming" : "")"
            audit.record(CloudAuditLine(device, zone, "changes", status: 200, outcome: fetched))
            let changes = page.changes.map { change in
                switch change {
                case .saved(let record): CloudAPI.Change(uuid: record.uuid, deleted: false, changeTag: record.changeTag, payload: record.payload)
                case .deleted(let uuid): CloudAPI.Change(uuid: uuid, deleted: true)
                }
            }
            // The last page's token is the zone's latest.
            if !page.moreComing, let latest = Int(page.token) { tokens.note(zone, latest, readIn: era) }
            return try Self.json(CloudAPI.ChangesResponse(changes: changes, token: page.token, moreComing: page.moreComing))
        }
        router.get("/v1/zones/:view/wait") { request, context in
            let (_, zone) = try await zone(context, "wait")
            let query = request.uri.queryParameters
            let seconds = min(60, max(0, Int(query.get("seconds") ?? "") ?? 30))
            let since = query.get("since")
            let deadline = ContinuousClock.now + .seconds(seconds)
            while true {
                let version = watch.version(zone)
                // Only a caller with a token asks whether it is behind; without one, a wait ends
                // on news alone.
                if let since {
                    let current = String(try await latest(zone, atLeast: Int(since)))
                    if since != current {
                        return try Self.json(CloudAPI.WaitResponse(changed: true, token: current))
                    }
                }
                let woken = await watch.wait(zone, after: version, timeout: deadline - ContinuousClock.now)
                // Without a token a wake is the answer; with one, a wake that left the zone where
                // the caller has it (the feed from other replicas came back and woke everyone)
                // waits on for the time left.
                if !woken || since == nil || ContinuousClock.now >= deadline {
                    let token = String(try await latest(zone, atLeast: since.flatMap { Int($0) }))
                    return try Self.json(CloudAPI.WaitResponse(changed: woken && token != since, token: token))
                }
            }
        }
    }

    /// The number of `zone`'s last change: as this replica knows it (its writes and reads, its
    /// feeds' notifications), else read from the store and remembered. A known number below
    /// `atLeast` (a caller's token from another replica whose notification is still on its way)
    /// is read again rather than answered.
    func latest(_ zone: ZoneID, atLeast floor: Int?) async throws -> Int {
        if let known = tokens.latest(zone), known >= floor ?? 0 { return known }
        let era = tokens.era
        let read = try await blocking(zone) { try zones.storage.latest(in: zone) }
        tokens.note(zone, read, readIn: era)
        return read
    }

    /// `GET /v1/admin/zones?account=A[&view=V]`: the operator's view of an account, never a payload;
    /// `POST /v1/admin/zones/erase` empties accounts' zones (``addEraseRoute(to:)``).
    func addAdminRoutes(to router: Router<DeviceRequestContext>) {
        addEraseRoute(to: router)
        router.get("/v1/admin/zones") { request, context in
            _ = try await SystemServiceIdentity.administrator(context.channel, refusing: CloudAPI.ProblemCode.self)
            let query = request.uri.queryParameters
            guard let account = query.get("account"), !account.isEmpty else {
                throw Self.problem(.badRequest, "name the account: account=ADDRESS")
            }
            let views =
                try query.get("view").map { view in
                    guard Self.views.contains(view) else { throw Self.problem(.unknownView, "no view '\(view)'") }
                    return [view]
                } ?? Self.views.sorted()
            let listings = try await blocking(account) {
                try views.map { view in
                    let zone = ZoneID(account: account, view: view)
                    let records = try zones.storage.records(in: zone).map {
                        CloudAPI.RecordSummary(uuid: $0.uuid, changeTag: $0.changeTag, size: $0.payload.count)
                    }
                    return CloudAPI.ZoneListing(account: account, view: view, token: try zones.token(of: zone), records: records)
                }
            }
            return try Self.json(listings)
        }
    }

    /// The caller and its zone for the path's view: its account from its certificate. A
    /// refusal is audited as `operation`.
    func zone(_ context: DeviceRequestContext, _ operation: String) async throws -> (DeviceIdentity, ZoneID) {
        let device = try await DeviceIdentity.required(context.channel, refusing: CloudAPI.ProblemCode.self)
        let view = context.parameters.get("view") ?? ""
        guard let account = device.iCloudAccount else {
            audit.record(CloudAuditLine(device: device.udid, account: nil, operation: operation, view: view, status: 403, outcome: "notSignedIn"))
            throw Self.problem(.notSignedIn, "\(device.name) is signed in to no iCloud account, so it has no zones")
        }
        guard Self.views.contains(view) else {
            audit.record(CloudAuditLine(device: device.udid, account: account, operation: operation, view: view, status: 404, outcome: "unknownView"))
            throw Self.problem(.unknownView, "no view '\(view)': \(Self.views.sorted().joined(separator: ", "))")
        }
        return (device, ZoneID(account: account, view: view))
    }

    /// Runs a store call for `zone`, which blocks its thread on SQLite or PostgreSQL, on the
    /// pool of the zone's shard: a stalled database then holds none of the threads that serve
    /// requests, nor those of another shard's accounts.
    func blocking<Result: Sendable>(_ zone: ZoneID, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await blocking(zone.account, body)
    }

    /// Runs a store call for `account`'s zones on the pool of its shard.
    func blocking<Result: Sendable>(_ account: String, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await pools.run(for: account, body)
    }

    static func json(_ value: some Encodable) throws -> Response {
        try RouteSupport.json(value, encoder: CloudAPI.encoder())
    }

    static func problem(_ code: CloudAPI.ProblemCode, _ message: String) -> ProblemResponse<CloudAPI.ProblemCode> {
        ProblemResponse(code, message)
    }
}
