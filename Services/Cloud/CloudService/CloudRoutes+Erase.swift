import CloudAPI
import CloudZones
import Hummingbird
import Logging
import ServiceSupport

extension CloudRoutes {
    /// `POST /v1/admin/zones/erase`: empties every zone of the accounts named, for the lab's
    /// operator only (`kclab reset`, between test cases). Each zone's records and change log go and
    /// its numbering goes on, so a device's token from before expires and a waiting device hears
    /// of it; the replicas on the same database hear of it as of a batch. The answer says what
    /// went from each zone, never a payload; each zone's erase is audited.
    func addEraseRoute(to router: Router<DeviceRequestContext>) {
        router.post("/v1/admin/zones/erase") { request, context in
            let administrator = try await SystemServiceIdentity.administrator(context.channel, refusing: CloudAPI.ProblemCode.self)
            let body = try await RouteSupport.decode(
                CloudAPI.EraseRequest.self,
                request,
                limit: 256 << 10,
                refusing: CloudAPI.ProblemCode.self,
                decoder: CloudAPI.decoder()
            )
            guard !body.accounts.isEmpty, body.accounts.count <= CloudAPI.maximumEraseAccounts else {
                throw Self.problem(.badRequest, "name 1 to \(CloudAPI.maximumEraseAccounts) accounts, not \(body.accounts.count)")
            }
            guard !body.accounts.contains(where: \.isEmpty) else { throw Self.problem(.badRequest, "an account is not empty") }
            let views = Self.views.sorted()
            var erased: [CloudAPI.ZoneErasure] = []
            for account in Set(body.accounts).sorted() {
                let era = tokens.era
                let zonesErased = try await blocking(account) { try zones.erase(account: account, views: views) }
                for view in views {
                    guard let erasure = zonesErased[view] else { continue }
                    let zone = ZoneID(account: account, view: view)
                    tokens.note(zone, erasure.latest, readIn: era)
                    // Its waiting devices look at their tokens: theirs now expire.
                    if erasure.erased { watch.changed(zone) }
                    let outcome = "erased \(erasure.records) records, \(erasure.changes) changes"
                    audit.record(
                        CloudAuditLine(device: administrator.name, account: account, operation: "erase", view: view, status: 200, outcome: outcome)
                    )
                    erased.append(
                        CloudAPI.ZoneErasure(
                            account: account,
                            view: view,
                            records: erasure.records,
                            changes: erasure.changes,
                            token: String(erasure.latest)
                        )
                    )
                }
            }
            context.logger.notice(
                "zones erased by the operator",
                metadata: [
                    "operator": "\(administrator.name)", "accounts": "\(Set(body.accounts).count)",
                    "records": "\(erased.reduce(0) { $0 + $1.records })",
                ]
            )
            return try Self.json(erased)
        }
    }
}
