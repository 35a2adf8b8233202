package import DeviceProtocol
import Foundation
import KeychainTypes
import Synchronization

/// The app's connection to its device: the socket the device gave it in `KEYCHAINLAB_SOCKET`,
/// opened on first use and shared by every thread (calls are serialized, as XPC serializes them).
package final class DeviceConnection: Sendable {
    /// The connection of this process.
    package static let shared = DeviceConnection(path: ProcessInfo.processInfo.environment[DeviceEnvironment.socket])

    private let path: String?
    // The open socket; every use holds this Mutex, which also serializes calls.
    private let socket = Mutex<LineSocket?>(nil)

    init(path: String?) {
        self.path = path
    }

    /// Sends one request; a missing or broken connection answers errSecNotAvailable, as a failed
    /// XPC connection to securityd does.
    package func send(_ request: DeviceRequest) -> DeviceResponse {
        guard let path else {
            return .call(
                .notAvailable,
                reason: "this process was not launched by a KeychainLab device (\(DeviceEnvironment.socket) is not set)"
            )
        }
        return socket.withLock { connection in
            for attempt in 0..<2 {
                do {
                    if connection == nil { connection = try LineSocket(path: path) }
                    return try connection!.exchange(request, as: DeviceResponse.self)
                } catch {
                    // The device may have restarted: reconnect once.
                    connection = nil
                    if attempt == 1 {
                        return .call(
                            .notAvailable,
                            reason: "the device cannot be reached: \(error)"
                        )
                    }
                }
            }
            return .failure("unreachable")
        }
    }
}
