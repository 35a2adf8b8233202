import Foundation
import NIOCore
import NIOPosix

/// Latencies of one measured run, and what they add up to.
struct Measurement {
    let name: String
    let clients: Int
    let latencies: [Double]
    let seconds: Double

    var operationsPerSecond: Double { Double(latencies.count) / seconds }

    func percentile(_ fraction: Double) -> Double {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    /// A table row: name, clients, median and p99 in milliseconds, operations per second.
    var row: String {
        String(
            format: "| %@ | %d | %.3f | %.3f | %.0f |",
            name,
            clients,
            percentile(0.5) * 1000,
            percentile(0.99) * 1000,
            operationsPerSecond
        )
    }
}

/// Runs `clients` workers, each on a thread of its own, for `duration`, each calling `operation` in
/// a loop: apps blocking on their sockets. (Not `DispatchQueue.concurrentPerform`: it runs no more
/// iterations at once than there are cores, so 16 "clients" would be 2 here.) The caller awaits
/// the threads without blocking its own, which may be an event loop the workers need.
func measure(
    _ name: String,
    clients: Int,
    duration: Double,
    _ operation: @escaping @Sendable (_ client: Int, _ round: Int) throws -> Void
) async throws -> Measurement {
    let deadline = Date().addingTimeInterval(duration)
    let results = LockedArray()
    let start = Date()
    let finished = DispatchGroup()
    for client in 0..<clients {
        finished.enter()
        let thread = Thread {
            defer { finished.leave() }
            run(client)
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    @Sendable func run(_ client: Int) {
        var round = 0
        var latencies: [Double] = []
        while Date() < deadline {
            let begin = DispatchTime.now().uptimeNanoseconds
            do {
                try operation(client, round)
            } catch {
                results.fail("\(name) client \(client): \(error)")
                return
            }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9)
            round += 1
        }
        results.append(latencies)
    }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        finished.notify(queue: .global()) { done.resume() }
    }
    if let failure = results.failure { throw BenchFailure(failure) }
    return Measurement(name: name, clients: clients, latencies: results.all, seconds: Date().timeIntervalSince(start))
}

/// Runs `clients` workers as tasks for `duration`, each awaiting `operation` in a loop: how a
/// device's apps reach keychaind (tasks on the event loops, no thread parked per call).
func measureTasks(
    _ name: String,
    clients: Int,
    duration: Double,
    _ operation: @escaping @Sendable (_ client: Int, _ round: Int) async throws -> Void
) async throws -> Measurement {
    let deadline = Date().addingTimeInterval(duration)
    let start = Date()
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for client in 0..<clients {
            group.addTask {
                // Each client starts on an event loop of its own turn, as apps' connections are
                // spread over the loops; a task then stays on the loop it runs on.
                try await onEventLoop(MultiThreadedEventLoopGroup.singleton.next()) {
                    var round = 0
                    var latencies: [Double] = []
                    while Date() < deadline {
                        let begin = DispatchTime.now().uptimeNanoseconds
                        do {
                            try await operation(client, round)
                        } catch {
                            throw BenchFailure("\(name) client \(client): \(error)")
                        }
                        latencies.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9)
                        round += 1
                    }
                    return latencies
                }
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
    return Measurement(name: name, clients: clients, latencies: latencies, seconds: Date().timeIntervalSince(start))
}

/// Runs `body` in a task started from `loop`'s thread, which (with NIO as the global executor)
/// puts it on that loop.
func onEventLoop<T: Sendable>(_ loop: any EventLoop, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        loop.execute {
            Task {
                do {
                    continuation.resume(returning: try await body())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}

/// Latencies gathered from many threads. Unchecked: every access holds `lock`.
final class LockedArray: @unchecked Sendable {
    // Every access holds `lock`.
    private let lock = NSLock()
    private var values: [Double] = []
    private(set) var failure: String?

    func append(_ more: [Double]) {
        lock.lock()
        values += more
        lock.unlock()
    }

    func fail(_ message: String) {
        lock.lock()
        if failure == nil { failure = message }
        lock.unlock()
    }

    var all: [Double] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The resident memory of a process, in MiB.
func residentMiB(_ pid: Int32) -> Double {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
        return kilobytes / 1024
    }
    return .nan
}

/// Prints a line at once, so a long run shows its progress even into a file.
func emit(_ line: String) {
    print(line)
    fflush(nil)
}
