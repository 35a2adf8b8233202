public import Foundation
import ServiceSupport

/// What a fleet's devices reach: the built world (their device CA and the app they install),
/// cloudd's replicas, and keychaind's HTTPS API and call channel (nil when the lab runs none:
/// the devices then make no SecItem calls, and a plan that asks for some is refused).
public struct FleetServices: Sendable {
    public var world: URL
    public var cloudd: [String]
    public var keychaind: Keychaind?
    /// associationd's URL, nil when the lab runs none (then no association checks).
    public var associationd: String?
    /// webcredentiald's URL, nil when the lab runs none (then no web credential calls).
    public var webcredentiald: String?

    public struct Keychaind: Sendable, Codable, Equatable {
        public var url: String
        public var host: String
        public var port: Int

        /// keychaind at `url`, its call channel at `calls` (`HOST:PORT`, as its endpoint file says).
        public init(url: String, calls: String) throws(FleetPlan.Invalid) {
            guard let address = ServiceAddress.hostAndPort(calls) else {
                throw FleetPlan.Invalid(description: "keychaind's call channel '\(calls.prefix(80))' is not HOST:PORT")
            }
            self.url = url
            (host, port) = address
        }
    }

    public init(world: URL, cloudd: [String], keychaind: Keychaind?, associationd: String? = nil, webcredentiald: String? = nil) {
        self.world = world
        self.cloudd = cloudd
        self.keychaind = keychaind
        self.associationd = associationd
        self.webcredentiald = webcredentiald
    }
}
