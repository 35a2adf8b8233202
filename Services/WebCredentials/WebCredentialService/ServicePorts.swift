import AppIdentity
import AssociationAPI
import Foundation
import KeychainAPI
import KeychainTypes
import NIOHTTP1
import ServiceSupport
import WebCredentials

/// A device's saved website passwords in keychaind, through its system route.
struct KeychaindPasswords: SavedPasswordKeychain {
    let client: ServiceClient
    let device: String

    func call(_ call: SecItemCall, query: [String: SecValue], attributesToUpdate: [String: SecValue]?) async throws -> KeychainAnswer {
        let body = KeychainAPI.SystemCallRequest(device: device, query: query, attributesToUpdate: attributesToUpdate)
        let answer = try await client.send(.POST, call.systemRoute, body, as: KeychainAPI.CallResponse.self)
        return KeychainAnswer(status: answer.status, result: answer.result)
    }
}

/// Site approval for a device's app, from associationd (which fetches a pending site again).
struct AssociationdSites: SiteApprovals {
    let client: ServiceClient
    let device: String

    func isApproved(appID: AppID, host: String) async throws -> Bool {
        var query = URLComponents()
        query.queryItems = [
            URLQueryItem(name: "app", value: appID.rawValue), URLQueryItem(name: "host", value: host),
            URLQueryItem(name: "service", value: "webcredentials"), URLQueryItem(name: "device", value: device),
        ]
        let answer = try await client.get(
            "/v1/association?" + (query.percentEncodedQuery ?? ""),
            as: AssociationAPI.Answer.self,
            decoder: AssociationAPI.decoder()
        )
        return answer.associated
    }
}

/// User approvals of one device, in webcredentiald's store.
struct DeviceApprovals: UserApprovals {
    let store: ApprovalStore
    let device: String

    func record(appID: AppID, host: String, approved: Bool) async {
        try? store.record(device: device, appID: appID, host: host, approved: approved)
    }
}
