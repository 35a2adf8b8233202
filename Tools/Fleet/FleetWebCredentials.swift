import Foundation
import KeychainTypes
import NIOHTTP1
import NIOSSL
import ServiceSupport
import UserAnswers
import WebCredentialAPI

/// One fleet device's shared web credentials, as a real device's: its app saves a password for
/// one of its `webcredentials` hosts (`SecAddSharedWebCredential`) or asks for the host's saved
/// passwords (`SecRequestSharedWebCredential`), sending its signed files to webcredentiald,
/// which verifies them, asks associationd about the site and keeps the passwords in the
/// device's keychain in keychaind. When webcredentiald answers with a prompt, the device's user
/// approves it (the first account of a picker), or declines it on the plan's `declineShare` of
/// the devices, and the call is made again with that answer, as a scripted user answers.
struct FleetWebCredentials: Sendable {
    let webcredentiald: String
    let tls: TLSConfiguration
    let caller: WebCredentialAPI.Caller
    let hosts: [String]
    let index: Int
    let plan: FleetPlan
    let stats: FleetStats

    /// Saves and asks until `end`, in turn, a save first: as a user saves a password before
    /// autofill can offer it. The first save and the request after it are made at once, as the
    /// device is set up, the later calls at the plan's rate: so a device whose user approves
    /// finds what it saved even when a loaded machine sets it up just before the run's end.
    func run(until end: ContinuousClock.Instant) async {
        guard plan.webCredentialsPerDeviceMinute > 0, !hosts.isEmpty else { return }
        let http = ServiceClient(baseURL: webcredentiald, tls: tls)
        var add = false
        var made = 0
        while !Task.isCancelled {
            let gap = made < 2 ? .zero : FleetPlan.gap(perMinute: plan.webCredentialsPerDeviceMinute)
            let next = ContinuousClock.now + gap
            guard next < end else { break }
            try? await Task.sleep(until: next)
            made += 1
            let host = hosts.randomElement() ?? ""
            add.toggle()
            let function = add ? "SecAddSharedWebCredential" : "SecRequestSharedWebCredential"
            let started = ContinuousClock.now
            do {
                let outcome = try await call(add: add, host: host, http: http)
                stats.record(function, ContinuousClock.now - started)
                stats.answered(function, status: OSStatusTable.byCode[outcome.status]?.name ?? "OSStatus \(outcome.status)")
            } catch {
                if Task.isCancelled { break }
                stats.failed(function, kind: FleetDevice.kind(error))
            }
        }
        await http.shutdown()
    }

    /// One call, with each prompt answered by the device's user and the call made again
    /// (`WebCredentialAPI.answeringPrompts`).
    private func call(add: Bool, host: String, http: ServiceClient) async throws -> WebCredentialAPI.Outcome {
        let decoder = WebCredentialAPI.decoder()
        let outcome = try await WebCredentialAPI.answeringPrompts { consent in
            if add {
                let body = WebCredentialAPI.AddRequest(
                    caller: caller,
                    fqdn: host,
                    account: "fleet-\(index)",
                    password: UUID().uuidString,
                    consent: consent
                )
                return try await http.send(.POST, "/v1/credentials/add", body, as: WebCredentialAPI.Outcome.self, decoder: decoder)
            }
            let body = WebCredentialAPI.CopyRequest(caller: caller, fqdn: host, account: nil, consent: consent)
            return try await http.send(.POST, "/v1/credentials/request", body, as: WebCredentialAPI.Outcome.self, decoder: decoder)
        } answer: { prompt in
            stats.answered("prompt", status: prompt.kind.rawValue)
            let answer: PromptAnswer = plan.declines(index) ? .decline : .approve
            stats.answered("prompt answer", status: answer.description)
            return answer
        }
        guard let outcome else { throw PromptLoop(description: "the prompt changed on every answer") }
        return outcome
    }

    struct PromptLoop: Error, CustomStringConvertible {
        let description: String
    }
}
