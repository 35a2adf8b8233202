import CloudZones
import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import PostgresInstance
import Testing

/// The lab's own PostgreSQL servers (`kclab up --cloudd-replicas N --cloudd-shards M`): the
/// accounts spread over them by cloudd's shard map, and `kclab restart postgres-2` restarting one
/// under a running lab without losing what was written.
@Suite(.serialized) struct LabDatabaseTests {
    typealias Story = ICloudKeychainTests

    @Test func twoShardsHoldTheirAccountsAndARestartedShardLosesNothing() async throws {
        try await withLab(Story.world, clouddReplicas: 2, clouddShards: 2) { (lab: RunningLab) async throws in
            let record = try #require(LabRecord.read(lab.state))
            let servers = try ["postgres", "postgres-2"].map { name in
                try #require(record.processes.first { $0.name == name }, "\(record.processes.map(\.name))")
            }
            for replica in ["cloudd", "cloudd-2"] {
                let arguments = record.processes.first { $0.name == replica }?.arguments ?? []
                #expect(arguments.filter { $0 == "--store" }.count == 2, "\(replica) names both shards, in one order")
            }
            #expect(servers.allSatisfy { $0.folder != nil && $0.program == nil }, "a server is recorded by its folder, not a command")

            // Alice's and Bob's devices each write; each account's zones are on the shard the map names.
            #expect(try lab.status(.add, on: "phone", as: Story.app, Story.password("alice-1")) == 0)
            #expect(try lab.status(.add, on: "other", as: Story.app, Story.password("bob-1")) == 0)
            try lab.syncWait()
            #expect(try Story.secret(lab, on: "mac") == "alice-1")
            var accounts: [String] = []
            for (index, server) in servers.enumerated() {
                let database = try PostgresInstance(reopening: URL(fileURLWithPath: try #require(server.folder)))
                let held = try database.sql("SELECT DISTINCT account FROM zones ORDER BY account").split(separator: "\n").map(String.init)
                for account in held {
                    #expect(ShardedZoneStorage.shard(of: account, among: 2) == index, "\(account) on \(server.name)")
                }
                accounts += held
            }
            #expect(accounts.count == 2, "both accounts stored once: \(accounts)")

            // Each server restarts on its port from its folder; the replicas reconnect and sync goes on.
            for server in servers {
                let pid = try await Lab.restart(server.name, state: lab.state)
                #expect(pid != server.pid && LabProcesses.isAlive(pid))
                #expect(LabRecord.read(lab.state)?.processes.first { $0.name == server.name }?.pid == pid)
            }
            #expect(!LabProcesses.isAlive(servers[0].pid))
            let update: [String: SecValue] = ["v_Data": .data(Data("alice-2".utf8))]
            #expect(try lab.call(.update, on: "mac", as: Story.app, Story.query.filter { $0.key != "r_Data" }, changes: update).status == 0)
            try lab.syncWait()
            #expect(try Story.secret(lab, on: "phone") == "alice-2", "through the other replica, after both restarts")
            #expect(try Story.secret(lab, on: "other") == "bob-1", "Bob's item survived its shard's restart")
        }
    }
}
