import KeychainTypes
import SiteAssociation
import WebCredentialAPI

extension SharedCredentialBroker {
    /// ASAuthorizationError.canceled.
    static let canceledCode = 1001

    /// G2 (d.5, iOS 15.4+ and macOS): the client library runs an ASAuthorizationPasswordProvider
    /// request. The account is ignored; the sheet offers the saved passwords of the app's
    /// approved `webcredentials` domains; the result names the fqdn asked for (or derived).
    func passwordRequest(_ request: WebCredentialAPI.CopyRequest, app: CallingApp) async throws(Unreachable) -> WebCredentialAPI.Outcome {
        let webEntries = app.associatedDomains.filter { $0.hasPrefix("webcredentials:") && $0.count > "webcredentials:".count }
        guard let server = request.fqdn ?? webEntries.first.map({ String($0.dropFirst("webcredentials:".count)) }) else {
            return .failure(SecStatus.param.code, "fqdn was NULL, and no associated domains found")
        }
        var found: [SavedPassword] = []
        var seen: Set<CredentialDomain> = []
        for entry in webEntries {
            guard let parsed = try? AssociatedDomain(entry), !parsed.isWildcard else { continue }
            let domain = CredentialDomain(host: parsed.host, port: parsed.port)
            guard seen.insert(domain).inserted, let appID = app.appID, try await isApproved(appID, domain.host) else { continue }
            found += try await saved(SavedPasswordItems.query(host: domain.host, account: nil, port: domain.port))
        }
        let offered = Self.ordered(found)
        guard !offered.isEmpty else {
            return Self.canceled(
                "no saved password for the app's approved webcredentials domains (the code a device reports here is not documented; KeychainLab reports canceled)"
            )
        }
        let prompt = PromptTexts.passwordRequest(app: app.name, domain: server, choices: offered.map(Self.choice))
        guard let answer = Self.answer(to: prompt, in: request.consent) else { return .ask(prompt) }
        guard let chosen = Self.pick(answer, from: offered) else { return Self.canceled("the user canceled the password sheet") }
        if let appID = app.appID { await users.record(appID: appID, host: chosen.host, approved: true) }
        return WebCredentialAPI.Outcome(
            status: 0,
            credentials: [["srvr": .string(server), "acct": .string(chosen.account), "spwd": .string(chosen.password)]],
            reason: "the user picked \(chosen.account) at \(chosen.host)"
        )
    }

    /// G2's failure: errSecItemNotFound, an empty array, and AuthenticationServices' error.
    private static func canceled(_ reason: String) -> WebCredentialAPI.Outcome {
        WebCredentialAPI.Outcome(
            status: SecStatus.itemNotFound.code,
            error: WebCredentialAPI.CallError(
                domain: WebCredentialAPI.CallError.authorizationDomain,
                code: canceledCode,
                message: "The operation couldn’t be completed. (\(WebCredentialAPI.CallError.authorizationDomain) error \(canceledCode).)"
            ),
            credentials: [],
            reason: reason
        )
    }
}
