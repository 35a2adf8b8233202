import AppIdentity
import KeychainTypes
import SiteAssociation
import UserAnswers
public import WebCredentialAPI

extension SharedCredentialBroker {
    /// `SecRequestSharedWebCredential(fqdn, account)`: G1 or G2 by the device's release.
    public func request(_ request: WebCredentialAPI.CopyRequest, app: CallingApp) async -> WebCredentialAPI.Outcome {
        do {
            switch app.behaviour.requestGeneration {
            case .picker: return try await pickerRequest(request, app: app)
            case .passwordRequest: return try await passwordRequest(request, app: app)
            }
        } catch {
            return error.outcome
        }
    }

    /// G1 (d.4): securityd gathers the approved sites' saved passwords and shows a picker; the
    /// app gets the one the user picks.
    private func pickerRequest(_ request: WebCredentialAPI.CopyRequest, app: CallingApp) async throws(Unreachable) -> WebCredentialAPI.Outcome {
        guard app.passwordAutoFill else { return .failure(SecStatus.badReq.code, "Autofill is not enabled in Safari settings") }
        let texts = request.fqdn.map { [$0] } ?? Self.entitlementDomains(app)
        guard !texts.isEmpty else { return .failure(SecStatus.param.code, "No domain provided") }
        var domains: [CredentialDomain] = []
        var entitled: AppID? = nil
        for text in texts {
            guard let domain = CredentialDomain(text, behaviour: app.behaviour) else { return .failure(SecStatus.param.code, "No domain provided") }
            // Any domain failing the entitlement check aborts the whole request.
            switch Self.entitledAppID(app, domain) {
            case .success(let appID): entitled = appID
            case .failure(let refusal): return refusal.outcome
            }
            domains.append(domain)
        }
        guard let appID = entitled else { return .failure(SecStatus.param.code, "No domain provided") }
        var found: [SavedPassword] = []
        for domain in domains {
            do {
                guard try await isApproved(appID, domain.host) else { continue }
                found += try await saved(SavedPasswordItems.query(host: domain.host, account: request.account, port: domain.port))
            } catch  where domains.count > 1 {
                continue  // one site's failure is ignored when there are several
            }
        }
        let offered = Self.ordered(found)
        guard !offered.isEmpty else {
            return WebCredentialAPI.Outcome(
                status: SecStatus.itemNotFound.code,
                error: .osStatus(SecStatus.itemNotFound.code, "no matching items found"),
                credentials: [],
                reason: "no saved password for \(domains.map(\.description).joined(separator: ", ")) at an approved site"
            )
        }
        let prompt = PromptTexts.picker(app: app.name, domain: domains.map(\.description).joined(separator: ", "), choices: offered.map(Self.choice))
        guard let answer = Self.answer(to: prompt, in: request.consent) else { return .ask(prompt) }
        guard let chosen = Self.pick(answer, from: offered) else {
            // Cancel: securityd returns false without an error, and the client delivers an empty array.
            return WebCredentialAPI.Outcome(
                status: 0,
                credentials: [],
                reason: "the user chose Not Now in the picker; as on iOS 8–15.3 the app gets an empty array and no error"
            )
        }
        await users.record(appID: appID, host: chosen.host, approved: true)
        return WebCredentialAPI.Outcome(
            status: 0,
            credentials: [Self.dictionary(chosen)],
            reason: "the user picked \(chosen.account) at \(chosen.host)"
        )
    }

    /// The domains of a NULL-fqdn G1 request: the `webcredentials:` entries' text; from iOS 14
    /// every entry the specifier parser takes, whatever its service (d.4 step 2).
    static func entitlementDomains(_ app: CallingApp) -> [String] {
        app.associatedDomains.compactMap { entry in
            guard let colon = entry.firstIndex(of: ":") else { return nil }
            let service = entry[..<colon]
            let rest = String(entry[entry.index(after: colon)...])
            if app.behaviour.nullFQDNTakesEveryService {
                return AssociationService(rawValue: String(service)) != nil && (try? AssociatedDomain(entry)) != nil ? rest : nil
            }
            return service == "webcredentials" ? rest : nil
        }
    }

    /// Safari's "never save" markers dropped; items saved through this API (comment `default`) first.
    static func ordered(_ found: [SavedPassword]) -> [SavedPassword] {
        let kept = found.filter { $0.account != SavedPasswordItems.neverSavedAccount }
        return kept.filter { $0.comment == SavedPasswordItems.defaultComment } + kept.filter { $0.comment != SavedPasswordItems.defaultComment }
    }

    /// How a saved password appears in a picker: `account (host)`.
    static func choice(_ saved: SavedPassword) -> String {
        "\(saved.account) (\(saved.port.map { "\(saved.host):\($0)" } ?? saved.host))"
    }

    /// The answer's choice: approve is the first row, pick N the Nth; decline or a row that does
    /// not exist is a cancel.
    static func pick(_ answer: PromptAnswer, from offered: [SavedPassword]) -> SavedPassword? {
        switch answer {
        case .approve: offered.first
        case .decline: nil
        case .pick(let index): offered.indices.contains(index - 1) ? offered[index - 1] : nil
        }
    }

    /// A G1 result: server, account, password, and the port only when set and not HTTPS's default.
    static func dictionary(_ saved: SavedPassword) -> [String: SecValue] {
        var dictionary: [String: SecValue] = ["srvr": .string(saved.host), "acct": .string(saved.account), "spwd": .string(saved.password)]
        if let port = saved.port, port != 443 { dictionary["port"] = .integer(Int64(port)) }
        return dictionary
    }
}
