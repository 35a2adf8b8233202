import AppIdentity
import KeychainTypes
import UserAnswers
public import WebCredentialAPI

extension SharedCredentialBroker {
    /// `SecAddSharedWebCredential(fqdn, account, password)`: add, update, or (password `nil`)
    /// delete a saved password, in the order of d.3.
    public func add(_ request: WebCredentialAPI.AddRequest, app: CallingApp) async -> WebCredentialAPI.Outcome {
        let behaviour = app.behaviour
        guard behaviour.addIsSupported else {
            return .failure(SecStatus.unimplemented.code, "SecAddSharedWebCredentialSync not supported on this platform")
        }
        // 1. Password AutoFill.
        guard app.passwordAutoFill else { return .failure(SecStatus.badReq.code, behaviour.autoFillDisabledMessage) }
        // 2. The account and the domain.
        guard let account = request.account, !account.isEmpty else { return .failure(SecStatus.param.code, "No account provided") }
        guard let fqdn = request.fqdn, let domain = CredentialDomain(fqdn, behaviour: behaviour) else {
            return .failure(SecStatus.param.code, "No domain provided")
        }
        // 3. The entitlement.
        let appID: AppID
        switch Self.entitledAppID(app, domain) {
        case .success(let entitled): appID = entitled
        case .failure(let refusal): return refusal.outcome
        }
        do {
            // 4. Site approval.
            guard try await isApproved(appID, domain.host) else {
                return .failure(
                    SecStatus.authFailed.code,
                    "\"\(domain.host)\" failed to approve \"\(appID)\"",
                    reason: "the association of \(appID) with \(domain.host) for webcredentials is not approved (see kclab associations)"
                )
            }
            // 5. Safari's "never save" marker for the site.
            let neverSaved = SavedPasswordItems.query(host: domain.host, account: SavedPasswordItems.neverSavedAccount, port: domain.port)
            if try await keychain(.copyMatching, neverSaved).status == 0 {
                return .failure(SecStatus.duplicateItem.code, "Item already exists for this server")
            }
            // 6. Add, update or delete.
            let query = SavedPasswordItems.query(host: domain.host, account: account, port: domain.port)
            let existing = try await saved(query).first
            return try await apply(request, existing: existing, query: query, domain: domain, account: account, app: app, appID: appID)
        } catch {
            return error.outcome
        }
    }

    /// d.3 step 3: an `application-identifier`, and the host in a `webcredentials:` entry; the
    /// identifier, or the refusal.
    static func entitledAppID(_ app: CallingApp, _ domain: CredentialDomain) -> Result<AppID, Refused> {
        guard let appID = app.appID else {
            return .failure(Refused(outcome: .failure(SecStatus.missingEntitlement.code, "Missing application-identifier entitlement")))
        }
        guard domain.isEntitled(by: app.associatedDomains, behaviour: app.behaviour) else {
            let message = "\(domain.host) not found in com.apple.developer.associated-domains entitlement"
            return .failure(Refused(outcome: .failure(SecStatus.missingEntitlement.code, message)))
        }
        return .success(appID)
    }

    private func apply(
        _ request: WebCredentialAPI.AddRequest,
        existing: SavedPassword?,
        query: [String: SecValue],
        domain: CredentialDomain,
        account: String,
        app: CallingApp,
        appID: AppID
    ) async throws(Unreachable) -> WebCredentialAPI.Outcome {
        let host = domain.host
        switch (existing, request.password) {
        case (nil, nil):
            return WebCredentialAPI.Outcome(status: 0, reason: "nothing saved for \(account) at \(host): nothing to delete")
        case (nil, let password?):
            if app.behaviour.promptsForNewAccount {
                let prompt = PromptTexts.add(app: app.name, domain: host)
                guard let answer = Self.answer(to: prompt, in: request.consent) else { return .ask(prompt) }
                guard answer != .decline else { return await declined(appID, host, "saving a new password") }
            }
            let item = SavedPasswordItems.newItem(host: host, account: account, port: domain.port, password: password)
            return Self.saved(try await keychain(.add, item), "saved a new password for \(account) at \(host)")
        case (let stored?, let password?):
            if stored.password != password || app.behaviour.promptsForUnchangedPassword {
                let prompt = PromptTexts.update(app: app.name, domain: host)
                guard let answer = Self.answer(to: prompt, in: request.consent) else { return .ask(prompt) }
                guard answer != .decline else { return await declined(appID, host, "updating the password") }
            }
            let answer = try await keychain(.update, query, changes: SavedPasswordItems.changes(password: password))
            return Self.saved(answer, "updated the password of \(account) at \(host)")
        case (_?, nil):
            // "per rdar://16676288 we always prompt, even if there was prior user approval"
            let prompt = PromptTexts.delete(app: app.name, domain: host)
            guard let answer = Self.answer(to: prompt, in: request.consent) else { return .ask(prompt) }
            guard answer != .decline else { return await declined(appID, host, "deleting the password") }
            return Self.saved(try await keychain(.delete, query), "deleted the password of \(account) at \(host)")
        }
    }

    /// "Not Now": user approval becomes denied, and securityd returns false without an error,
    /// which the client reads as success (d.3 quirk): the app cannot tell.
    private func declined(_ appID: AppID, _ host: String, _ what: String) async -> WebCredentialAPI.Outcome {
        await users.record(appID: appID, host: host, approved: false)
        return WebCredentialAPI.Outcome(
            status: 0,
            reason: "the user chose Not Now when asked about \(what); nothing changed, and, as on iOS, the app's completion handler gets no error"
        )
    }

    private static func saved(_ answer: KeychainAnswer, _ what: String) -> WebCredentialAPI.Outcome {
        guard answer.status == 0 else {
            let status = SecStatus(code: answer.status) ?? .internal
            return .failure(answer.status, status.message, reason: "keychaind refused: \(status)")
        }
        return WebCredentialAPI.Outcome(status: 0, reason: what)
    }
}
