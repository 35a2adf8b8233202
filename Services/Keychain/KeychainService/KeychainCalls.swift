import AppIdentity
import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainItems
import KeychainTypes
import LabErrors
import Logging
import ServiceSupport

/// A device's SecItem call as keychaind answers it, whichever way it came (`POST /v1/items/{call}`
/// or the call channel): the device must have reported its state, the app must be one the device
/// registered, and the app's access groups come from its verified signature.
struct KeychainCalls: Sendable {
    let engine: KeychainEngine
    /// Wakes a device waiting for its sync changes (by its keychain's name).
    let syncWatch: ChangeWatch<String>
    let apps: AppRegistry
    let devices: DeviceRegistry
    let recorder: KeychainRecorder
    /// The lock of each Mac's login keychain.
    let logins: LoginKeychains

    /// Why a call was not made; the HTTP API answers it with its code's status.
    struct Refusal: Error {
        let problem: KeychainAPI.Problem

        static func unknownDevice(_ udid: String) -> Refusal {
            Refusal(problem: .init(.unknownDevice, "device \(udid) must report its state (PUT /v1/device) first"))
        }

        static func unknownApp(_ reference: String) -> Refusal {
            Refusal(problem: .init(.unknownApp, "this device has not registered app \(reference) (POST /v1/apps)"))
        }
    }

    /// Makes `call` for the app `request.app` of device `udid`, and logs it (never a secret): a
    /// refusal at info, a success at debug.
    func answer(
        device udid: String,
        call: SecItemCall,
        _ request: KeychainAPI.CallRequest,
        logger: Logger
    ) async -> Result<
        KeychainAPI.CallResponse, Refusal
    > {
        let started = ContinuousClock.now
        guard let report = devices.report(for: udid) else { return refused(.unknownDevice(udid), device: udid, call: call, request) }
        guard let entry = apps.lookup(request.app, device: udid) else { return refused(.unknownApp(request.app), device: udid, call: call, request) }
        let client = client(
            entry,
            device: udid,
            state: Self.state(report),
            userApproval: request.userApproval
        )
        let result = await perform(call, request, client: client)
        recorder.call(
            device: udid,
            caller: client.caller,
            platform: client.device.platform,
            function: call.function,
            result: result,
            duration: ContinuousClock.now - started
        )
        // Every refusal is logged with its reason; successful calls only at debug (a lab under
        // load makes thousands a second, and a log line each cost more than the call).
        logger.log(
            level: result.status == .success ? .debug : .info,
            "\(call.function)",
            metadata: [
                "app.id": "\(client.caller)", "device.udid": "\(udid)",
                "keychain.status": "\(result.status.code)", "keychain.reason": "\(result.reason ?? "")",
            ]
        )
        return .success(
            KeychainAPI.CallResponse(status: result.status, result: result.result, reason: result.reason, confirmation: result.confirmation)
        )
    }

    private func refused(
        _ refusal: Refusal,
        device: String,
        call: SecItemCall,
        _ request: KeychainAPI.CallRequest
    ) -> Result<KeychainAPI.CallResponse, Refusal> {
        recorder.refused(
            device: device,
            app: request.app,
            appID: nil,
            operation: call.function,
            code: refusal.problem.error,
            reason: refusal.problem.message
        )
        return .failure(refusal)
    }

    func perform(_ call: SecItemCall, _ body: KeychainAPI.CallRequest, client: ClientContext) async -> SecItemResult {
        if let refusal = body.oversizedData(function: call.function) {
            return .failure(SecItemError(.param, .dataSize, refusal.reason ?? ""))
        }
        switch call {
        case .add: return await engine.add(body.query, client: client)
        case .copyMatching: return await engine.copyMatching(body.query, client: client)
        case .update: return await engine.update(body.query, attributesToUpdate: body.attributesToUpdate ?? [:], client: client)
        case .delete: return await engine.delete(body.query, client: client)
        }
    }

    func client(
        _ entry: AppRegistry.Entry,
        device: String,
        state: DeviceState,
        userApproval: UserApproval? = nil
    ) -> ClientContext {
        ClientContext(
            caller: .app(entry.app.appID),
            entitledGroups: entry.app.accessGroups,
            device: state,
            deviceKeychain: KeychainName.device(device).rawValue,
            isAppClip: entry.app.entitlements.isAppClip,
            isDenied: entry.app.entitlements.isDeniedKeychain,
            mayHoldWildcard: WildcardAccessGroup.isEligible(
                team: entry.app.teamID,
                signingIdentifier: entry.app.codeDirectory.identifier.rawValue,
                on: state.platform
            ),
            claimsApplicationIdentifier: entry.app.claimsApplicationIdentifier,
            fileKeychain: Self.fileKeychain(of: entry.app, device: device, platform: state.platform, logins: logins),
            userApproval: userApproval
        )
    }

    /// A Mac app on a Mac reaches the device's login keychain too; an iOS app on a Mac (and every
    /// app on iOS) has the data-protection keychain only (spec keychain.md §5).
    static func fileKeychain(of app: VerifiedApp, device: String, platform: Platform, logins: LoginKeychains) -> FileKeychainAccess? {
        // Only a Mac app on a Mac has one: nothing else asks for the lock.
        guard platform == .macos, app.builtFor == .macos else { return nil }
        return FileKeychainAccess(
            keychain: FileKeychain.keychain(device: device),
            partition: FileKeychain.partition(of: app.teamID, claimsApplicationIdentifier: app.claimsApplicationIdentifier),
            isLocked: logins.isLocked(device: device)
        )
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
}
