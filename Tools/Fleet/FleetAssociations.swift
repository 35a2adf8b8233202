import AppIdentifiers
import AppIdentity
import AssociationAPI
import Foundation
import KeychainAPI
import NIOHTTP1
import NIOSSL
import ServiceSupport

/// One fleet device's associated domains, as a real device's: once set up, it tells
/// associationd it installed the app (`POST /v1/apps`: associationd verifies the signature
/// itself and decides each associated domain from the site's file, through the CDN), then asks
/// at random whether the app may use one of its `webcredentials` hosts (`GET /v1/association`),
/// as AutoFill and SecRequestSharedWebCredential do before they offer a site's passwords.
struct FleetAssociations: Sendable {
    let associationd: String
    let tls: TLSConfiguration
    let app: FleetApp
    let plan: FleetPlan
    let stats: FleetStats

    /// Installs the app (again after a transport failure or a busy answer, ``FleetRetry``), then
    /// runs `calls` (the app's other calls, which need the install) and checks until `end`. The
    /// install is the `association setup` row; an app with no
    /// `webcredentials` entry is installed and checks nothing.
    func run(until end: ContinuousClock.Instant, whileInstalled calls: @escaping @Sendable () async -> Void) async {
        let http = ServiceClient(baseURL: associationd, tls: tls)
        let began = ContinuousClock.now
        let installed = await FleetRetry.attempt("association setup", until: end, stats: stats, kind: FleetDevice.kind) {
            try await install(http)
        }
        stats.startEnded()
        if installed != nil { stats.record("association setup", ContinuousClock.now - began) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await calls() }
            let hosts = app.webCredentialHosts
            if let appID = installed, !hosts.isEmpty, plan.associationChecksPerDeviceMinute > 0 {
                group.addTask { await check(appID: appID, hosts: hosts, http: http, until: end) }
            }
        }
        await http.shutdown()
    }

    /// The app's ID as associationd read it from the signature.
    private func install(_ http: ServiceClient) async throws -> String {
        let request = AssociationAPI.InstallRequest(
            platform: .ios,
            osVersion: FleetDeviceApp.osVersion,
            profile: app.registration.profile,
            codeSignature: app.registration.codeSignature,
            settings: AssociationAPI.DeviceSettings(developerMode: false)
        )
        return try await http.send(.POST, "/v1/apps", request, as: AssociationAPI.InstallResponse.self, decoder: AssociationAPI.decoder()).appID
            .rawValue
    }

    private func check(appID: String, hosts: [String], http: ServiceClient, until end: ContinuousClock.Instant) async {
        while !Task.isCancelled {
            let next = ContinuousClock.now + FleetPlan.gap(perMinute: plan.associationChecksPerDeviceMinute)
            guard next < end else { return }
            try? await Task.sleep(until: next)
            var query = URLComponents()
            query.queryItems = [
                URLQueryItem(name: "app", value: appID),
                URLQueryItem(name: "host", value: hosts.randomElement()),
                URLQueryItem(name: "service", value: "webcredentials"),
            ]
            let started = ContinuousClock.now
            do {
                let answer = try await http.get(
                    "/v1/association?" + (query.percentEncodedQuery ?? ""),
                    as: AssociationAPI.Answer.self,
                    decoder: AssociationAPI.decoder()
                )
                stats.record("association check", ContinuousClock.now - started)
                stats.answered("association check", status: answer.associated ? "associated" : "not associated")
            } catch {
                if Task.isCancelled { return }
                stats.failed("association check", kind: FleetDevice.kind(error))
            }
        }
    }
}
