import AssociationAPI
import Foundation
import KeychainAPI
public import NIOSSL
import ServiceSupport

/// What the console reads of the daemons for a page, through their operator routes with its own
/// operator identity, never their files: keychaind's item metadata (never a value) and
/// associationd's associations. A daemon that is not given or does not answer is an answer too: the
/// page says so.
public struct DaemonReads: Sendable {
    private let keychaind: ServiceClient?
    private let associationd: ServiceClient?

    /// Reads of the daemons at these URLs (nil: not read), with `tls`.
    public init(keychaind: String?, associationd: String?, tls: TLSConfiguration?) {
        self.keychaind = tls.flatMap { tls in keychaind.map { ServiceClient(baseURL: $0, tls: tls) } }
        self.associationd = tls.flatMap { tls in associationd.map { ServiceClient(baseURL: $0, tls: tls) } }
    }

    /// Reads of nothing (a console without daemons, or a test of the pages).
    public static let none = DaemonReads(keychaind: nil, associationd: nil, tls: nil)

    /// A read that could not be made.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The metadata of every item in `keychains` (`device:UDID`, `login:UDID`), values never asked for.
    func items(_ keychains: [String]) async throws -> KeychainAPI.AdminItems {
        guard let keychaind else { throw Unavailable(description: "the console was started without keychaind (--keychaind)") }
        let query = keychains.map { "keychain=\(QueryText.escaped($0))" }.joined(separator: "&")
        return try await keychaind.get("/v1/admin/items?\(query)", as: KeychainAPI.AdminItems.self, decoder: KeychainAPI.AdminItems.decoder())
    }

    /// Every association associationd holds, of `device` (a UDID) when given.
    func associations(device: String?) async throws -> [AssociationRecord] {
        guard let associationd else { throw Unavailable(description: "the console was started without associationd (--associationd)") }
        let query = device.map { "?device=\(QueryText.escaped($0))" } ?? ""
        return try await associationd.get("/v1/admin/associations\(query)", as: [AssociationRecord].self, decoder: AssociationAPI.decoder())
    }

    /// Closes the clients.
    public func shutdown() async {
        await keychaind?.shutdown()
        await associationd?.shutdown()
    }
}
