import AppIdentity
import DeviceProtocol
import Foundation
import KeychainTypes
import Logging
import NIOHTTP1
import ServiceSupport
import UserAnswers
import WebCredentialAPI
import WorldFile

extension Device {
    /// `SecAddSharedWebCredential`, `SecRequestSharedWebCredential` or a passkey request made by `bundleID`: sent to
    /// webcredentiald with the app's signed files; each prompt it returns is shown to the user and
    /// the call is made again with the answer.
    func sharedWebCredential(_ request: DeviceRequest, as bundleID: String) async -> DeviceResponse {
        guard let app = app(bundleID) else { return .failure(notInstalled(bundleID)) }
        guard let webCredentials else {
            return Self.unavailable("webcredentiald is not running: this device was started without it")
        }
        let caller = WebCredentialAPI.Caller(
            profile: app.installed.bundle.signed.profile,
            codeSignature: app.installed.bundle.signed.codeSignature,
            appName: app.installed.bundle.displayName,
            platform: declaration.platform,
            osVersion: declaration.osVersion,
            passwordAutoFill: declaration.passwordAutoFill
        )
        let outcome: WebCredentialAPI.Outcome?
        do {
            outcome = try await WebCredentialAPI.answeringPrompts { consent in
                try await send(request, caller: caller, consent: consent, to: webCredentials)
            } answer: { prompt in
                await user.answer(prompt, app: bundleID)
            }
        } catch {
            logger.warning("webcredentiald is unreachable", metadata: ["error": "\(error)"])
            return Self.unavailable("webcredentiald cannot be reached; try again")
        }
        guard let outcome else { return Self.unavailable("the prompt changed on every answer; try again") }
        return Self.response(outcome)
    }

    private func send(
        _ request: DeviceRequest,
        caller: WebCredentialAPI.Caller,
        consent: Consent?,
        to client: ServiceClient
    ) async throws -> WebCredentialAPI.Outcome {
        let decoder = WebCredentialAPI.decoder()
        switch request.action {
        case .passkeyRegister(let registration):
            let body = WebCredentialAPI.PasskeyRegistrationRequest(
                caller: caller,
                relyingParty: registration.relyingParty,
                challenge: registration.challenge,
                userName: registration.userName,
                userID: registration.userID,
                origin: registration.origin,
                consent: consent
            )
            return try await client.send(.POST, "/v1/passkeys/register", body, as: WebCredentialAPI.Outcome.self, decoder: decoder)
        case .passkeyAssert(let assertion):
            let body = WebCredentialAPI.PasskeyAssertionRequest(
                caller: caller,
                relyingParty: assertion.relyingParty,
                challenge: assertion.challenge,
                allowedCredentials: assertion.credentialIDs,
                origin: assertion.origin,
                consent: consent
            )
            return try await client.send(.POST, "/v1/passkeys/assert", body, as: WebCredentialAPI.Outcome.self, decoder: decoder)
        case .passkeyList(let relyingParty):
            let body = WebCredentialAPI.PasskeyListRequest(caller: caller, relyingParty: relyingParty)
            return try await client.send(.POST, "/v1/passkeys/list", body, as: WebCredentialAPI.Outcome.self, decoder: decoder)
        case .addSharedWebCredential(let fqdn, let account, let password):
            let body = WebCredentialAPI.AddRequest(caller: caller, fqdn: fqdn, account: account, password: password, consent: consent)
            return try await client.send(.POST, "/v1/credentials/add", body, as: WebCredentialAPI.Outcome.self, decoder: decoder)
        case .requestSharedWebCredential(let fqdn, let account):
            let body = WebCredentialAPI.CopyRequest(caller: caller, fqdn: fqdn, account: account, consent: consent)
            return try await client.send(.POST, "/v1/credentials/request", body, as: WebCredentialAPI.Outcome.self, decoder: decoder)
        default:
            throw NotAWebCredentialRequest(operation: request.operation)
        }
    }

    /// A request `send` was given that webcredentiald does not answer (none reaches it).
    private struct NotAWebCredentialRequest: Error, CustomStringConvertible {
        let operation: DeviceRequest.Operation
        var description: String { "\(operation.rawValue) is not a shared-web-credential or passkey request" }
    }

    private static func response(_ outcome: WebCredentialAPI.Outcome) -> DeviceResponse {
        let name = SecStatus(code: outcome.status)?.name ?? "OSStatus \(outcome.status)"
        var response = DeviceResponse.call(
            status: outcome.status,
            name: name,
            result: outcome.credentials.map { .array($0.map(SecValue.dictionary)) },
            reason: outcome.reason
        )
        response.callError = outcome.error
        response.passkey = outcome.passkey
        return response
    }

    /// errSecNotAvailable with its CFError: the broker cannot be asked.
    private static func unavailable(_ message: String) -> DeviceResponse {
        var response = DeviceResponse.call(status: SecStatus.notAvailable.code, name: SecStatus.notAvailable.name, result: nil, reason: message)
        response.callError = .osStatus(SecStatus.notAvailable.code, message)
        return response
    }

    /// `set-answers`: the scripted user's new answers; with neither, the script as it stands.
    func setAnswers(_ texts: [String]?, defaultAnswer: String?) async -> DeviceResponse {
        guard texts != nil || defaultAnswer != nil else {
            var response = DeviceResponse()
            response.answers = await user.describe()
            return response
        }
        let texts = texts ?? []
        var answers: [ScriptedAnswer] = []
        for text in texts {
            guard let answer = ScriptedAnswer(text: text) else { return .failure("'\(text)' is not an answer: write \(ScriptedAnswer.grammar)") }
            answers.append(answer)
        }
        var fallback: ScriptedAnswer? = nil
        if let defaultAnswer {
            guard let answer = ScriptedAnswer(text: defaultAnswer) else {
                return .failure("'\(defaultAnswer)' is not an answer: write \(ScriptedAnswer.grammar)")
            }
            fallback = answer
        }
        var response = DeviceResponse()
        response.answers = await user.script(answers, defaultAnswer: fallback)
        return response
    }
}
