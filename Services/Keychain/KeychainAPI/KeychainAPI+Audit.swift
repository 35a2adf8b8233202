public import AppIdentity
public import Decisions
public import Foundation
public import KeychainItems
import KeychainTypes

/// One of keychaind's decisions: a SecItem call it answered, or one it refused before the
/// keychain (an app or device it does not know, a refused registration), its rule typed as the
/// engine's. A line of its audit log (`STATE/audit.jsonl`) and an entry of its audit route.
public typealias KeychainDecision = Decision<SecItemError.Rule>

extension KeychainAPI {
    /// `GET /v1/admin/audit`: some of keychaind's decisions, oldest first, and where a reader goes
    /// on from.
    public typealias AuditEntries = DecisionPage<SecItemError.Rule>
}

extension Decision where Rule == SecItemError.Rule {
    /// The decision of a SecItem call the engine answered with `result`: its status, rule and
    /// reason, and for a refusal the fix for an app of `caller` on `platform`.
    public static func call(
        time: Date = Date(),
        device: String,
        caller: Caller,
        platform: Platform?,
        function: String,
        result: SecItemResult
    ) -> KeychainDecision {
        let fix = result.status == .success ? nil : result.rule.map { $0.fix(reason: result.reason ?? "", platform: platform) }
        return KeychainDecision(
            time: time,
            device: device,
            app: caller.appID?.bundleID.rawValue ?? caller.description,
            appID: caller.appID?.rawValue,
            call: function,
            status: result.status,
            name: result.status.name,
            rule: result.rule,
            reason: result.reason,
            fix: fix
        )
    }
}
