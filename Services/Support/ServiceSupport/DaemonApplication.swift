public import Hummingbird
import HummingbirdTLS
public import Logging
public import NIOSSL

extension DaemonConfiguration {
    /// The daemon's HTTPS application on its host and port, with `tls` (nil: plain HTTP, for the
    /// website behind nginx); once it listens it writes its endpoint file (the advertised host,
    /// the port it got, the call channel's address and the metrics URL when it has them). Every
    /// daemon serves its API this one way.
    public func application<Builder: HTTPResponderBuilder>(
        _ service: String,
        router: Builder,
        tls: TLSConfiguration?,
        logger: Logger,
        calls: String? = nil,
        metrics: String? = nil
    ) throws -> some ApplicationProtocol where Builder.Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
        let endpointFile = endpointFile
        let host = advertise ?? self.host
        return Application(
            router: router,
            server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
            configuration: .init(address: .hostname(self.host, port: port), serverName: service, backlog: Self.listenBacklog),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                Endpoint.announce(
                    service: service,
                    host: host,
                    port: port,
                    to: endpointFile,
                    logger: logger,
                    scheme: tls == nil ? "http" : "https",
                    calls: calls,
                    metrics: metrics
                )
            },
            logger: logger
        )
    }
}
