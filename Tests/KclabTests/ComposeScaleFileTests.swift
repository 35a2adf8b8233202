import Foundation
import Testing
import WorldFile
import WorldLayout
import Yams

/// docker-compose.scale.yml read on top of docker-compose.yml, checked without Docker: every
/// replica has the same shard map, the shards stay on the lab network, and the fleet and the
/// lab's own devices reach replicas that exist.
@Suite struct ComposeScaleFileTests {
    /// The services as docker-compose merges the two files: a service of the scale file replaces
    /// the base's command and adds to its dependencies.
    static func services() throws -> [String: [String: Any]] {
        var services = try ComposeFileTests.services()
        let text = try String(contentsOfFile: "docker-compose.scale.yml", encoding: .utf8)
        let scale = try #require(try Yams.load(yaml: text) as? [String: Any])
        for (name, service) in try #require(scale["services"] as? [String: [String: Any]]) {
            var merged = services[name] ?? [:]
            for (key, value) in service {
                if key == "depends_on", let old = merged[key] as? [String: Any], let new = value as? [String: Any] {
                    merged[key] = old.merging(new) { $1 }
                } else {
                    merged[key] = value
                }
            }
            services[name] = merged
        }
        return services
    }

    /// A service's command, flag by flag.
    static func flags(_ service: [String: Any]) -> [String] {
        service["command"] as? [String] ?? []
    }

    static func replicas(_ services: [String: [String: Any]]) -> [String: [String: Any]] {
        services.filter { flags($0.value).first == "cloudd" }
    }

    /// The names a service answers to on the lab network: its own and its aliases.
    static func names(_ name: String, _ service: [String: Any]) -> Set<String> {
        let networks = service["networks"] as? [String: [String: [String]]]
        return Set([name] + (networks?["lab"]?["aliases"] ?? []))
    }

    /// The replica a host name reaches, if any.
    static func replica(reachedAs host: String, in services: [String: [String: Any]]) -> String? {
        replicas(services).first { names($0.key, $0.value).contains(host) }?.key
    }

    /// Whether cloudd's certificate (WorldLayout.serviceHosts) names `host`, a wildcard covering
    /// one label.
    static func certificateCovers(_ host: String) -> Bool {
        WorldLayout.serviceHosts("cloudd").contains { name in
            name == host || (name.hasPrefix("*.") && host.split(separator: ".", maxSplits: 1).last.map(String.init) == String(name.dropFirst(2)))
        }
    }

    @Test func everyReplicaHasTheSameShardMapOfShardsInTheFile() throws {
        let services = try Self.services()
        let replicas = Self.replicas(services)
        #expect(replicas.count == 3)
        let maps = replicas.mapValues { Self.flags($0).filter { $0.hasPrefix("--store=") } }
        let map = try #require(maps["cloudd"])
        #expect(map.count >= 2, "the replicas name \(map.count) shard")
        for (name, stores) in maps {
            // An account lives on shard FNV-1a(account) mod N: a replica with another list would
            // send it elsewhere.
            #expect(stores == map, "\(name)'s shard map differs from cloudd's")
            // Devices dial the advertised name: the replica answers to it, and the certificate names it.
            let advertised = try #require(Self.flags(services[name]!).first { $0.hasPrefix("--advertise=") }?.dropFirst(12))
            #expect(Self.names(name, services[name]!).contains(String(advertised)), "\(name) advertises \(advertised), not a name of its own")
            #expect(Self.certificateCovers(String(advertised)), "cloudd's certificate does not name \(advertised)")
            let dependencies = try #require(services[name]?["depends_on"] as? [String: Any])
            for store in stores {
                let shard = try #require(store.wholeMatch(of: /--store=postgres:\/\/kclab@([a-z0-9-]+):5432\/postgres/)?.output.1)
                #expect(Self.flags(services[String(shard)] ?? [:]).first == "postgres-shard", "\(store) is not a shard of the file")
                #expect(dependencies[String(shard)] != nil, "\(name) does not wait for \(shard)")
            }
        }
    }

    @Test func shardsStayOnTheLabNetworkWithHealthChecks() throws {
        let services = try Self.services()
        let shards = services.filter { Self.flags($0.value).first == "postgres-shard" }
        #expect(shards.count == 2)
        for (name, shard) in shards {
            #expect(shard["ports"] == nil, "\(name) is published on the host")
            #expect(shard["healthcheck"] != nil, "\(name) has no health check")
        }
        let dockerfile = try String(contentsOfFile: "Dockerfile", encoding: .utf8)
        #expect(dockerfile.contains("postgresql-15") && dockerfile.contains("Tools/docker/postgres-shard.sh /opt/keychainlab/bin/postgres-shard"))
    }

    @Test func theFleetAndAnAccountsDevicesReachSeveralReplicas() throws {
        let services = try Self.services()
        let replicas = Self.replicas(services)
        let fleet = try #require(services["fleet"])
        let hosts = Self.flags(fleet).compactMap { $0.wholeMatch(of: /--replica=https:\/\/([a-z0-9.-]+):7705/)?.output.1 }.map(String.init)
        #expect(hosts.allSatisfy(Self.certificateCovers), "\(hosts)")
        let reached = hosts.compactMap { Self.replica(reachedAs: $0, in: services) }
        #expect(reached.count == hosts.count && Set(reached + ["cloudd"]) == Set(replicas.keys), "the fleet reaches \(hosts) beside cloudd")
        let dependencies = try #require(fleet["depends_on"] as? [String: Any])
        #expect(replicas.keys.allSatisfy { dependencies[$0] != nil })
        // Alice's devices sync through more than one replica, each waiting for its own.
        var aliceReplicas = Set<String>()
        for device in try ComposeFileTests.demoWorld().devices {
            let service = try #require(services[device.id])
            let hostsNamed = Self.flags(service).compactMap { $0.wholeMatch(of: /--cloudd=https:\/\/([a-z0-9.-]+):7705/)?.output.1 }
            let host = String(try #require(hostsNamed.first, "\(device.id) names no cloudd"))
            #expect(Self.certificateCovers(host), "\(device.id) dials \(host), which cloudd's certificate does not name")
            let replica = try #require(Self.replica(reachedAs: host, in: services), "\(device.id) syncs through \(host), no replica")
            #expect((service["depends_on"] as? [String: Any])?[replica] != nil, "\(device.id) does not wait for \(replica)")
            if device.iCloudAccount == "alice@example.com" { aliceReplicas.insert(replica) }
        }
        #expect(aliceReplicas.count >= 2, "alice's devices all use \(aliceReplicas)")
    }
}
