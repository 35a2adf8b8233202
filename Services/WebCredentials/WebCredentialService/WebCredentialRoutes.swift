import AppIdentity
import Foundation
import Hummingbird
import KeychainTypes
import Logging
import ServiceSupport
import WebCredentialAPI
import WebCredentials

/// webcredentiald's routes: a device calls for one of its apps, sending the app's signed files;
/// the broker decides from the verified signature, never from what the device claims about it.
struct WebCredentialRoutes: Sendable {
    let verifier: SharedSignatureChecks
    /// Where callers' signatures are verified: off the request threads, in turn by device, within
    /// a budget (docs/reliability.md, "Time").
    let verifying = FairWorkPool(name: "verify", maximumQueued: 256)
    static let budget: Duration = .seconds(5)
    let keychaind: ServiceClient
    let associationd: ServiceClient
    let approvals: ApprovalStore

    func add(to router: Router<DeviceRequestContext>) {
        router.get("/v1/health") { _, _ in try RouteSupport.json(["status": "ok"], encoder: WebCredentialAPI.encoder()) }
        router.post("/v1/credentials/add") { request, context in
            let device = try await Self.device(context)
            let body = try await RouteSupport.decode(
                WebCredentialAPI.AddRequest.self,
                request,
                limit: context.maxUploadSize,
                refusing: WebCredentialAPI.ProblemCode.self
            )
            let app = try await verify(body.caller, device: device)
            let started = ContinuousClock.now
            let outcome = await broker(for: device).add(body, app: app)
            WebCredentialMetrics.call("SecAddSharedWebCredential", outcome, consent: body.consent, duration: ContinuousClock.now - started)
            Self.log("SecAddSharedWebCredential", outcome, app: app, domain: body.fqdn, account: body.account, device: device, context: context)
            return try RouteSupport.json(outcome, encoder: WebCredentialAPI.encoder())
        }
        router.post("/v1/credentials/request") { request, context in
            let device = try await Self.device(context)
            let body = try await RouteSupport.decode(
                WebCredentialAPI.CopyRequest.self,
                request,
                limit: context.maxUploadSize,
                refusing: WebCredentialAPI.ProblemCode.self
            )
            let app = try await verify(body.caller, device: device)
            let started = ContinuousClock.now
            let outcome = await broker(for: device).request(body, app: app)
            WebCredentialMetrics.call("SecRequestSharedWebCredential", outcome, consent: body.consent, duration: ContinuousClock.now - started)
            Self.log("SecRequestSharedWebCredential", outcome, app: app, domain: body.fqdn, account: body.account, device: device, context: context)
            return try RouteSupport.json(outcome, encoder: WebCredentialAPI.encoder())
        }
        passkeyRoute(router, "register", WebCredentialAPI.PasskeyRegistrationRequest.self) { broker, body, app in
            await broker.registerPasskey(body, app: app)
        }
        passkeyRoute(router, "assert", WebCredentialAPI.PasskeyAssertionRequest.self) { broker, body, app in
            await broker.assertPasskey(body, app: app)
        }
        passkeyRoute(router, "list", WebCredentialAPI.PasskeyListRequest.self) { broker, body, app in
            await broker.listPasskeys(body, app: app)
        }
        router.get("/v1/approvals") { _, context in
            let device = try await Self.device(context)
            return try RouteSupport.json(try approvals.approvals(device: device.udid), encoder: WebCredentialAPI.encoder())
        }
    }

    /// `POST /v1/passkeys/NAME`: the app verified from its signed files, the broker's answer, one log line.
    private func passkeyRoute<Body: PasskeyRequestBody>(
        _ router: Router<DeviceRequestContext>,
        _ name: String,
        _ type: Body.Type,
        _ perform: @escaping @Sendable (SharedCredentialBroker, Body, CallingApp) async -> WebCredentialAPI.Outcome
    ) {
        router.post("/v1/passkeys/\(name)") { request, context in
            let device = try await Self.device(context)
            let body = try await RouteSupport.decode(Body.self, request, limit: context.maxUploadSize, refusing: WebCredentialAPI.ProblemCode.self)
            let app = try await verify(body.caller, device: device)
            let started = ContinuousClock.now
            let outcome = await perform(broker(for: device), body, app)
            WebCredentialMetrics.call("passkey \(name)", outcome, consent: body.answered, duration: ContinuousClock.now - started)
            Self.log("passkey \(name)", outcome, app: app, domain: body.relyingParty, account: body.loggedAccount, device: device, context: context)
            return try RouteSupport.json(outcome, encoder: WebCredentialAPI.encoder())
        }
    }

    private func broker(for device: DeviceIdentity) -> SharedCredentialBroker {
        SharedCredentialBroker(
            keychain: KeychaindPasswords(client: keychaind, device: device.udid),
            sites: AssociationdSites(client: associationd, device: device.udid),
            users: DeviceApprovals(store: approvals, device: device.udid)
        )
    }

    /// The calling app from its signed files, checked as at install (and for this device).
    private func verify(_ caller: WebCredentialAPI.Caller, device: DeviceIdentity) async throws -> CallingApp {
        let verifier = self.verifier
        let signed = SignedApp(profile: caller.profile, codeSignature: caller.codeSignature)
        let outcome = await verifying.run(key: device.udid, budget: Self.budget) { verifier.verify(signed, device: device.udid, at: Date()) }
        guard case .done(let check) = outcome else {
            throw ProblemResponse(
                WebCredentialAPI.ProblemCode.verificationBudget,
                "verifying the app's signature took longer than \(Self.budget), or too many wait"
            )
        }
        guard let app = check.verified else {
            throw ProblemResponse(
                WebCredentialAPI.ProblemCode.refusedApp,
                "the app's signature is not valid",
                reasons: check.refusals.map(\.description)
            )
        }
        return CallingApp(
            appID: app.appID,
            name: caller.appName,
            associatedDomains: app.entitlements.associatedDomains,
            behaviour: BrokerBehaviour(platform: caller.platform, version: caller.osVersion),
            passwordAutoFill: caller.passwordAutoFill,
            isWebBrowser: app.entitlements[EntitlementKey.webBrowserPublicKeyCredential] == .bool(true)
        )
    }

    private static func device(_ context: DeviceRequestContext) async throws -> DeviceIdentity {
        try await DeviceIdentity.required(context.channel, refusing: WebCredentialAPI.ProblemCode.self)
    }

    /// One line per call: who, what, and how it ended; never a password.
    private static func log(
        _ call: String,
        _ outcome: WebCredentialAPI.Outcome,
        app: CallingApp,
        domain: String?,
        account: String?,
        device: DeviceIdentity,
        context: DeviceRequestContext
    ) {
        context.logger.info(
            "\(call)",
            metadata: [
                "device.udid": "\(device.udid)", "app.id": "\(app.appID?.rawValue ?? "?")", "domain": "\(domain ?? "<NULL>")",
                "account": "\(account ?? "<NULL>")", "behaviour": "\(app.behaviour.summary)",
                "status": "\(outcome.status)", "prompt": "\(outcome.prompt?.kind.rawValue ?? "-")", "reason": "\(outcome.reason ?? "")",
                "error": "\(outcome.error.map { "\($0.domain) \($0.code)" } ?? "-")",
            ]
        )
    }
}

/// A passkey request's body: the calling app, the relying party, and the user it names (for logs).
protocol PasskeyRequestBody: Decodable, Sendable {
    var caller: WebCredentialAPI.Caller { get }
    var relyingParty: String { get }
    var loggedAccount: String? { get }
    /// The user's answer to the sheet the previous attempt returned, if any.
    var answered: Consent? { get }
}

extension WebCredentialAPI.PasskeyRegistrationRequest: PasskeyRequestBody {
    var loggedAccount: String? { userName }
    var answered: Consent? { consent }
}

extension WebCredentialAPI.PasskeyAssertionRequest: PasskeyRequestBody {
    var loggedAccount: String? { nil }
    var answered: Consent? { consent }
}

extension WebCredentialAPI.PasskeyListRequest: PasskeyRequestBody {
    var loggedAccount: String? { nil }
    var answered: Consent? { nil }
}
