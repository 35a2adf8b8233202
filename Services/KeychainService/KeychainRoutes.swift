import AppIdentity
import Foundation
import Hummingbird
import KeychainAPI
import KeychainItems
import KeychainTypes
import Logging
import NIOCore
import ServiceSupport

/// keychaind's routes: every one needs a device certificate; SecItem calls also need an app the
/// device registered.
struct KeychainRoutes: Sendable {
    let engine: KeychainEngine
    let apps: AppRegistry
    let devices: DeviceRegistry
    /// Larger `kSecValueData` is refused with errSecParam.
    static let maximumDataSize = 1 << 20

    func add(to router: Router<DeviceRequestContext>) {
        router.get("/v1/health") { _, _ in
            try Self.json(["status": "ok"])
        }
        router.put("/v1/device") { request, context in
            let device = try await Self.device(context)
            let report = try await Self.decode(KeychainAPI.DeviceReport.self, request, context)
            self.devices.record(report, device: device.udid)
            context.logger.info(
                "device reported",
                metadata: ["device.udid": "\(device.udid)", "device.os": "\(report.platform) \(report.osVersion)"]
            )
            return try Self.json(["status": "ok"])
        }
        router.post("/v1/apps") { request, context in
            let device = try await Self.device(context)
            let registration = try await Self.decode(KeychainAPI.AppRegistration.self, request, context)
            switch self.apps.register(registration, device: device.udid) {
            case .success(let entry):
                let state = self.devices.report(for: device.udid).map(Self.state) ?? DeviceState(platform: .ios, osVersion: OSVersion(17))
                let client = self.client(entry, device: device.udid, state: state, account: nil)
                return try Self.json(
                    KeychainAPI.RegisteredApp(
                        app: entry.reference,
                        appID: entry.app.appID.rawValue,
                        teamID: entry.app.teamID.rawValue,
                        accessGroups: client.accessGroups
                    )
                )
            case .failure(let failure):
                context.logger.notice(
                    "app refused",
                    metadata: [
                        "device.udid": "\(device.udid)", "app.id": "\(failure.appID ?? "?")", "app.reasons": "\(failure.refusals.map(\.description))",
                    ]
                )
                throw Self.problem(.forbidden, "refusedApp", "the app's signature is not valid", reasons: failure.refusals.map(\.description))
            }
        }
        router.post("/v1/items/:call") { request, context in
            let device = try await Self.device(context)
            let call = try Self.call(context)
            let body = try await Self.decode(KeychainAPI.CallRequest.self, request, context)
            guard let report = self.devices.report(for: device.udid) else {
                throw Self.problem(.conflict, "unknownDevice", "the device must report its state (PUT /v1/device) first")
            }
            guard let entry = self.apps.lookup(body.app, device: device.udid) else {
                throw Self.problem(.preconditionFailed, "unknownApp", "this device has not registered app \(body.app) (POST /v1/apps)")
            }
            let client = self.client(entry, device: device.udid, state: Self.state(report), account: report.iCloudAccount)
            let result = await self.perform(call, body, client: client)
            context.logger.info(
                "\(Self.names[call] ?? call)",
                metadata: [
                    "app.id": "\(client.appID)", "device.udid": "\(device.udid)",
                    "keychain.status": "\(result.status.code)", "keychain.reason": "\(result.reason ?? "")",
                ]
            )
            return try Self.json(KeychainAPI.CallResponse(status: result.status, result: result.result, reason: result.reason))
        }
    }

    /// What a system service may do in a device's keychain: the saved website passwords' group,
    /// nothing else (securityd runs its shared-web-credential code with that group alone).
    func addSystemRoutes(to router: Router<DeviceRequestContext>) {
        router.post("/v1/system/items/:call") { request, context in
            guard let service = await SystemServiceIdentity.of(context.channel) else {
                throw Self.problem(.forbidden, "notASystemService", "only a system service (webcredentiald) may make system calls")
            }
            let call = try Self.call(context)
            let body = try await Self.decode(KeychainAPI.SystemCallRequest.self, request, context)
            guard let report = self.devices.report(for: body.device) else {
                throw Self.problem(.conflict, "unknownDevice", "device \(body.device) has not reported its state to keychaind")
            }
            let client = ClientContext(
                appID: service.name,
                entitledGroups: [.savedPasswords],
                device: Self.state(report),
                deviceKeychain: "device:\(body.device)",
                accountKeychain: report.iCloudAccount.map { "icloud:\($0)" }
            )
            let result = await self.perform(
                call,
                KeychainAPI.CallRequest(app: service.name, query: body.query, attributesToUpdate: body.attributesToUpdate),
                client: client
            )
            context.logger.info(
                "\(Self.names[call] ?? call)",
                metadata: [
                    "service": "\(service.name)", "device.udid": "\(body.device)",
                    "keychain.status": "\(result.status.code)", "keychain.reason": "\(result.reason ?? "")",
                ]
            )
            return try Self.json(KeychainAPI.CallResponse(status: result.status, result: result.result, reason: result.reason))
        }
    }

    /// The call named in the path: add, copy-matching, update or delete.
    static func call(_ context: DeviceRequestContext) throws -> String {
        let call = context.parameters.get("call") ?? ""
        guard ["add", "copy-matching", "update", "delete"].contains(call) else {
            throw Self.problem(.notFound, "badRequest", "unknown call '\(call)': use add, copy-matching, update or delete")
        }
        return call
    }

    static func state(_ report: KeychainAPI.DeviceReport) -> DeviceState {
        DeviceState(
            platform: report.platform,
            osVersion: report.osVersion,
            hasPasscode: report.hasPasscode,
            isLocked: report.isLocked,
            unlockedSinceBoot: report.unlockedSinceBoot
        )
    }

    static let names = ["add": "SecItemAdd", "copy-matching": "SecItemCopyMatching", "update": "SecItemUpdate", "delete": "SecItemDelete"]

    private func perform(_ call: String, _ body: KeychainAPI.CallRequest, client: ClientContext) async -> SecItemResult {
        if let oversized = Self.oversizedData(in: body.query) ?? body.attributesToUpdate.flatMap(Self.oversizedData) {
            return .failure(
                SecItemError(.param, "\(Self.names[call] ?? call): \(oversized) bytes of data is more than the 1 MiB a keychain item may hold")
            )
        }
        switch call {
        case "add": return await engine.add(body.query, client: client)
        case "copy-matching": return await engine.copyMatching(body.query, client: client)
        case "update": return await engine.update(body.query, attributesToUpdate: body.attributesToUpdate ?? [:], client: client)
        default: return await engine.delete(body.query, client: client)
        }
    }

    private static func oversizedData(in dictionary: [String: SecValue]) -> Int? {
        guard case .data(let data)? = dictionary["v_Data"], data.count > maximumDataSize else { return nil }
        return data.count
    }

    private func client(_ entry: AppRegistry.Entry, device: String, state: DeviceState, account: String?) -> ClientContext {
        ClientContext(
            appID: entry.app.appID.rawValue,
            entitledGroups: entry.app.accessGroups,
            device: state,
            deviceKeychain: "device:\(device)",
            accountKeychain: account.map { "icloud:\($0)" }
        )
    }

    // MARK: Plumbing

    static func device(_ context: DeviceRequestContext) async throws -> DeviceIdentity {
        guard let device = await DeviceIdentity.of(context.channel) else {
            throw problem(.forbidden, "notADevice", "this service answers devices only: present a device certificate")
        }
        return device
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: DeviceRequestContext) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw problem(.badRequest, "badRequest", "the body is not a valid \(type): \(RouteSupport.describe(error))")
        } catch {
            throw problem(.badRequest, "badRequest", "the body is not JSON")
        }
    }

    static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func problem(_ status: HTTPResponse.Status, _ code: String, _ message: String, reasons: [String]? = nil) -> ProblemResponse {
        ProblemResponse(status: status, problem: KeychainAPI.Problem(error: code, message: message, reasons: reasons))
    }

}

/// An HTTP error whose body is a ``KeychainAPI/Problem``.
struct ProblemResponse: HTTPResponseError {
    let status: HTTPResponse.Status
    let problem: KeychainAPI.Problem

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = (try? JSONEncoder().encode(problem)) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
