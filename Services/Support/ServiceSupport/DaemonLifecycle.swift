public import Logging
public import ServiceLifecycle
public import ServiceMetrics
import UnixSignals

/// How every long-running program of the lab runs (the daemons and the device): its pieces are
/// `Service`s in one `ServiceGroup`, which SIGTERM and SIGINT shut down gracefully, the last
/// service first; `finally` runs once every service has stopped, whatever stopped them (it closes
/// the HTTP clients, which must be shut down before they go).
public enum DaemonLifecycle {
    public static func run(_ services: [any Service], logger: Logger, finally: @Sendable () async -> Void = {}) async throws {
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            await finally()
            throw error
        }
        await finally()
    }

    /// Runs a daemon: its metrics server at `metrics` (none when nil; `refresh` runs before each
    /// scrape), then the services `make` builds knowing the metrics URL. A failure to build them
    /// closes the metrics server and runs `finally` before it is thrown.
    public static func run(
        metrics: MetricsAddress?,
        refresh: @escaping @Sendable () async -> Void = {},
        logger: Logger,
        finally: @Sendable () async -> Void = {},
        services make: (_ metricsURL: String?) async throws -> [any Service]
    ) async throws {
        var server: MetricsServer? = nil
        let services: [any Service]
        do {
            if let metrics { server = try await MetricsServer.start(at: metrics, logger: logger, refresh: refresh) }
            services = try await make(server?.url)
        } catch {
            server?.close()
            await finally()
            throw error
        }
        try await run(services + (server.map { [$0] } ?? []), logger: logger, finally: finally)
    }
}

/// Work repeated every `interval` until graceful shutdown, as associationd's look for due retries.
public struct RepeatingWork: Service {
    private let interval: Duration
    private let work: @Sendable () async -> Void

    public init(every interval: Duration, _ work: @escaping @Sendable () async -> Void) {
        self.interval = interval
        self.work = work
    }

    public func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            // Graceful shutdown cuts the wait short; the work itself is never interrupted.
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: interval) })) != nil else { return }
            await work()
        }
    }
}

/// Work that runs until it is cancelled (a socket server), as a service: graceful shutdown
/// cancels it.
public struct CancellableWork: Service {
    private let work: @Sendable () async throws -> Void

    public init(_ work: @escaping @Sendable () async throws -> Void) {
        self.work = work
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await work() }
        } catch is CancellationError {
            return
        }
    }
}
