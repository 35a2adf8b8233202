import ArgumentParser
import DeviceProtocol
import Foundation
import LabControl
import ServiceSupport
import WorldFile

/// The options of the commands that read a running lab as its operator: the state folder, the
/// world (default: the one kclab up recorded) and keychaind's URL (default: its endpoint file).
struct LabOptions: ParsableArguments {
    @Option(help: "The state folder of kclab up.")
    var state = "state"

    @Option(help: "The world file (default: the one kclab up recorded; the compose lab records none).")
    var world: String?

    @Option(help: "keychaind's URL (default: from the lab's endpoint file).")
    var keychaind: String?

    @Option(help: "associationd's URL (default: from the lab's endpoint file).")
    var associationd: String?

    @Option(help: "cloudd's URL (default: from the lab's endpoint file).")
    var cloudd: String?

    var lab: LabState { LabState(root: URL(fileURLWithPath: state)) }

    /// The lab's world, each device signed in to the iCloud account it is signed in to now.
    func load() throws -> World {
        guard let file = lab.worldFile(given: world) else { throw LabFailure("nothing was started in \(state); run kclab up") }
        return lab.signedIn(try World.load(contentsOf: file))
    }

    /// The daemons whose admin routes kclab calls.
    enum Daemon: String {
        case keychaind, associationd, cloudd
    }

    /// Runs `body` with a client of `daemon` holding kclab's administrator certificate, and shuts
    /// the client down whatever `body` does.
    func withAdministrator<T>(of daemon: Daemon = .keychaind, _ body: (ServiceClient) async throws -> T) async throws -> T {
        let (given, endpoint) =
            switch daemon {
            case .keychaind: (keychaind, lab.keychaindEndpoint)
            case .associationd: (associationd, lab.associationdEndpoint)
            case .cloudd: (cloudd, lab.clouddEndpoint)
            }
        guard let url = given ?? SiteRecord.endpointURL(endpoint) else {
            throw LabFailure("\(daemon.rawValue) is not running in \(state); start the lab with kclab up")
        }
        let client = ServiceClient(baseURL: url, tls: try TLSIdentities.administratorClient(world: lab.builtWorld))
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }
}
