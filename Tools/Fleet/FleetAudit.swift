import Foundation
import KeychainSync
import KeychainSyncClient

/// After a run, reads every account's zone from the start (through one of its devices, whichever
/// replica that device uses now) and counts the acknowledged writes cloudd no longer has: the
/// figure a fault run must keep at zero.
enum FleetAudit {
    /// Acknowledged writes found and missing, and accounts whose zone could not be read.
    static func run(acknowledged: [Int: [UUID]], devices: [FleetDevice]) async -> FleetReport.Audit {
        let readers = Dictionary(devices.map { ($0.account, $0) }, uniquingKeysWith: { first, _ in first })
        var audit = FleetReport.Audit(acknowledged: acknowledged.values.reduce(0) { $0 + $1.count }, lost: 0, unreadableAccounts: 0)
        await withTaskGroup(of: (lost: Int, readable: Bool).self) { group in
            var accounts = acknowledged.makeIterator()
            func next() {
                guard let (account, uuids) = accounts.next(), let reader = readers[account] else { return }
                group.addTask { await Self.missing(uuids, reader: reader) }
            }
            // A few accounts at a time: the audit must not be a load test of its own.
            for _ in 0..<8 { next() }
            for await result in group {
                audit.lost += result.lost
                if !result.readable { audit.unreadableAccounts += 1 }
                next()
            }
        }
        return audit
    }

    /// How many of `uuids` the zone lacks, read through `reader`; not readable after 5 tries a
    /// second or more apart (a shard may still be coming back).
    private static func missing(_ uuids: [UUID], reader: FleetDevice) async -> (lost: Int, readable: Bool) {
        for attempt in 0..<5 {
            if attempt > 0 { try? await Task.sleep(for: .seconds(attempt)) }
            var present = Set<UUID>()
            var token: String? = nil
            do {
                while true {
                    switch try await reader.cloud.changes(view: reader.view, since: token) {
                    case .changes(let changes, let next, let moreComing):
                        for case .saved(let item) in changes { present.insert(item.uuid) }
                        token = next
                        if !moreComing { return (uuids.filter { !present.contains($0) }.count, true) }
                    case .tokenExpired:
                        token = nil
                        present = []
                    }
                }
            } catch {
                continue
            }
        }
        return (0, false)
    }
}
