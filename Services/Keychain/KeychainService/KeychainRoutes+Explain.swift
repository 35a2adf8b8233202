import AppIdentity
import Foundation
import Hummingbird
import KeychainAPI
import KeychainItems
import KeychainTypes
import Logging
import NIOCore
import ServiceSupport

extension KeychainRoutes {
    /// `POST /v1/admin/explain` (the operator only): why an app of a device can or cannot see
    /// what a query names. The answer comes from the engine itself (the same call an app makes,
    /// its data dropped) and from the same query run with every group of the device's keychains,
    /// counted by group; nothing is written and no data leaves keychaind.
    func addExplainRoute(to router: Router<DeviceRequestContext>) {
        router.post("/v1/admin/explain") { request, context in
            _ = try await Self.administrator(context)
            let body = try await Self.decode(KeychainAPI.ExplainRequest.self, request, context)
            guard let report = devices.report(for: body.device) else {
                throw Self.problem(.unknownDevice, "device \(body.device) has not reported its state to keychaind")
            }
            let state = KeychainCalls.state(report)
            var explanation = KeychainAPI.Explanation(
                appID: nil,
                refusals: [],
                accessGroups: [],
                platform: "\(report.platform)",
                osVersion: "\(report.osVersion)",
                isLocked: report.isLocked,
                hasPasscode: report.hasPasscode,
                refusesForeignGroups: state.refusesForeignGroups,
                status: 0,
                name: "",
                reason: nil,
                matchingByGroup: [:]
            )
            let entry: AppRegistry.Entry
            switch apps.register(body.app, device: body.device, platform: report.platform) {
            case .success(let registered): entry = registered
            case .failure(let failure):
                explanation.appID = failure.appID
                explanation.refusals = failure.refusals.map(\.description)
                return try Self.json(explanation)
            }
            let client = calls.client(entry, device: body.device, state: state)
            explanation.appID = client.caller.appID
            explanation.accessGroups = client.accessGroups
            var query = body.query.filter { !["r_Data", "r_Ref", "r_PersistentRef"].contains($0.key) }
            let asTheApp = await calls.engine.copyMatching(query, client: client)
            explanation.status = asTheApp.status.code
            explanation.name = asTheApp.status.name
            explanation.reason = asTheApp.reason
            explanation.matchingByGroup = try await matchingByGroup(&query, client: client, state: state)
            if body.query["sync"] == nil {
                // A query without the sync key reads sync=0 only: say what it leaves out.
                var anySync = query
                anySync["sync"] = .string("syna")
                let withSynced = try await matchingByGroup(&anySync, client: client, state: state)
                let left = withSynced.values.reduce(0, +) - explanation.matchingByGroup.values.reduce(0, +)
                explanation.synchronizableMatches = left > 0 ? left : nil
            }
            explanation.recentCalls = calls.recorder.audit.recent(device: body.device, appID: client.caller.description, limit: 5)
            if let access = client.fileKeychain, let decisions = await calls.engine.fileKeychainDecisions(body.query, client: client) {
                explanation.loginKeychain = KeychainAPI.LoginKeychainExplanation(
                    isLocked: access.isLocked,
                    partition: access.partition,
                    items: decisions
                )
            }
            return try Self.json(explanation)
        }
    }

    /// The query run as if the caller belonged to every group of the device's keychains, on an
    /// unlocked device: how many items each group holds that it matches.
    private func matchingByGroup(_ query: inout [String: SecValue], client: ClientContext, state: DeviceState) async throws -> [String: Int] {
        let keychains = [client.deviceKeychain]
        let groups = try await calls.engine.store.accessGroups(keychains: keychains)
        let everyGroup = ClientContext(
            caller: .system("kclab explain"),
            entitledGroups: groups.sorted().compactMap { try? AccessGroup($0) },
            device: DeviceState(platform: state.platform, osVersion: state.osVersion),
            deviceKeychain: client.deviceKeychain
        )
        query["m_Limit"] = .string("m_LimitAll")
        query["r_Attributes"] = .bool(true)
        guard case .array(let found)? = await calls.engine.copyMatching(query, client: everyGroup).result else { return [:] }
        var counts: [String: Int] = [:]
        for case .dictionary(let attributes) in found {
            if case .string(let group)? = attributes["agrp"] { counts[group, default: 0] += 1 }
        }
        return counts
    }
}
