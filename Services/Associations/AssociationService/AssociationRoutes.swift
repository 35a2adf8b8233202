import AppIdentity
import AssociationAPI
import CMSSupport
import Foundation
import Hummingbird
import LabErrors
import Logging
import NIOCore
import ServiceSupport
import SiteAssociation

/// associationd's routes; every one needs a device certificate, and a device sees only its own
/// associations.
struct AssociationRoutes: Sendable {
    let center: AssociationCenter
    let verifier: SharedSignatureChecks

    func add(to router: Router<DeviceRequestContext>) {
        router.get("/v1/health") { _, _ in try Self.json(["status": "ok"]) }
        router.post("/v1/apps") { request, context in
            let device = try await Self.device(context)
            let install = try await Self.decode(AssociationAPI.InstallRequest.self, request, context)
            let check = verifier.verify(SignedApp(profile: install.profile, codeSignature: install.codeSignature), device: device.udid, at: Date())
            guard let app = check.verified else {
                throw Self.problem(.refusedApp, "the app's signature is not valid", reasons: check.refusals.map(\.description))
            }
            let records = try await center.install(
                device: device.udid,
                platform: install.platform,
                version: install.osVersion,
                appID: app.appID,
                entries: app.entitlements.associatedDomains,
                settings: install.settings ?? .standard,
                developmentSigned: app.entitlements.getTaskAllow
            )
            for record in records {
                context.logger.info(
                    "association",
                    metadata: [
                        "device.udid": "\(device.udid)", "app.id": "\(record.appID)", "entry": "\(record.entry)",
                        "state": "\(record.state.rawValue)", "reason": "\(record.reason)",
                    ]
                )
            }
            return try Self.json(AssociationAPI.InstallResponse(appID: app.appID, associations: records))
        }
        router.delete("/v1/apps/:appID") { _, context in
            let device = try await Self.device(context)
            try center.remove(device: device.udid, appID: try Self.appID(context.parameters.get("appID")))
            return try Self.json(["status": "removed"])
        }
        router.get("/v1/associations") { request, context in
            let device = try await Self.device(context)
            let app = try request.uri.queryParameters.get("app").map { try Self.appID($0) }
            return try Self.json(try center.records(device: device.udid, appID: app))
        }
        router.get("/v1/association") { request, context in
            let query = request.uri.queryParameters
            let udid = try await Self.deviceActedFor(context, named: query.get("device"))
            guard let app = query.get("app"), let host = query.get("host"),
                let service = AssociationService(rawValue: query.get("service") ?? "webcredentials")
            else {
                throw Self.problem(.badRequest, "give app, host and service (webcredentials, applinks, activitycontinuation, appclips)")
            }
            let record = try await center.association(device: udid, appID: try Self.appID(app), service: service, host: host.lowercased())
            return try Self.json(AssociationAPI.Answer(associated: record?.state == .approved, record: record))
        }
        addAdminRoutes(to: router)
    }

    /// An app ID from a request, or a 400 that says what is wrong with it.
    static func appID(_ text: String?) throws -> AppID {
        do {
            return try AppID(text ?? "")
        } catch {
            throw Self.problem(.badRequest, error.message)
        }
    }

    static func device(_ context: DeviceRequestContext) async throws -> DeviceIdentity {
        try await DeviceIdentity.required(context.channel, refusing: AssociationAPI.ProblemCode.self)
    }

    /// The device a question is about: the caller's own, or, for a system service (webcredentiald),
    /// the one it names in `device=UDID`.
    static func deviceActedFor(_ context: DeviceRequestContext, named udid: String?) async throws -> String {
        if let device = await DeviceIdentity.of(context.channel) { return device.udid }
        guard await SystemServiceIdentity.of(context.channel) != nil else {
            throw Self.problem(.notADeviceOrSystemService, "this service answers devices and system services only: present a device certificate")
        }
        guard let udid, !udid.isEmpty else { throw Self.problem(.deviceRequired, "a system service must name the device: device=UDID") }
        return udid
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: DeviceRequestContext) async throws -> T {
        try await RouteSupport.decode(type, request, limit: context.maxUploadSize, refusing: AssociationAPI.ProblemCode.self)
    }

    static func json(_ value: some Encodable) throws -> Response {
        try RouteSupport.json(value, encoder: AssociationAPI.encoder())
    }

    /// A refusal of `code`, answered with the status ``AssociationAPI/ProblemCode`` gives it.
    static func problem(
        _ code: AssociationAPI.ProblemCode,
        _ message: String,
        reasons: [String]? = nil
    ) -> ProblemResponse<AssociationAPI.ProblemCode> {
        ProblemResponse(code, message, reasons: reasons)
    }
}
