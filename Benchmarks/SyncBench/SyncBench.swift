import ArgumentParser
import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl

/// sync-bench: how long iCloud Keychain takes, through real processes (keychaind, cloudd, one
/// device process each): the time from a write on one device to its visibility on another, with
/// 2 and with 16 devices of one account online, and how fast one device uploads a burst of
/// writes. `make bench` runs it in a release build (docs/benchmarks.md).
@main
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sync-bench", abstract: "Measure iCloud Keychain's sync through cloudd.")

    @Option(parsing: .upToNextOption, help: "How many devices of the account to run, a lab each.")
    var devices: [Int] = [2, 16]

    @Option(help: "Writes timed per lab.")
    var rounds = 50

    @Option(help: "Items written at once for the upload throughput.")
    var burst = 500

    @Option(help: "The state folder.")
    var state = ".bench-sync"

    static let app = "bench.app"

    func run() async throws {
        let folder = URL(fileURLWithPath: state)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        print("| measurement | devices | median ms | p99 ms | per second |")
        print("| --- | --- | --- | --- | --- |")
        for count in devices.sorted() {
            let world = folder.appending(path: "sync-\(count).yaml")
            try Data(Self.world(devices: count).utf8).write(to: world)
            let lab = LabState(root: folder.appending(path: "lab-\(count)"))
            _ = try await Lab.up(world: world, state: lab)
            do {
                let visibility = try await writeToVisibility(lab, devices: count)
                print(Self.row("write on one device → read on another", count, visibility))
                if count == devices.min() {
                    let (seconds, items) = try await uploadBurst(lab)
                    print(
                        String(
                            format: "| upload of %d writes made offline, from going online to the last upload | %d | %.0f (total) | – | %.0f items |",
                            items,
                            count,
                            seconds * 1000,
                            Double(items) / seconds
                        )
                    )
                }
            } catch {
                _ = await Lab.down(state: lab)
                throw error
            }
            _ = await Lab.down(state: lab)
        }
    }

    /// Writes a new value on the first device and reads the last until it shows, `rounds` times.
    private func writeToVisibility(_ lab: LabState, devices: Int) async throws -> [Double] {
        let writer = try DeviceClient(state: lab, device: "device-0")
        let reader = try DeviceClient(state: lab, device: "device-\(devices - 1)")
        try Self.check(writer.send(DeviceRequest(.secItem(.add, query: Self.item("round-0")), app: Self.app)))
        try await Self.waitFor("round-0", on: reader)
        var latencies: [Double] = []
        for round in 1...rounds {
            let value = "round-\(round)"
            let started = ContinuousClock.now
            let update = DeviceRequest(.secItem(.update, query: Self.query, attributesToUpdate: ["v_Data": .data(Data(value.utf8))]), app: Self.app)
            try Self.check(writer.send(update))
            try await Self.waitFor(value, on: reader)
            latencies.append(Self.seconds(ContinuousClock.now - started))
        }
        return latencies
    }

    /// Adds `burst` items on the first device while it is offline, brings it back, and times
    /// until its engines have taken and uploaded every one: seconds and items.
    private func uploadBurst(_ lab: LabState) async throws -> (Double, Int) {
        let writer = try DeviceClient(state: lab, device: "device-0")
        _ = try writer.send(DeviceRequest(.sync(.offline)))
        for index in 0..<burst {
            var item = Self.item("burst-\(index)")
            item["acct"] = .string("burst-\(index)")
            try Self.check(writer.send(DeviceRequest(.secItem(.add, query: item), app: Self.app)))
        }
        let started = ContinuousClock.now
        _ = try writer.send(DeviceRequest(.sync(.online)))
        while true {
            guard let status = try writer.send(DeviceRequest(.sync(.status))).sync else { throw Failure("device-0 gave no sync state") }
            if !status.untakenChanges, status.views.allSatisfy({ $0.outgoing == 0 && !$0.uploading }) { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        return (Self.seconds(ContinuousClock.now - started), burst)
    }

    static func waitFor(_ value: String, on reader: DeviceClient) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        let read = DeviceRequest(.secItem(.copyMatching, query: query.merging(["r_Data": .bool(true)]) { $1 }), app: app)
        while ContinuousClock.now < deadline {
            if case .data(let data)? = try reader.send(read).result, String(decoding: data, as: UTF8.self) == value { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw Failure("\(value) did not reach the reader within 30 s")
    }

    static func check(_ response: DeviceResponse) throws {
        guard response.status == 0 else { throw Failure("a call failed: \(response.name ?? response.error ?? "?") \(response.reason ?? "")") }
    }

    static let query: [String: SecValue] = ["class": .string("genp"), "svce": .string("sync-bench"), "acct": .string("timed"), "sync": .bool(true)]

    static func item(_ value: String) -> [String: SecValue] {
        query.merging(["v_Data": .data(Data(value.utf8))]) { $1 }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func row(_ name: String, _ devices: Int, _ latencies: [Double]) -> String {
        let sorted = latencies.sorted()
        func percentile(_ fraction: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] * 1000 }
        let total = latencies.reduce(0, +)
        return String(
            format: "| %@ | %d | %.1f | %.1f | %.1f writes |",
            name,
            devices,
            percentile(0.5),
            percentile(0.99),
            Double(latencies.count) / total
        )
    }

    static func world(devices: Int) -> String {
        """
        name: sync-bench
        teams: [{id: BENCH00001, name: Bench}]
        apps:
          - {bundleID: bench.app, team: BENCH00001, entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)bench]}}
        devices:
        \((0..<devices).map { "  - {id: device-\($0), osVersion: \"17.4\", iCloudAccount: bench@example.com, apps: [bench.app]}" }.joined(separator: "\n"))
        """
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
