import AsyncHTTPClient
import NIOCore
import NIOPosix
import NIOSSL

/// How a call to one replica of a service failed below HTTP, which says whether another replica
/// may be tried (``ServiceClient`` with several base URLs).
enum TransportFailure: Equatable {
    /// No connection was made: the request never left, so any replica may take it.
    case notDelivered
    /// The connection broke or timed out after the request may have been sent: only a request
    /// that may be repeated (a read) is tried again elsewhere.
    case broken

    /// The failure `error` is, or nil for an answer (a non-2xx status, a body that did not
    /// decode) or a cancellation: another replica would not change those.
    init?(_ error: any Error) {
        switch error {
        case is CancellationError, is ServiceClient.Failure, is DecodingError:
            return nil
        case is NIOConnectionError:
            self = .notDelivered
        case let error as IOError where [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ECONNABORTED].contains(error.errnoCode):
            self = .notDelivered
        case let error as HTTPClientError where error == .connectTimeout || error == .getConnectionFromPoolTimeout:
            // No connection was had: the request never left.
            self = .notDelivered
        case let error as ChannelError where Self.isConnectTimeout(error):
            self = .notDelivered
        case let error as NIOSSLError where Self.isHandshake(error):
            // The TLS handshake comes before any byte of the request.
            self = .notDelivered
        case is HTTPClientError, is IOError, is ChannelError, is NIOSSLError:
            self = .broken
        default:
            return nil
        }
    }

    private static func isHandshake(_ error: NIOSSLError) -> Bool {
        if case .handshakeFailed = error { return true }
        return false
    }

    private static func isConnectTimeout(_ error: ChannelError) -> Bool {
        if case .connectTimeout = error { return true }
        return false
    }
}
