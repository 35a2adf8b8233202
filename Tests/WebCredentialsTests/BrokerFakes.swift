import AppIdentity
import Foundation
import KeychainTypes
import Synchronization
import UserAnswers
import WebCredentialAPI
import WebCredentials

/// An in-memory stand-in for keychaind's `com.apple.cfnetwork` items, enough for the broker's
/// calls: exact-match queries on the attributes given, adds refused on a duplicate primary key.
final class MemoryKeychain: SavedPasswordKeychain {
    let items = Mutex<[[String: SecValue]]>([])
    let calls = Mutex<[SecItemCall]>([])
    let isDown = Mutex(false)

    static let controlKeys: Set<String> = ["class", "r_Attributes", "r_Data", "m_Limit"]

    func call(_ call: SecItemCall, query: [String: SecValue], attributesToUpdate: [String: SecValue]?) async throws -> KeychainAnswer {
        struct Down: Error {}
        if isDown.withLock({ $0 }) { throw Down() }
        calls.withLock { $0.append(call) }
        let filter = query.filter { !Self.controlKeys.contains($0.key) }
        return items.withLock { items in
            let matching = items.indices.filter { index in filter.allSatisfy { items[index][$0.key] == $0.value } }
            switch call {
            case .add:
                let key = ["srvr", "acct", "port"].map { query[$0] }
                if items.contains(where: { item in ["srvr", "acct", "port"].map { item[$0] } == key }) {
                    return KeychainAnswer(status: -25299, result: nil)
                }
                items.append(filter)
                return KeychainAnswer(status: 0, result: nil)
            case .copyMatching:
                guard !matching.isEmpty else { return KeychainAnswer(status: -25300, result: nil) }
                return KeychainAnswer(status: 0, result: .array(matching.map { .dictionary(items[$0]) }))
            case .update:
                guard !matching.isEmpty else { return KeychainAnswer(status: -25300, result: nil) }
                for index in matching { items[index].merge(attributesToUpdate ?? [:]) { $1 } }
                return KeychainAnswer(status: 0, result: nil)
            case .delete:
                guard !matching.isEmpty else { return KeychainAnswer(status: -25300, result: nil) }
                for index in matching.reversed() { items.remove(at: index) }
                return KeychainAnswer(status: 0, result: nil)
            }
        }
    }

    /// Puts an item in as Safari would have saved it.
    func save(host: String, account: String, password: String, port: Int? = nil, comment: String? = nil) {
        var item = SavedPasswordItems.newItem(host: host, account: account, port: port, password: password)
        item["class"] = nil
        item["icmt"] = comment.map(SecValue.string)
        items.withLock { $0.append(item) }
    }
}

/// Site approval from a fixed list of approved (app ID, host) pairs.
final class FixedSites: SiteApprovals {
    let approved: Set<String>
    let isDown: Bool

    init(_ approved: Set<String>, isDown: Bool = false) {
        self.approved = approved
        self.isDown = isDown
    }

    func isApproved(appID: AppID, host: String) async throws -> Bool {
        struct Down: Error {}
        if isDown { throw Down() }
        return approved.contains("\(appID)@\(host)")
    }
}

/// User approvals, remembered.
final class RememberedApprovals: UserApprovals {
    let records = Mutex<[String: Bool]>([:])

    func record(appID: AppID, host: String, approved: Bool) async {
        records.withLock { $0["\(appID)@\(host)"] = approved }
    }
}

/// A broker over the fakes, and helpers to call it as an app on a device of some release.
struct BrokerFixture {
    static let appID = "D3KQX62K1A.com.example.DemoApp"
    let keychain = MemoryKeychain()
    let users = RememberedApprovals()
    var sites = FixedSites(["\(Self.appID)@example.com", "\(Self.appID)@www.example.com"])

    var broker: SharedCredentialBroker { SharedCredentialBroker(keychain: keychain, sites: sites, users: users) }

    static func app(
        _ version: String,
        platform: Platform = .ios,
        domains: [String] = ["webcredentials:example.com", "webcredentials:www.example.com"],
        appID: String? = appID,
        autoFill: Bool = true
    ) -> CallingApp {
        CallingApp(
            appID: appID.map { try! AppID($0) },
            name: "DemoApp",
            associatedDomains: domains,
            behaviour: BrokerBehaviour(platform: platform, version: try! OSVersion(version)),
            passwordAutoFill: autoFill
        )
    }

    static let caller = WebCredentialAPI.Caller(
        profile: Data(),
        codeSignature: Data(),
        appName: "DemoApp",
        platform: .ios,
        osVersion: OSVersion(17),
        passwordAutoFill: true
    )

    /// An add, answering whatever prompt comes with `answer` (none: the prompt is returned).
    func add(_ fqdn: String?, _ account: String?, _ password: String?, app: CallingApp, answer: PromptAnswer? = nil) async -> WebCredentialAPI.Outcome
    {
        var request = WebCredentialAPI.AddRequest(caller: Self.caller, fqdn: fqdn, account: account, password: password)
        let first = await broker.add(request, app: app)
        guard let prompt = first.prompt, let answer else { return first }
        request.consent = Consent(prompt: prompt.id, answer: answer)
        return await broker.add(request, app: app)
    }

    /// A request, answering the prompt likewise.
    func request(_ fqdn: String?, _ account: String?, app: CallingApp, answer: PromptAnswer? = nil) async -> WebCredentialAPI.Outcome {
        var request = WebCredentialAPI.CopyRequest(caller: Self.caller, fqdn: fqdn, account: account)
        let first = await broker.request(request, app: app)
        guard let prompt = first.prompt, let answer else { return first }
        request.consent = Consent(prompt: prompt.id, answer: answer)
        return await broker.request(request, app: app)
    }

    var stored: [[String: SecValue]] { keychain.items.withLock { $0 } }
}
