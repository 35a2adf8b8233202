import ConsoleService
import Foundation
import Hummingbird
import HummingbirdTesting
import WorldFile
import WorldGraph

/// What these tests serve: the demo world, read from the repository, behind access of known
/// secrets.
enum Fixtures {
    /// The repository's folder.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Tools/worlds/demo.yaml, loaded as the console loads it.
    static func demo() throws -> World {
        try World.load(contentsOf: repository.appending(path: "Tools/worlds/demo.yaml"))
    }

    /// Access whose token is 64 `a`s and whose session is 64 `c`s: `/?token=aaaa…`.
    static let access = ConsoleAccess(token: Array(repeating: 0xAA, count: 32), session: Array(repeating: 0xCC, count: 32), instance: 47)

    /// The token of ``access``, as its URL carries it.
    static let token = String(repeating: "a", count: 64)

    /// The cookie ``access`` sets, as a browser sends it back.
    static let cookie = "\(access.cookieName)=\(String(repeating: "c", count: 64))"

    /// Runs `body` with a client of the console's router serving `world` (the demo's unless
    /// given), requests going straight to the router (HummingbirdTesting's `.router`).
    static func withConsole<T: Sendable>(
        _ world: World? = nil,
        feed: DecisionFeed = DecisionFeed(),
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        let world = try world ?? demo()
        let pages = ConsolePages(WorldGraph(world), devices: world.devices)
        let application = Application(router: ConsoleServer.router(pages: pages, access: access, feed: feed))
        return try await application.test(.router, body)
    }
}
