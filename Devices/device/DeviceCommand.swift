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
        discussion: "kclab up starts one per device; LOG_LEVEL sets the log level."
    )

    @Option(help: "The world file.")
    var world: String

    @Option(help: "The built world (kclab world build --out).")
    var built: String

    @Option(help: "The device's ID in the world.")
    var id: String

    @Option(help: "The device's state folder.")
    var state: String

    @Option(help: "keychaind's endpoint file.")
    var keychaind: String

    @Option(help: "associationd's endpoint file: installed apps' associated domains are verified there.")
    var associationd: String?

    @Option(help: "webcredentiald's endpoint file: apps' shared-web-credential calls go there.")
    var webcredentiald: String?

    @Option(help: "Where the lab's websites answer (site.json): apps reach them through it.")
    var sites: String?

    func run() async throws {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        let logger = ServiceLogging.bootstrap(label: "device.\(id)")
        let configuration = DeviceConfiguration(
            worldFile: URL(fileURLWithPath: world),
            builtWorld: URL(fileURLWithPath: built),
            id: id,
            state: URL(fileURLWithPath: state),
            keychaindEndpoint: URL(fileURLWithPath: keychaind),
            associationdEndpoint: associationd.map { URL(fileURLWithPath: $0) },
            webcredentialdEndpoint: webcredentiald.map { URL(fileURLWithPath: $0) },
            siteFile: sites.map { URL(fileURLWithPath: $0) }
        )
        let run = Task { try await DeviceRuntime.run(configuration, logger: logger) }
        // SIGTERM and SIGINT end the device cleanly: its sockets are removed.
        let signals = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { run.cancel() }
            source.resume()
            return source
        }
        defer {
            for source in signals { source.cancel() }
        }
        do {
            try await run.value
        } catch is CancellationError {
            logger.info("device stopped")
        }
    }
}
