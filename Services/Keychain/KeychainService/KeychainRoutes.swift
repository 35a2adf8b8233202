import AppIdentity
import Foundation
import Hummingbird
import KeychainAPI
import KeychainCallChannel
import KeychainItems
import KeychainTypes
import Logging
import NIOCore
import ServiceSupport

/// keychaind's routes: every one needs a device certificate; SecItem calls also need an app the
/// device registered.
struct KeychainRoutes: Sendable {
    let calls: KeychainCalls
    var apps: AppRegistry { calls.apps }
    var devices: DeviceRegistry { calls.devices }

    func add(to router: Router<DeviceRequestContext>) {
        router.get("/v1/health") { _, _ in
            try Self.json(["status": "ok"])
        }
        router.put("/v1/device") { request, context in
            let device = try await Self.device(context)
            let report = try await Self.decode(KeychainAPI.DeviceReport.self, request, context)
            // The iCloud account decides whose synchronizable items the device sees, so it comes
            // from the device's verified certificate; a report that names another is refused.
            guard report.iCloudAccount == device.iCloudAccount else {
                context.logger.warning(
                    "device report refused: its iCloud account is not its certificate's",
                    metadata: [
                        "device.udid": "\(device.udid)", "device.reported_account": "\(report.iCloudAccount ?? "none")",
                        "device.certified_account": "\(device.iCloudAccount ?? "none")",
                    ]
                )
                throw Self.problem(
                    .accountMismatch,
                    "the device reported iCloud account \(report.iCloudAccount ?? "none"), but its certificate names \(device.iCloudAccount ?? "none")"
                )
            }
            let previous = self.devices.report(for: device.udid)
            self.devices.record(report, device: device.udid)
            if previous?.hasPasscode == true, !report.hasPasscode {
                let removed = try await self.calls.engine.passcodeRemoved(deviceKeychain: KeychainName.device(device.udid).rawValue)
                context.logger.notice(
                    "passcode removed: items protected when-passcode-set deleted",
                    metadata: ["device.udid": "\(device.udid)", "items": "\(removed)"]
                )
            }
            context.logger.info(
                "device reported",
                metadata: ["device.udid": "\(device.udid)", "device.os": "\(report.platform) \(report.osVersion)"]
            )
            return try Self.json(["status": "ok"])
        }
        router.post("/v1/apps") { request, context in
            let device = try await Self.device(context)
            let registration = try await Self.decode(KeychainAPI.AppRegistration.self, request, context)
            let platform = self.devices.report(for: device.udid)?.platform
            let verified = await self.apps.registerInTurn(registration, device: device.udid, platform: platform)
            guard let verified else {
                context.logger.notice("app registration abandoned", metadata: ["device.udid": "\(device.udid)"])
                throw Self.problem(
                    .verificationBudget,
                    "verifying the app's signature took longer than \(AppRegistry.budget), or too many wait: try again"
                )
            }
            switch verified {
            case .success(let entry):
                let state = self.devices.report(for: device.udid).map(KeychainCalls.state) ?? DeviceState(platform: .ios, osVersion: OSVersion(17))
                let client = self.calls.client(entry, device: device.udid, state: state)
                return try Self.json(
                    KeychainAPI.RegisteredApp(
                        app: entry.reference,
                        appID: entry.app.appID,
                        teamID: entry.app.teamID,
                        accessGroups: client.accessGroups
                    )
                )
            case .failure(let failure):
                for refusal in failure.refusals {
                    self.calls.recorder.refused(
                        device: device.udid,
                        app: failure.appID?.rawValue ?? "?",
                        appID: failure.appID,
                        operation: "register",
                        code: refusal.rule.rawValue,
                        reason: refusal.detail
                    )
                }
                context.logger.notice(
                    "app refused",
                    metadata: [
                        "device.udid": "\(device.udid)", "app.id": "\(failure.appID?.rawValue ?? "?")",
                        "app.reasons": "\(failure.refusals.map(\.description))",
                    ]
                )
                throw Self.problem(.refusedApp, "the app's signature is not valid", reasons: failure.refusals.map(\.description))
            }
        }
        router.post("/v1/items/:call") { request, context in
            let device = try await Self.device(context)
            let call = try Self.call(context)
            let body = try await Self.decode(KeychainAPI.CallRequest.self, request, context)
            switch await self.calls.answer(device: device.udid, call: call, body, logger: context.logger) {
            case .success(let answer):
                return try Self.json(answer)
            case .failure(let refusal):
                throw ProblemResponse(problem: refusal.problem)
            }
        }
    }

    /// What a system service may do in a device's keychain: the saved website passwords' group and
    /// the passkeys' group, nothing else (securityd runs its shared-web-credential code with the
    /// first alone; passkeys live in the second).
    func addSystemRoutes(to router: Router<DeviceRequestContext>) {
        router.post("/v1/system/items/:call") { request, context in
            guard let service = await SystemServiceIdentity.of(context.channel) else {
                throw Self.problem(.notASystemService, "only a system service (webcredentiald) may make system calls")
            }
            let call = try Self.call(context)
            let body = try await Self.decode(KeychainAPI.SystemCallRequest.self, request, context)
            guard let report = self.devices.report(for: body.device) else {
                throw Self.problem(.unknownDevice, "device \(body.device) has not reported its state to keychaind")
            }
            let client = ClientContext(
                caller: .system(service.name),
                entitledGroups: [.savedPasswords, .passkeys],
                device: KeychainCalls.state(report),
                deviceKeychain: KeychainName.device(body.device).rawValue
            )
            let result = await self.calls.perform(
                call,
                KeychainAPI.CallRequest(app: service.name, query: body.query, attributesToUpdate: body.attributesToUpdate),
                client: client
            )
            context.logger.info(
                "\(call.function)",
                metadata: [
                    "service": "\(service.name)", "device.udid": "\(body.device)",
                    "keychain.status": "\(result.status.code)", "keychain.reason": "\(result.reason ?? "")",
                ]
            )
            return try Self.json(KeychainAPI.CallResponse(status: result.status, result: result.result, reason: result.reason))
        }
    }

    /// The call named in the path: add, copy-matching, update or delete.
    static func call(_ context: DeviceRequestContext) throws -> SecItemCall {
        let name = context.parameters.get("call") ?? ""
        guard let call = SecItemCall(rawValue: name) else {
            throw Self.problem(.unknownCall, "unknown call '\(name)': use add, copy-matching, update or delete")
        }
        return call
    }

    // MARK: Plumbing

    static func device(_ context: DeviceRequestContext) async throws -> DeviceIdentity {
        try await DeviceIdentity.required(context.channel, refusing: KeychainAPI.ProblemCode.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: DeviceRequestContext) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        if let found = StrictJSON.problem(in: Data(buffer.readableBytesView)) {
            throw problem(.badRequest, found.refusal(of: "the body"))
        }
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw problem(.badRequest, "the body is not a valid \(type): \(RouteSupport.describe(error))")
        } catch {
            throw problem(.badRequest, "the body is not JSON")
        }
    }

    static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A refusal of `code`, answered with the status ``KeychainAPI/ProblemCode`` gives it.
    static func problem(_ code: KeychainAPI.ProblemCode, _ message: String, reasons: [String]? = nil) -> ProblemResponse<KeychainAPI.ProblemCode> {
        ProblemResponse(code, message, reasons: reasons)
    }
}
