import AppIdentity
import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainTypes
import LabErrors
import NIOHTTP1
import NIOSSL
import ServiceSupport

/// One fleet device's app and what it calls, reached as a real device reaches them: the device
/// reports its state to keychaind (`PUT /v1/device`) and registers the app from its signed files
/// (`POST /v1/apps`: keychaind verifies the signature itself, for this device), installs it with
/// associationd (``FleetAssociations``), then the app's SecItem calls travel on keychaind's call
/// channel, on a connection of the device's own under its own certificate, beside its shared
/// web credential calls (``FleetWebCredentials``) and association checks. Each kind of call is a
/// Poisson process at the plan's rate; each answer is counted by its OSStatus name.
struct FleetDeviceApp: Sendable {
    let index: Int
    /// keychaind's HTTPS API, for the report and the registration only, and the device's
    /// identity (the call channel's client holds it too).
    let keychaind: String
    let tls: TLSConfiguration
    let calls: KeychainCallClient
    let report: KeychainAPI.DeviceReport
    let app: FleetApp
    /// The app's install with associationd and its association checks.
    let associations: FleetAssociations?
    /// The app's shared web credential calls, made once the device is set up (webcredentiald
    /// finds the device in keychaind by its report, and the app's association in associationd).
    let webCredentials: FleetWebCredentials?
    let plan: FleetPlan
    let stats: FleetStats

    /// The release each fleet device reports.
    static let osVersion = OSVersion(17, 4)

    /// What a fleet device reports: an unlocked iPhone with a passcode, signed in to `account`.
    static func report(account: String) -> KeychainAPI.DeviceReport {
        .init(platform: .ios, osVersion: osVersion, iCloudAccount: account, hasPasscode: true, isLocked: false, unlockedSinceBoot: true)
    }

    /// The items' service: every call names one of the device's items in it.
    static let service = "fleet.keychainlab.test"

    /// Sets the device up, then makes the app's calls until `end`. Setting up (report, register,
    /// clear what an earlier run left) is the `keychain setup` operation, retried after a
    /// transport failure or a busy answer (``FleetRetry``); the install with associationd is
    /// `association setup`.
    func run(until end: ContinuousClock.Instant) async {
        let began = ContinuousClock.now
        let setup = await FleetRetry.attempt("keychain setup", until: end, stats: stats, kind: Self.kind, setUp)
        stats.startEnded()
        guard let reference = setup else {
            // Never set up, so never installed either: that step of its start is over too.
            if associations != nil { stats.startEnded() }
            return
        }
        stats.record("keychain setup", ContinuousClock.now - began)
        let calls: @Sendable () async -> Void = {
            await withTaskGroup(of: Void.self) { group in
                for (call, rate) in plan.calls.rates where rate > 0 {
                    group.addTask { await self.make(call, perMinute: rate, app: reference, until: end) }
                }
                if let webCredentials { group.addTask { await webCredentials.run(until: end) } }
            }
        }
        if let associations {
            await associations.run(until: end, whileInstalled: calls)
        } else {
            await calls()
        }
    }

    /// Reports, registers the app, deletes the items an earlier run of this device left and adds
    /// half of its items, so that calls find some and miss others; the app's reference.
    private func setUp() async throws -> String {
        let http = ServiceClient(baseURL: keychaind, tls: tls)
        let registered: String
        do {
            registered = try await register(http)
            await http.shutdown()
        } catch {
            await http.shutdown()
            throw error
        }
        _ = try await calls.call(.delete, request(.delete, app: registered, item: nil))
        for item in 0..<FleetPlan.itemsPerDevice / 2 {
            guard case .answer(let answer) = try await calls.call(.add, request(.add, app: registered, item: item)), answer.status == 0 else {
                throw SetupFailure(description: "the first items were not added")
            }
        }
        return registered
    }

    private func register(_ http: ServiceClient) async throws -> String {
        _ = try await http.send(.PUT, "/v1/device", report, as: [String: String].self)
        return try await http.send(.POST, "/v1/apps", app.registration, as: KeychainAPI.RegisteredApp.self).app
    }

    /// Makes `call` at random, `perMinute` times a minute on average, until `end`.
    private func make(_ call: SecItemCall, perMinute: Double, app reference: String, until end: ContinuousClock.Instant) async {
        while !Task.isCancelled {
            let next = ContinuousClock.now + FleetPlan.gap(perMinute: perMinute)
            guard next < end else { return }
            try? await Task.sleep(until: next)
            let started = ContinuousClock.now
            do {
                let item = Int.random(in: 0..<FleetPlan.itemsPerDevice)
                switch try await calls.call(call, request(call, app: reference, item: item)) {
                case .answer(let answer):
                    stats.record(call.function, ContinuousClock.now - started)
                    stats.answered(call.function, status: answer.name)
                case .problem(let problem):
                    stats.failed(call.function, kind: problem.error)
                }
            } catch {
                if Task.isCancelled { return }
                stats.failed(call.function, kind: Self.kind(error))
            }
        }
    }

    /// The call's dictionaries for item `item-N` of the device's (nil: every item of the service).
    func request(_ call: SecItemCall, app: String, item: Int?) -> KeychainAPI.CallRequest {
        var query: [String: SecValue] = ["class": .string("genp"), "svce": .string(Self.service)]
        if let item { query["acct"] = .string("item-\(item)") }
        switch call {
        case .add:
            query["v_Data"] = .data(secret())
        case .copyMatching:
            query["r_Data"] = .bool(true)
        case .update:
            return KeychainAPI.CallRequest(app: app, query: query, attributesToUpdate: ["v_Data": .data(secret())])
        case .delete:
            break
        }
        return KeychainAPI.CallRequest(app: app, query: query)
    }

    private func secret() -> Data {
        Data((0..<plan.secretBytes).map { _ in UInt8.random(in: 0...255) })
    }

    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// keychaind's problem code when it refused, else the error as a device names it.
    static func kind(_ error: any Error) -> String {
        if let failure = error as? ServiceClient.Failure,
            let problem = KeychainAPI.Problem(body: failure.body)
        {
            return problem.error
        }
        return FleetDevice.kind(error)
    }
}
