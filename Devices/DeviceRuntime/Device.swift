import AppIdentity
import AssociationAPI
import DeviceProtocol
import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainSyncClient
import KeychainTypes
import Logging
import NIOHTTP1
import ServiceSupport
import SiteAssociation
import WorldFile

/// A running device: its installed apps, its connection to keychaind, and the answers it gives
/// apps and kclab. The device is trusted the way an OS kernel is: it knows which app is calling.
actor Device {
    struct App: Sendable {
        let installed: Installer.Installed
        var reference: String?
        var info: AppInfo
    }

    let configuration: DeviceConfiguration
    let declaration: WorldFile.Device
    let keychain: ServiceClient
    /// keychaind's call channel, which carries the apps' SecItem calls (nil: they go over HTTP).
    let calls: KeychainCallClient?
    /// associationd, which verifies installed apps' associated domains.
    let associations: ServiceClient?
    /// webcredentiald, which brokers shared web credentials.
    let webCredentials: ServiceClient?
    /// iCloud Keychain on this device: nil when it is signed in to no account or the lab runs
    /// no cloudd.
    let sync: AccountSync?
    /// The person answering prompts.
    let user: ScriptedUser
    let installer: Installer
    let logger: Logger
    private var apps: [String: App] = [:]
    private let refused: [String: [String]]
    private var registration: [String: KeychainAPI.AppRegistration] = [:]
    /// Whether the screen is locked; a device starts unlocked.
    private var isLocked = false
    /// Whether the device was unlocked since it (last) started.
    private var unlockedSinceBoot = true
    /// Whether a passcode is set: the world's declaration at start, then `kclab device
    /// set-passcode|remove-passcode`.
    private var hasPasscode: Bool
    /// A Mac's login keychain as keychaind last said: locked or not (`nil` on iOS, or before login).
    var loginKeychainLocked: Bool?

    init(
        configuration: DeviceConfiguration,
        declaration: WorldFile.Device,
        keychain: ServiceClient,
        calls: KeychainCallClient?,
        associations: ServiceClient?,
        webCredentials: ServiceClient?,
        sync: AccountSync? = nil,
        installer: Installer,
        installed: [Installer.Installed],
        refused: [String: [String]],
        logger: Logger
    ) {
        self.configuration = configuration
        self.declaration = declaration
        self.hasPasscode = declaration.passcode != nil
        self.keychain = keychain
        self.calls = calls
        self.associations = associations
        self.webCredentials = webCredentials
        self.sync = sync
        self.user = ScriptedUser(declaration.user, device: declaration.id, log: configuration.promptLog, logger: logger)
        self.installer = installer
        self.logger = logger
        self.refused = refused
        for app in installed {
            (apps[app.bundleID], registration[app.bundleID]) = Self.entry(for: app)
        }
    }

    /// What the device keeps of an installed app, and what it registers with keychaind.
    private static func entry(for app: Installer.Installed) -> (App, KeychainAPI.AppRegistration) {
        let info = AppInfo(
            bundleID: app.bundleID,
            appID: app.verdict.appID.flatMap { try? AppID($0) },
            teamID: app.verdict.teamID.flatMap { try? TeamID($0) },
            accessGroups: app.verdict.accessGroups,
            getTaskAllow: app.getTaskAllow
        )
        let registration = KeychainAPI.AppRegistration(profile: app.bundle.signed.profile, codeSignature: app.bundle.signed.codeSignature)
        return (App(installed: app, reference: nil, info: info), registration)
    }

    /// Installs the later version of an installed app over it, as an App Store update does: the
    /// keychain is left as it is, and the app's access groups are whatever the new signature says.
    func installUpdate(_ bundleID: String) async -> Result<AppInfo, Installer.Refusal> {
        guard apps[bundleID] != nil, let id = try? BundleID(bundleID) else {
            return .failure(Installer.Refusal(reasons: [notInstalled(bundleID)]))
        }
        switch installer.installUpdate(id) {
        case .failure(let refusal):
            logger.warning("update refused", metadata: ["app.bundle": "\(bundleID)", "app.reasons": "\(refusal.reasons)"])
            return .failure(refusal)
        case .success(let installed):
            let info = await adopt(installed)
            logger.info("app updated", metadata: ["app.bundle": "\(bundleID)", "app.id": "\(installed.verdict.appID ?? "")"])
            return .success(info)
        }
    }

    /// Takes a freshly installed bundle in: registered with keychaind, its domains associated.
    func adopt(_ installed: Installer.Installed) async -> AppInfo {
        let bundleID = installed.bundleID
        (apps[bundleID], registration[bundleID]) = Self.entry(for: installed)
        try? await register(bundleID)
        await associate(bundleID)
        return apps[bundleID]?.info ?? Self.entry(for: installed).0.info
    }

    /// Forgets an installed app; returns what it was.
    func removeApp(_ bundleID: String) -> App? {
        registration[bundleID] = nil
        return apps.removeValue(forKey: bundleID)
    }

    /// Reports the device's state to keychaind and registers every installed app.
    func connect() async throws {
        try await report()
        await logIn()
        for bundleID in apps.keys.sorted() {
            try await register(bundleID)
        }
        for bundleID in apps.keys.sorted() {
            await associate(bundleID)
        }
    }

    /// Sends an installed app's signed files to associationd, which verifies its associated
    /// domains (apps without the entitlement are skipped). A failure is logged, not fatal: the
    /// keychain works without associations.
    private func associate(_ bundleID: String) async {
        guard let associations, let app = apps[bundleID], !(app.installed.verdict.entitlements?.associatedDomains ?? []).isEmpty else { return }
        let request = AssociationAPI.InstallRequest(
            platform: declaration.platform,
            osVersion: declaration.osVersion,
            profile: app.installed.bundle.signed.profile,
            codeSignature: app.installed.bundle.signed.codeSignature,
            settings: AssociationAPI.DeviceSettings(
                developerMode: declaration.developerMode,
                managedDomains: declaration.mdm?.domains,
                managedDirectDownloads: declaration.mdm?.directDownloads ?? false
            )
        )
        do {
            let answer = try await associations.send(
                .POST,
                "/v1/apps",
                request,
                as: AssociationAPI.InstallResponse.self,
                decoder: AssociationAPI.decoder()
            )
            for record in answer.associations {
                logger.info(
                    "associated domain",
                    metadata: [
                        "app.bundle": "\(bundleID)", "entry": "\(record.entry)", "state": "\(record.state.rawValue)", "reason": "\(record.reason)",
                    ]
                )
            }
        } catch {
            logger.warning("associationd did not take the app", metadata: ["app.bundle": "\(bundleID)", "error": "\(error)"])
        }
    }

    /// Tells keychaind the device's state, which decides what a locked device may open (spec §3).
    private func report() async throws {
        let report = KeychainAPI.DeviceReport(
            platform: declaration.platform,
            osVersion: declaration.osVersion,
            iCloudAccount: declaration.iCloudAccount,
            hasPasscode: hasPasscode,
            isLocked: isLocked,
            unlockedSinceBoot: unlockedSinceBoot
        )
        _ = try await keychain.send(.PUT, "/v1/device", report, as: [String: String].self)
    }

    /// Whether the device has a passcode to lock with.
    var canLock: Bool { hasPasscode }

    /// Locks or unlocks the screen, or restarts the device (locked, not unlocked since boot). A
    /// device without a passcode has nothing to lock, as on iOS: its items stay available.
    func setLock(_ operation: DeviceRequest.Operation) async throws -> DeviceStatus {
        switch operation {
        case .lock: isLocked = hasPasscode
        case .reboot: (isLocked, unlockedSinceBoot) = (hasPasscode, !hasPasscode)
        // Setting or removing the passcode happens on an unlocked device, as in Settings.
        case .setPasscode: (hasPasscode, isLocked, unlockedSinceBoot) = (true, false, true)
        case .removePasscode: (hasPasscode, isLocked, unlockedSinceBoot) = (false, false, true)
        default: (isLocked, unlockedSinceBoot) = (false, true)
        }
        try await report()
        await sync?.setLocked(isLocked)
        logger.info("device \(operation.rawValue)", metadata: ["device.id": "\(declaration.id)", "device.locked": "\(isLocked)"])
        return status()
    }

    private func register(_ bundleID: String) async throws {
        guard let registration = registration[bundleID] else { return }
        let registered = try await keychain.send(.POST, "/v1/apps", registration, as: KeychainAPI.RegisteredApp.self)
        apps[bundleID]?.reference = registered.app
        apps[bundleID]?.info.accessGroups = registered.accessGroups
    }

    /// The installed app with this bundle ID.
    func app(_ bundleID: String) -> App? {
        apps[bundleID]
    }

    /// What `kclab status` shows.
    func status() -> DeviceStatus {
        DeviceStatus(
            id: declaration.id,
            udid: declaration.udid,
            platform: declaration.platform.rawValue,
            osVersion: declaration.osVersion.description,
            iCloudAccount: declaration.iCloudAccount,
            isLocked: isLocked,
            loginKeychainLocked: loginKeychainLocked,
            keychaind: keychain.baseURL,
            installed: apps.values.map(\.info).sorted { $0.bundleID < $1.bundleID },
            refused: refused
        )
    }

    /// A SecItem call made by `bundleID`.
    func call(
        _ call: SecItemCall,
        as bundleID: String,
        query: [String: SecValue],
        attributesToUpdate: [String: SecValue]?
    ) async -> DeviceResponse {
        guard apps[bundleID] != nil else {
            return .failure(notInstalled(bundleID))
        }
        for attempt in 0..<2 {
            do {
                if apps[bundleID]?.reference == nil { try await register(bundleID) }
                guard let reference = apps[bundleID]?.reference else { break }
                var request = KeychainAPI.CallRequest(app: reference, query: query, attributesToUpdate: attributesToUpdate)
                var answer = try await send(call, request)
                let mayAsk = query["u_AuthUI"]?.string != "u_AuthUIF" && query["u_NoAuthUI"]?.bool != true
                // A locked login keychain: ask for the password, unless the call may not show UI,
                // and make the call again once it is open (Cancel ends it: errSecUserCanceled).
                if mayAsk, case .unlock(let keychainName)? = answer.confirmation {
                    guard await askToUnlock(keychainName, for: bundleID) else {
                        let reason = "the user cancelled unlocking the “\(keychainName)” keychain for \(bundleID)"
                        return .call(status: SecStatus.userCanceled.code, name: SecStatus.userCanceled.name, result: nil, reason: reason)
                    }
                    answer = try await send(call, request)
                }
                // A login-keychain item the app is not trusted with: ask the user, unless the call
                // may not show UI, and make the call again with the answer (Deny ends it here).
                if mayAsk, case .allowUse(let item, let needsPassword)? = answer.confirmation {
                    guard let approval = await askToUse(item, as: bundleID, withPassword: needsPassword) else {
                        let reason = "the user denied \(bundleID) the use of “\(item)” in the login keychain"
                        return .call(status: SecStatus.authFailed.code, name: SecStatus.authFailed.name, result: nil, reason: reason)
                    }
                    request.userApproval = approval
                    answer = try await send(call, request)
                }
                return .call(status: answer.status, name: answer.name, result: answer.result, reason: answer.reason)
            } catch let refusal as KeychainRefusal where refusal.code == .unknownApp || refusal.code == .unknownDevice {
                // keychaind restarted and forgot this device's apps: register again, once.
                apps[bundleID]?.reference = nil
                if attempt == 0, refusal.code == .unknownDevice { try? await connect() }
                continue
            } catch let refusal as KeychainRefusal where refusal.code == .badRequest {
                // keychaind could not read the call (a value nested too deep, say): the caller's
                // parameters, not keychaind's availability.
                return .call(.param, reason: refusal.message)
            } catch let tooLong as KeychainCallClient.CallTooLong {
                return .call(.param, reason: tooLong.description)
            } catch {
                logger.warning("keychaind is unreachable", metadata: ["error": "\(error)"])
                break
            }
        }
        return .call(.notAvailable, reason: "keychaind cannot be reached")
    }
}

extension Device {
    /// Why `bundleID` cannot be used on this device: refused at install, with the reasons, or not
    /// installed, naming the apps that are.
    func notInstalled(_ bundleID: String) -> String {
        if let reasons = refused[bundleID] {
            return "\(bundleID) was refused at install on \(declaration.id): \(reasons.joined(separator: "; "))"
        }
        let installed = apps.keys.sorted()
        return "\(bundleID) is not installed on \(declaration.id); installed: \(installed.isEmpty ? "none" : installed.joined(separator: ", "))"
    }
}
