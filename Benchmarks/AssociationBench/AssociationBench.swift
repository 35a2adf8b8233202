import ArgumentParser
import CMSSupport
import Foundation
import NIOSSL
import SiteAssociation
import SiteAssociationFetch
import WebsiteFixture
import WorldBuilder
import WorldFile
import WorldLayout

/// association-bench: validates many domains served by the local nginx, as associationd and
/// `kclab aasa check` do (a fresh TLS connection each, fetches in parallel), beside curl and
/// `openssl smime -verify` on the same files in the same run. `make bench` runs it.
@main
struct AssociationBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "association-bench", abstract: "Measure AASA validation against curl + openssl.")

    @Option(help: "How many domains.")
    var domains = 1_000

    @Option(help: "Fetches in flight at once.")
    var parallel = 16

    @Option(help: "The state folder.")
    var state = ".bench-associations"

    func run() async throws {
        let folder = URL(fileURLWithPath: state)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let hosts = (0..<domains).map { String(format: "d%04d.bench.example", $0) }
        let websites = hosts.enumerated().map { index, host in
            Website(domain: host, aasa: WorldFile.SiteAssociationFile(json: Self.file(size: Self.size(index)), signed: index % 2 == 0))
        }
        let world = World(name: "association-bench", teams: [], apps: [], devices: [], websites: websites)
        let built = folder.appending(path: "world")
        let buildStart = Date()
        _ = try WorldBuilder(world: world, output: built).build()
        print("built \(domains) sites (half signed, 2 KB to 128 KB) in \(String(format: "%.1f", Date().timeIntervalSince(buildStart))) s")
        let layout = WorldLayout(root: built)
        let port = try NginxProcess.freePort()
        let nginx = try NginxProcess(NginxConfiguration(world: world, layout: layout, prefix: folder.appending(path: "nginx"), port: port))
        defer { nginx.stop() }

        let ours = try await measureOurs(hosts, layout: layout, port: port)
        let peer = try await measureCurl(hosts, layout: layout, port: port)
        print("")
        print("| validator | domains | approved | wall s | domains/s | median ms | p99 ms | peak memory |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        print(ours.row)
        print(peer.row)
    }

    struct Result {
        let name: String
        let count: Int
        let approved: Int
        let wall: Double
        let latencies: [Double]
        let memory: String

        var row: String {
            let sorted = latencies.sorted()
            let median = sorted.isEmpty ? .nan : sorted[sorted.count / 2] * 1000
            let p99 = sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000
            return String(
                format: "| %@ | %d | %d | %.2f | %.0f | %.2f | %.2f | %@ |",
                name,
                count,
                approved,
                wall,
                Double(count) / wall,
                median,
                p99,
                memory
            )
        }
    }

    func measureOurs(_ hosts: [String], layout: WorldLayout, port: Int) async throws -> Result {
        let roots = try NIOSSLCertificate.fromPEMFile(layout.url(WorldLayout.webRootCA).path)
        let trust = try TrustStore(pem: Data(contentsOf: layout.url(WorldLayout.webRootCA)))
        let fetcher = SiteFetcher(trustRoots: roots, resolve: Dictionary(uniqueKeysWithValues: hosts.map { ($0, ("127.0.0.1", Optional(port))) }))
        let start = Date()
        let outcomes = await withTaskGroup(of: (Double, Bool).self) { group in
            var results: [(Double, Bool)] = []
            var next = 0
            func add(_ group: inout TaskGroup<(Double, Bool)>) {
                let host = hosts[next]
                next += 1
                group.addTask {
                    let begin = ContinuousClock.now
                    let attempts = await fetcher.fetchFile(SiteFetcher.locations(for: host))
                    let report = SiteEvaluator(host: host, trust: trust, now: Date())
                        .evaluate(attempts, service: .webcredentials, appID: "ABCDE12345.com.bench.app")
                    let elapsed = ContinuousClock.now - begin
                    return (Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds), report.verdict == .approved)
                }
            }
            for _ in 0..<min(parallel, hosts.count) { add(&group) }
            while let result = await group.next() {
                results.append(result)
                if next < hosts.count { add(&group) }
            }
            return results
        }
        let wall = Date().timeIntervalSince(start)
        await fetcher.shutdown()
        return Result(
            name: "KeychainLab (SiteFetcher + SiteEvaluator)",
            count: hosts.count,
            approved: outcomes.filter(\.1).count,
            wall: wall,
            latencies: outcomes.map(\.0),
            memory: Self.peakMemory()
        )
    }

    /// curl fetches each file (a fresh process and connection each); signed files are verified with
    /// `openssl smime -verify`; as many at once as ours.
    func measureCurl(_ hosts: [String], layout: WorldLayout, port: Int) async throws -> Result {
        let ca = layout.url(WorldLayout.webRootCA).path
        let out = URL(fileURLWithPath: state).appending(path: "curl")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let start = Date()
        let outcomes = await withTaskGroup(of: (Double, Bool).self) { group in
            var results: [(Double, Bool)] = []
            var next = 0
            func add(_ group: inout TaskGroup<(Double, Bool)>) {
                let index = next
                let host = hosts[index]
                next += 1
                group.addTask {
                    let begin = Date()
                    let file = out.appending(path: host).path
                    var ok = Self.run(
                        "curl",
                        [
                            "-sf", "--cacert", ca, "--resolve", "\(host):\(port):127.0.0.1", "-o", file,
                            "https://\(host):\(port)/.well-known/apple-app-site-association",
                        ]
                    )
                    if ok, index % 2 == 0 {
                        ok = Self.run(
                            "openssl",
                            ["smime", "-verify", "-inform", "DER", "-in", file, "-CAfile", ca, "-purpose", "any", "-out", "/dev/null"]
                        )
                    }
                    return (Date().timeIntervalSince(begin), ok)
                }
            }
            for _ in 0..<min(parallel, hosts.count) { add(&group) }
            while let result = await group.next() {
                results.append(result)
                if next < hosts.count { add(&group) }
            }
            return results
        }
        return Result(
            name: "curl + openssl smime -verify",
            count: hosts.count,
            approved: outcomes.filter(\.1).count,
            wall: Date().timeIntervalSince(start),
            latencies: outcomes.map(\.0),
            memory: "(separate processes)"
        )
    }

    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// A size between 2 KB and 126 KB (a signed file adds its certificates and must stay within 128 KB).
    static func size(_ index: Int) -> Int {
        2_048 + (index * 7_919) % (126 * 1_024 - 2_048)
    }

    /// A webcredentials file naming the bench app, padded to `size` bytes.
    static func file(size: Int) -> Data {
        let head = #"{"webcredentials":{"apps":["ABCDE12345.com.bench.app"]},"pad":""#
        return Data((head + String(repeating: "x", count: max(0, size - head.utf8.count - 2)) + "\"}").utf8)
    }

    static func peakMemory() -> String {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? "VmHWM: ? kB"
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
        return String(format: "%.1f MiB", kilobytes / 1024)
    }
}
