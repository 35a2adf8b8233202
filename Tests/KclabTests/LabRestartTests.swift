import Foundation
import LabControl
import Testing

/// What `kclab restart` says about a name it cannot start again, before it stops anything.
@Suite struct LabRestartTests {
    /// A lab record holding a fleet's shard (recorded so `kclab down` finds it, with no program)
    /// and a process recorded without its program (an older kclab's lab).
    func labWith(_ processes: [LabRecord.Process]) throws -> LabState {
        let folder = FileManager.default.temporaryDirectory.appending(path: "kclab-restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let state = LabState(root: folder)
        try LabRecord(worldFile: "/nonexistent/world.yaml", processes: processes).write(state)
        return state
    }

    func failure(_ component: String, in state: LabState) async -> String? {
        do {
            _ = try await Lab.restart(component, state: state)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aFleetShardIsNamedAsTheFleetsNotAnOlderLabs() async throws {
        // PIDs no process has: nothing may be signalled, whatever restart does.
        let state = try labWith([
            .init(name: "postgres-shard-0", pid: Int32.max - 1),
            .init(name: "website", pid: Int32.max - 2),
        ])
        defer { try? FileManager.default.removeItem(at: state.root) }
        let shard = try #require(await failure("postgres-shard-0", in: state))
        #expect(shard.contains("fleet's own cloud") && shard.contains("--fault restart-shard"), "\(shard)")
        #expect(!shard.contains("older kclab"), "\(shard)")
        let older = try #require(await failure("website", in: state))
        #expect(older.contains("older kclab"), "\(older)")
        let unknown = try #require(await failure("postgres-shard-9", in: state))
        #expect(unknown.contains("no postgres-shard-9 in this lab"), "\(unknown)")
    }
}
