import AppIdentity
import Foundation
import KeychainItems
import KeychainStore
import KeychainTypes

/// keychaind's engine and store alone, in this process: what a call costs before any transport.
enum EngineBench {
    /// - Parameter pause: microseconds slept before each measured engine call: back-to-back calls
    ///   find the core's caches warm, calls that arrive one by one (one client) do not.
    static func run(items: Int, duration: Double, folder: URL, pause: Int, wanted: (String) -> Bool) async throws -> [Measurement] {
        let store = try SQLiteItemStore(directory: folder.appending(path: "engine"))
        let engine = KeychainEngine(store: store)
        let client = ClientContext(
            caller: .app(try AppID("BENCH00001.bench.app0")),
            entitledGroups: [try AccessGroup("BENCH00001.bench"), try AccessGroup("BENCH00001.bench.app0")],
            device: DeviceState(platform: .ios, osVersion: OSVersion(17, 4), hasPasscode: false),
            deviceKeychain: "device:bench"
        )
        for index in 0..<items {
            _ = await engine.add(KeychainBench.item(index), client: client)
        }
        var results: [Measurement] = []
        var hops: [Double] = []
        var queries: [Double] = []
        for round in 0..<(wanted("store read") ? 2000 : 0) {
            var begin = DispatchTime.now().uptimeNanoseconds
            _ = try await store.read { _ in 0 }
            hops.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9)
            let filter = ItemFilter(
                keychains: ["device:bench"],
                itemClass: .genericPassword,
                accessGroups: ["BENCH00001.bench", "BENCH00001.bench.app0"],
                synchronizable: false,
                attributes: ["svce": .string("bench"), "acct": .string("user-\((round * 7919) % items)")],
                limit: 1,
                loadData: true
            )
            begin = DispatchTime.now().uptimeNanoseconds
            let found = try await store.read { try $0.items(matching: filter) }
            guard found.count == 1 else { throw BenchFailure("store lookup found \(found.count)") }
            queries.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9)
        }
        if !hops.isEmpty {
            results.append(Measurement(name: "store read, empty body", clients: 1, latencies: hops, seconds: hops.reduce(0, +)))
            results.append(Measurement(name: "store read, one lookup", clients: 1, latencies: queries, seconds: queries.reduce(0, +)))
        }
        for (name, call) in [("engine CopyMatching", true), ("engine Add (durable)", false)] where wanted(name) {
            var latencies: [Double] = []
            let start = Date()
            var round = 0
            while Date().timeIntervalSince(start) < duration {
                if pause > 0 { usleep(UInt32(pause)) }
                let begin = DispatchTime.now().uptimeNanoseconds
                let result =
                    call
                    ? await engine.copyMatching(KeychainBench.lookup((round * 7919) % items), client: client)
                    : await engine.add(KeychainBench.item(items + round), client: client)
                guard result.status == .success else { throw BenchFailure("\(name): \(result.status)") }
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9)
                round += 1
            }
            let label = pause > 0 ? "\(name), \(pause) µs pause before each" : name
            results.append(Measurement(name: label, clients: 1, latencies: latencies, seconds: Date().timeIntervalSince(start)))
        }
        return results
    }
}
