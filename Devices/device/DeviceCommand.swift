import ArgumentParser
import DeviceRuntime
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceSupport

/// device: one fake Apple device of a KeychainLab world.
@main
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Run one device of a KeychainLab world: install its apps, serve them, talk to keychaind.",
        discussion: """
            kclab up starts one per device, naming the services by their endpoint files; the compose lab \
            names them by URL. DEVICE_KEYCHAIND, DEVICE_KEYCHAIND_CALLS, DEVICE_ASSOCIATIOND and \
            DEVICE_WEBCREDENTIALD set the same as the flags; LOG_LEVEL sets the log level.
            """
    )

    @Option(help: "The world file.")
    var world: String

    @Option(help: "The built world (kclab world build --out).")
    var built: String

    @Option(help: "The device's ID in the world.")
    var id: String

    @Option(help: "The device's state folder.")
    var state: String

    @Option(help: "keychaind: its base URL (https://HOST:PORT) or the endpoint file it writes.")
    var keychaind = ProcessInfo.processInfo.environment["DEVICE_KEYCHAIND"] ?? ""

    @Option(help: "keychaind's call channel, HOST:PORT, when --keychaind is a URL.")
    var keychaindCalls = ProcessInfo.processInfo.environment["DEVICE_KEYCHAIND_CALLS"] ?? ""

    @Option(help: "associationd (URL or endpoint file): installed apps' associated domains are verified there.")
    var associationd = ProcessInfo.processInfo.environment["DEVICE_ASSOCIATIOND"] ?? ""

    @Option(help: "webcredentiald (URL or endpoint file): apps' shared-web-credential calls go there.")
    var webcredentiald = ProcessInfo.processInfo.environment["DEVICE_WEBCREDENTIALD"] ?? ""

    @Option(
        help: """
            cloudd (URL or endpoint file): a device signed in to iCloud syncs its keychain there. Give it \
            once per replica: the device moves to the next when one fails (DEVICE_CLOUDD: space-separated).
            """
    )
    var cloudd: [String] = (ProcessInfo.processInfo.environment["DEVICE_CLOUDD"] ?? "").split(separator: " ").map(String.init)

    func validate() throws {
        guard !keychaind.isEmpty else { throw ValidationError("--keychaind (or DEVICE_KEYCHAIND) is required") }
    }

    @Option(help: "Where the lab's websites answer (site.json): apps reach them through it.")
    var sites: String?

    func run() async throws {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        FileModes.restrictToOwner()
        let logger = ServiceLogging.bootstrap(label: "device.\(id)")
        let configuration = DeviceConfiguration(
            worldFile: URL(fileURLWithPath: world),
            builtWorld: URL(fileURLWithPath: built),
            id: id,
            state: URL(fileURLWithPath: state),
            keychaind: ServiceAddress(keychaind, calls: keychaindCalls.isEmpty ? nil : keychaindCalls),
            associationd: associationd.isEmpty ? nil : ServiceAddress(associationd),
            webcredentiald: webcredentiald.isEmpty ? nil : ServiceAddress(webcredentiald),
            cloudd: cloudd.map { ServiceAddress($0) },
            siteFile: sites.map { URL(fileURLWithPath: $0) }
        )
        // SIGTERM and SIGINT end the device cleanly: its sockets are removed.
        try await DeviceRuntime.run(configuration, logger: logger)
        logger.info("device stopped")
    }
}
