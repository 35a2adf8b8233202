public import DeviceProtocol
public import Foundation
import WebsiteFixture
import WorldFile
import WorldLayout

/// Where `kclab up` serves a world's websites: nginx on one loopback port, every host by SNI.
extension SiteRecord {
    public static func read(_ state: LabState) -> SiteRecord? {
        (try? Data(contentsOf: state.siteFile)).flatMap { try? JSONDecoder().decode(SiteRecord.self, from: $0) }
    }

    /// The `url` of an endpoint file, if it is there.
    public static func endpointURL(_ file: URL) -> String? {
        (try? Data(contentsOf: file)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["url"] as? String
    }

    /// `--resolve HOST=ADDR:PORT` for each host, as the CDN and associationd take them.
    public var resolveArguments: [String] {
        hosts.flatMap { ["--resolve", "\($0)=\(address):\(port)"] }
    }

    /// `HOST=ADDR:PORT` for each host, as `kclab aasa check --resolve` takes them.
    public var resolutions: [String: (address: String, port: Int?)] {
        Dictionary(uniqueKeysWithValues: hosts.map { ($0, (address, Optional(port))) })
    }
}

extension Lab {
    /// Starts nginx for the world's websites; nil when the world has none. Without nginx
    /// installed the websites are skipped with a warning, so the keychain still comes up.
    static func startWebsites(_ world: World, state: LabState, loginService: String?) throws -> (pid: Int32, record: SiteRecord, arguments: [String])?
    {
        guard !world.websites.isEmpty else { return nil }
        guard FileManager.default.isExecutableFile(atPath: NginxProcess.executable.path) else {
            FileHandle.standardError.write(
                Data("warning: nginx is not installed; the world's websites are not served (apt-get install nginx)\n".utf8)
            )
            return nil
        }
        let configuration = NginxConfiguration(
            world: world,
            layout: WorldLayout(root: state.builtWorld),
            prefix: state.websites,
            port: try NginxProcess.freePort(),
            loginService: loginService
        )
        let arguments = try configuration.write()
        let pid = try LabProcesses.start(at: NginxProcess.executable, arguments, log: state.log("nginx"))
        let record = SiteRecord(address: configuration.address, port: configuration.port, hosts: configuration.hosts)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(record).write(to: state.siteFile, options: .atomic)
        return (pid, record, arguments)
    }

    /// Waits until nginx accepts connections (10 seconds at most).
    static func waitForWebsites(_ record: SiteRecord, pid: Int32, state: LabState) async throws {
        for _ in 0..<200 {
            guard LabProcesses.isAlive(pid) else {
                throw LabFailure("nginx exited at start:\n\(LabProcesses.tail(state.websites.appending(path: "error.log")))")
            }
            if NginxProcess.accepts(record.address, record.port) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LabFailure("nginx did not listen on \(record.address):\(record.port)")
    }
}
