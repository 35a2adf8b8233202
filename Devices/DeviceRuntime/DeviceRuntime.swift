import AppIdentity
import CMSSupport
import DeviceProtocol
import Foundation
import KeychainCallChannel
import KeychainSyncClient
public import Logging
import ServiceSupport
import WorldFile
import WorldLayout

/// The device process: boots, installs its apps, connects to keychaind, and serves its control
/// socket until cancelled.
public enum DeviceRuntime {
    /// Runs the device described by `configuration` until SIGTERM or SIGINT (or the task is
    /// cancelled); its sockets are removed and its connections closed either way.
    public static func run(_ configuration: DeviceConfiguration, logger: Logger) async throws {
        // A ready file left by an earlier run (killed, so it could not clean up) would say the
        // device is ready before it is: health checks and kclab wait for a fresh one.
        try? FileManager.default.removeItem(at: configuration.readyFile)
        let world = try World.load(contentsOf: configuration.worldFile)
        guard var declaration = world.device(configuration.id) else {
            throw DeviceFailure("the world declares no device '\(configuration.id)'")
        }
        // Signed out, or in to another account, since the world started it: its identity is
        // that account's certificate, which the world builder made for each it may use.
        let (worldAccount, allowed) = (declaration.iCloudAccount, declaration.signInAccounts)
        declaration.iCloudAccount = ICloudSignIn.account(deviceState: configuration.state, worldAccount: worldAccount)
        if let account = declaration.iCloudAccount, !allowed.contains(account) {
            throw DeviceFailure("\(declaration.id) is signed in to \(account), which the world does not let it use (iCloudAccounts)")
        }
        let identityFolder = WorldLayout.deviceIdentityFolder(declaration.id, account: declaration.iCloudAccount, worldAccount: worldAccount)
        let layout = WorldLayout(root: configuration.builtWorld)
        let trust = try TrustStore(pem: Data(contentsOf: layout.url(WorldLayout.rootCA)))
        let installer = Installer(
            verifier: BundleVerifier(trust: trust),
            layout: layout,
            destination: configuration.appsFolder,
            deviceID: configuration.id,
            udid: declaration.udid,
            platform: declaration.platform,
            macBuilds: declaration.platform == .macos ? Set(world.apps.filter(\.isMacBuild).map(\.bundleID)) : []
        )
        let (installed, refused) = try installer.install(declaration.apps)
        for (bundleID, reasons) in refused.sorted(by: { $0.key < $1.key }) {
            logger.warning("app refused at install", metadata: ["app.bundle": "\(bundleID)", "app.reasons": "\(reasons)"])
        }
        logger.info("apps installed", metadata: ["device.id": "\(declaration.id)", "apps": "\(installed.map(\.bundleID))"])

        // Every address is known and the call channel's client made before any HTTP client: an
        // HTTP client dropped without being shut down ends the process by a signal.
        let endpoint = try await configuration.keychaind.endpoint(service: "keychaind")
        let associationsURL = try await configuration.associationd?.endpoint(service: "associationd").url
        let webCredentialsURL = try await configuration.webcredentiald?.endpoint(service: "webcredentiald").url
        // iCloud Keychain runs on a device signed in to an account, when the lab runs cloudd.
        var cloudURLs: [String] = []
        if declaration.iCloudAccount != nil {
            for address in configuration.cloudd { cloudURLs.append(try await address.endpoint(service: "cloudd").url) }
        }
        let tls = try TLSIdentities.deviceClient(world: configuration.builtWorld, identityFolder: identityFolder)
        let calls = try endpoint.calls.flatMap(ServiceAddress.hostAndPort).map { try KeychainCallClient(host: $0.host, port: $0.port, tls: tls) }
        let services = Services(
            keychain: ServiceClient(baseURL: endpoint.url, tls: tls),
            calls: calls,
            associations: associationsURL.map { ServiceClient(baseURL: $0, tls: tls) },
            webCredentials: webCredentialsURL.map { ServiceClient(baseURL: $0, tls: tls) },
            // The sync engine retries on its own schedule (and `kclab sync retry` at once).
            cloud: cloudURLs.isEmpty ? nil : ServiceClient(baseURLs: cloudURLs, tls: tls, failFast: true)
        )
        // The HTTP clients are closed whatever ends the device, cancellation included.
        let signedIn = declaration
        let device = CancellableWork {
            try await serve(configuration, signedIn, identityFolder, services, installer, installed, refused, logger)
        }
        try await DaemonLifecycle.run([device], logger: logger, finally: { await services.shutdown() })
    }

    /// The device's connections to the services.
    struct Services {
        let keychain: ServiceClient
        let calls: KeychainCallClient?
        let associations: ServiceClient?
        let webCredentials: ServiceClient?
        let cloud: ServiceClient?

        func shutdown() async {
            await calls?.shutdown()
            await keychain.shutdown()
            await associations?.shutdown()
            await webCredentials?.shutdown()
            await cloud?.shutdown()
        }
    }

    private static func serve(
        _ configuration: DeviceConfiguration,
        _ declaration: WorldFile.Device,
        _ identityFolder: String,
        _ services: Services,
        _ installer: Installer,
        _ installed: [Installer.Installed],
        _ refused: [String: [String]],
        _ logger: Logger
    ) async throws {
        let sync = try services.cloud.map { cloud in
            let key = try Data(
                contentsOf: WorldLayout(root: configuration.builtWorld).url(WorldLayout.iCloudKeychainKey(identityFolder: identityFolder))
            )
            let sealer = try ItemSealer(keyData: key)
            return AccountSync(
                keychain: KeychaindLink(client: services.keychain),
                cloud: CloudClient(client: cloud, sealer: sealer),
                logger: logger,
                stateFile: SyncStateFile(url: configuration.iCloudKeychainState, sealer: sealer)
            )
        }
        let device = Device(
            configuration: configuration,
            declaration: declaration,
            keychain: services.keychain,
            calls: services.calls,
            associations: services.associations,
            webCredentials: services.webCredentials,
            sync: sync,
            installer: installer,
            installed: installed,
            refused: refused,
            logger: logger
        )
        try await connect(device, logger: logger)
        await sync?.start()
        defer { Task { await sync?.stop() } }

        let handler = RequestHandler(device: device, configuration: configuration, logger: logger)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                // Ready only once the control socket accepts connections: kclab waits for this file.
                let ready: @Sendable () async throws -> Void = {
                    let status = await device.status()
                    try JSONEncoder().encode(status).write(to: configuration.readyFile, options: .atomic)
                    logger.info("device ready", metadata: ["device.id": "\(declaration.id)", "socket": "\(configuration.controlSocket.path)"])
                }
                try await SocketServer.serve(
                    path: configuration.controlSocket,
                    logger: logger,
                    listening: ready,
                    refuse: { RequestHandler.encode(.failure($0)) }
                ) { line, send in
                    await handler.control(line, send: send)
                }
            }
        }
    }

    private static func connect(_ device: Device, logger: Logger) async throws {
        var lastError: (any Error)?
        for _ in 0..<100 {
            do {
                try await device.connect()
                return
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        throw DeviceFailure("cannot reach keychaind: \(lastError.map { "\($0)" } ?? "unknown")")
    }
}

/// A device that cannot start.
public struct DeviceFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
