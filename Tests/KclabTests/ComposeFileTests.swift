import Foundation
import ServiceSupport
import Testing
import WebsiteFixture
import WorldFile
import WorldLayout
import Yams

/// docker-compose.yml, checked without Docker (CI has no engine): one service per process of the
/// demo world, fixed ports that do not collide, health checks, and addresses by service name.
@Suite struct ComposeFileTests {
    static let daemons = ["keychaind", "cloudd", "associationd", "webcredentiald", "cdn", "website", "nginx"]

    static func compose() throws -> [String: Any] {
        let text = try String(contentsOfFile: "docker-compose.yml", encoding: .utf8)
        return try #require(try Yams.load(yaml: text) as? [String: Any])
    }

    static func services() throws -> [String: [String: Any]] {
        try #require(try compose()["services"] as? [String: [String: Any]])
    }

    static func demoWorld() throws -> World {
        try World.load(contentsOf: URL(fileURLWithPath: "Tools/worlds/demo.yaml"))
    }

    /// A service's command as one string.
    static func command(_ service: [String: Any]) -> String {
        (service["command"] as? [String])?.joined(separator: " ") ?? (service["command"] as? String ?? "")
    }

    @Test func everyDaemonAndDeviceOfTheDemoWorldIsAService() throws {
        let services = try Self.services()
        let devices = try Self.demoWorld().devices.map(\.id)
        for name in Self.daemons + devices + ["world", "kclab"] {
            #expect(services[name] != nil, "docker-compose.yml has no service \(name)")
        }
        #expect(Set(services.keys) == Set(Self.daemons + devices + ["world", "kclab"]), "a service for something the demo world does not run")
        for device in devices {
            let command = Self.command(try #require(services[device]))
            #expect(command.contains("--id=\(device)"))
            // Devices find the services by name and fixed port, never through another container's files.
            #expect(command.contains("--keychaind=https://keychaind:7701") && command.contains("--keychaind-calls=keychaind:7711"))
            #expect(command.contains("--associationd=https://associationd:7702"))
            #expect(command.contains("--webcredentiald=https://webcredentiald:7703"))
        }
    }

    @Test func longRunningServicesHaveHealthChecksAndWaitForTheirDependencies() throws {
        let services = try Self.services()
        let devices = try Self.demoWorld().devices.map(\.id)
        for name in Self.daemons + devices {
            let service = try #require(services[name])
            #expect(service["healthcheck"] != nil, "\(name) has no health check")
            let dependencies = try #require(service["depends_on"] as? [String: [String: String]], "\(name) waits for nothing")
            for (dependency, rule) in dependencies {
                #expect(services[dependency] != nil, "\(name) depends on unknown \(dependency)")
                let expected = dependency == "world" ? "service_completed_successfully" : "service_healthy"
                #expect(rule["condition"] == expected, "\(name) → \(dependency)")
            }
        }
    }

    @Test func fixedPortsDoNotCollide() throws {
        let services = try Self.services()
        var listening: [Int: String] = [:]
        for (name, service) in services {
            for match in Self.command(service).matches(of: /--(?:calls-)?port=(\d+)/) {
                let port = Int(match.output.1)!
                #expect(listening[port] == nil, "\(name) and \(listening[port] ?? "") both listen on \(port)")
                listening[port] = name
            }
        }
        #expect(listening.count >= 7)
        var published: [String: String] = [:]
        var variables: [String: String] = [:]
        for (name, service) in services {
            for mapping in service["ports"] as? [String] ?? [] {
                // Published ports are on the host's loopback only, as everything in the lab, and
                // each host port can be overridden by a variable of its own, defaulting to a
                // fixed port (another program on 8443 must not stop the lab).
                #expect(mapping.hasPrefix("127.0.0.1:"), "\(name) publishes \(mapping) beyond loopback")
                guard let match = mapping.wholeMatch(of: /127\.0\.0\.1:\$\{(KCLAB_[A-Z_]+_PORT):-(\d+)\}:(\d+)/) else {
                    Issue.record("\(name) publishes \(mapping): expected 127.0.0.1:${KCLAB_…_PORT:-PORT}:PORT")
                    continue
                }
                let (variable, hostPort) = (String(match.output.1), String(match.output.2))
                #expect(variables[variable] == nil, "\(name) and \(variables[variable] ?? "") both use \(variable)")
                variables[variable] = name
                #expect(published[hostPort] == nil, "\(name) and \(published[hostPort] ?? "") both publish \(hostPort)")
                published[hostPort] = name
            }
        }
        #expect(published.count == 6, "\(published)")
        // The check of free ports before the image's long build knows every variable and default.
        let preflight = try String(contentsOfFile: "Tools/docker/preflight.sh", encoding: .utf8)
        for (variable, name) in variables {
            let port = published.first { $0.value == name && preflight.contains("\(variable):-\($0.key)") }
            #expect(port != nil, "Tools/docker/preflight.sh does not check \(variable) with its default")
        }
    }

    /// Every host nginx serves for the demo world resolves to it on the lab network, and the
    /// services' certificates name the service hosts the others dial.
    @Test func nginxAnswersForEveryHostAndCertificatesNameTheServices() throws {
        let services = try Self.services()
        let nginx = try #require(services["nginx"])
        let networks = try #require(nginx["networks"] as? [String: [String: [String]]])
        let aliases = Set(try #require(networks["lab"]?["aliases"]))
        let configuration = NginxConfiguration(
            world: try Self.demoWorld(),
            layout: WorldLayout(root: URL(fileURLWithPath: "/lab/world")),
            prefix: URL(fileURLWithPath: "/lab/websites"),
            port: 443
        )
        #expect(aliases == Set(configuration.hosts))
        for service in WorldLayout.services {
            #expect(services[service] != nil, "\(service) has a TLS identity but no compose service")
        }
    }

    @Test func serviceAddressesAreURLsOrEndpointFiles() async throws {
        #expect(ServiceAddress("https://keychaind:7701", calls: "keychaind:7711") == .fixed(url: "https://keychaind:7701", calls: "keychaind:7711"))
        let fixed = try await ServiceAddress("https://associationd:7702").endpoint(service: "associationd")
        #expect(fixed.url == "https://associationd:7702" && fixed.calls == nil)
        let folder = FileManager.default.temporaryDirectory.appending(path: "address-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "endpoint.json")
        #expect(ServiceAddress(file.path) == .endpointFile(file))
        await #expect(throws: ServiceAddressFailure.self) {
            try await ServiceAddress(file.path).endpoint(service: "keychaind", timeout: .milliseconds(200))
        }
        try Endpoint(url: "https://127.0.0.1:9", pid: 1, calls: "127.0.0.1:10").write(to: file)
        let written = try await ServiceAddress(file.path).endpoint(service: "keychaind")
        #expect(written.url == "https://127.0.0.1:9" && written.calls == "127.0.0.1:10")
    }
}
