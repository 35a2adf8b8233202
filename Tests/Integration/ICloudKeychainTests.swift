import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// iCloud Keychain through real processes: each device keeps its own copy in keychaind, its
/// sync engines carry changes through cloudd, and the rules of CKKS show (docs/icloud-keychain.md).
@Suite(.serialized) struct ICloudKeychainTests {
    static let world = """
        name: icloud
        teams:
          - {id: ABCDE12345, name: Example Inc.}
        apps:
          - bundleID: com.example.App
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.shared]
        devices:
          - {id: phone, osVersion: "17.4", passcode: "1234", iCloudAccount: alice@example.com, apps: [com.example.App]}
          - {id: mac, platform: macos, osVersion: "14.5", iCloudAccount: alice@example.com, apps: [com.example.App]}
          - {id: pad, osVersion: "17.4", iCloudAccount: alice@example.com, iCloudAccounts: [bob@example.com], apps: [com.example.App]}
          - {id: other, osVersion: "17.4", iCloudAccount: bob@example.com, apps: [com.example.App]}
        """
    static let app = "com.example.App"

    static func password(_ secret: String, _ extra: [String: SecValue] = [:]) -> [String: SecValue] {
        var item: [String: SecValue] = [
            "class": .string("genp"), "svce": .string("example.com"), "acct": .string("alice"), "sync": .bool(true),
            "v_Data": .data(Data(secret.utf8)),
        ]
        item.merge(extra) { $1 }
        return item
    }

    static let query: [String: SecValue] = [
        "class": .string("genp"), "svce": .string("example.com"), "acct": .string("alice"), "sync": .bool(true), "r_Data": .bool(true),
    ]

    static func secret(_ lab: RunningLab, on device: String) throws -> String? {
        let answer = try lab.call(.copyMatching, on: device, as: app, query)
        guard answer.status == 0, case .data(let data)? = answer.result else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `kclab up --cloudd-replicas 2`: cloudd runs twice over a PostgreSQL server of the lab's
    /// own and the devices take the replicas in turn, so the phone and the Mac sync through
    /// different replicas, and still agree; the server's folder goes with the lab.
    @Test func devicesOnDifferentReplicasConverge() async throws {
        let database = try await withLab(Self.world, clouddReplicas: 2) { (lab: RunningLab) async throws -> String in
            let record = try #require(LabRecord.read(lab.state))
            let postgres = try #require(record.processes.first { $0.name == "postgres" }?.folder, "\(record.processes.map(\.name))")
            #expect(record.processes.contains { $0.name == "cloudd-2" && $0.program?.hasSuffix("/cloudd") == true })
            let arguments = { (device: String) in record.processes.first { $0.name == "device \(device)" }?.arguments ?? [] }
            #expect(arguments("phone").contains(lab.state.clouddEndpoint.path))
            #expect(arguments("mac").contains(lab.state.clouddReplicaEndpoint(2).path))

            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("v1")) == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "mac") == "v1")
            let update: [String: SecValue] = ["v_Data": .data(Data("v2".utf8))]
            #expect(try lab.call(.update, on: "mac", as: Self.app, Self.query.filter { $0.key != "r_Data" }, changes: update).status == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "phone") == "v2", "back through the other replica")
            return postgres
        }
        #expect(!FileManager.default.fileExists(atPath: database), "kclab down removes the lab's PostgreSQL folder")
    }

    @Test func aWriteReachesTheAccountsOtherDevicesOnlyThroughTheCloud() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("v1")) == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "mac") == "v1")
            #expect(try Self.secret(lab, on: "pad") == "v1")
            #expect(try Self.secret(lab, on: "other") == nil, "another account's devices never see it")
            var local = Self.query
            local["sync"] = nil
            #expect(try lab.status(.copyMatching, on: "mac", as: Self.app, local) == -25300, "a query without the sync key reads sync=0 only")

            // Update and delete reach every device too; the delete leaves no item behind.
            #expect(
                try lab.call(.update, on: "mac", as: Self.app, Self.query.filter { $0.key != "r_Data" }, changes: ["v_Data": .data(Data("v2".utf8))])
                    .status == 0
            )
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "phone") == "v2")
            #expect(try lab.status(.delete, on: "mac", as: Self.app, Self.query.filter { $0.key != "r_Data" }) == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "pad") == nil)
            #expect(try Self.secret(lab, on: "phone") == nil)
        }
    }

    /// The issue's story: the iPhone offline, both devices edit one password, the iPhone comes
    /// back and the server's copy wins; a delete then made on the Mac reaches the iPad.
    @Test func offlineEditsLoseToTheServersCopy() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("v1")) == 0)
            try lab.syncWait()
            try lab.sync(.offline, on: "phone")
            let change = Self.query.filter { $0.key != "r_Data" }
            #expect(try lab.call(.update, on: "phone", as: Self.app, change, changes: ["v_Data": .data(Data("phone's".utf8))]).status == 0)
            #expect(try lab.call(.update, on: "mac", as: Self.app, change, changes: ["v_Data": .data(Data("mac's".utf8))]).status == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "pad") == "mac's")
            #expect(try Self.secret(lab, on: "phone") == "phone's", "offline: the phone keeps its own edit")
            let waiting = try lab.sync(.status, on: "phone")
            #expect(waiting.views.first { $0.view == "Applications" }?.outgoing == 1, "the edit waits in the outgoing queue")
            let explain = ["explain", "item", "--device", "phone", "--app", Self.app, #"{"class": "genp", "acct": "alice"}"#]
            let queued = try lab.kclab(explain)
            #expect(queued.stdout.contains("waiting in the Applications outgoing queue (modify): the device is offline"), "\(queued.stdout)")
            #expect(queued.stdout.contains("reads local items only (sync=0): 1 synchronizable item matches"), "\(queued.stdout)")

            try lab.sync(.online, on: "phone")
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "phone") == "mac's", "back online, the server's copy wins")
            let lost = try lab.kclab(explain)
            #expect(lost.stdout.contains("a pending local edit was dropped: the cloud changed or deleted the item first"), "\(lost.stdout)")
            #expect(try Self.secret(lab, on: "mac") == "mac's")

            #expect(try lab.status(.delete, on: "mac", as: Self.app, change) == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "pad") == nil)
        }
    }

    /// Issue 46: offline, a delete and a re-add of the same item leave one modify in the outgoing
    /// queue (the re-add takes the tombstone's UUID), and back online the cloud holds one record.
    @Test func anOfflineDeleteAndReAddLeaveOneModify() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("v1")) == 0)
            try lab.syncWait()
            try lab.sync(.offline, on: "phone")
            #expect(try lab.status(.delete, on: "phone", as: Self.app, Self.query.filter { $0.key != "r_Data" }) == 0)
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("v2")) == 0)
            try lab.syncWait()
            let waiting = try lab.sync(.status, on: "phone")
            #expect(waiting.views.first { $0.view == "Applications" }?.outgoing == 1, "one entry, not a delete and an add")
            let explain = ["explain", "item", "--device", "phone", "--app", Self.app, #"{"class": "genp", "acct": "alice"}"#]
            let queued = try lab.kclab(explain)
            #expect(queued.stdout.contains("waiting in the Applications outgoing queue (modify)"), "\(queued.stdout)")

            try lab.sync(.online, on: "phone")
            try lab.syncWait()
            for device in ["mac", "pad"] {
                #expect(try Self.secret(lab, on: device) == "v2", "\(device) reads the re-added item")
            }
            let listing = try lab.kclab(["cloud", "list", "--account", "alice@example.com", "--view", "Applications", "--json"])
            let zones = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]])
            #expect((zones.first?["records"] as? [Any])?.count == 1, "one record: \(listing.stdout)")
        }
    }

    @Test func offlineEditsOfUntouchedItemsUploadOnReturn() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            try lab.sync(.offline, on: "pad")
            #expect(try lab.status(.add, on: "pad", as: Self.app, Self.password("made offline")) == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "phone") == nil, "nothing left the pad while it was offline")
            try lab.sync(.online, on: "pad")
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "phone") == "made offline")
        }
    }

    /// A device restarted while offline comes back as it was: still offline, its edit still
    /// queued, its change token kept; online again, it fetches from that token and the edit
    /// uploads (before, a restart lost the queue and the cloud's copy won).
    @Test func aRestartedDeviceResumesWithItsQueue() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: "pad", as: Self.app, Self.password("v1")) == 0)
            try lab.syncWait()
            try lab.sync(.offline, on: "pad")
            let change = Self.query.filter { $0.key != "r_Data" }
            #expect(try lab.call(.update, on: "pad", as: Self.app, change, changes: ["v_Data": .data(Data("pad's".utf8))]).status == 0)
            let before = try #require(try lab.sync(.status, on: "pad").views.first { $0.view == "Applications" })
            #expect(before.outgoing == 1)

            _ = try await Lab.restart("pad", state: lab.state)
            let after = try #require(try lab.sync(.status, on: "pad").views.first { $0.view == "Applications" })
            #expect(!after.online, "the device was offline, and still is")
            #expect(after.outgoing == 1, "the edit still waits to upload")
            #expect(after.token == before.token, "it resumes from its saved change token")
            let saved = try Data(contentsOf: lab.state.device("pad").appending(path: "icloud-keychain.sealed"))
            #expect(saved.firstRange(of: Data("pad's".utf8)) == nil, "the saved state holds no secret in the clear")

            try lab.sync(.online, on: "pad")
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "phone") == "pad's", "the edit made before the restart reached the others")
            #expect(try Self.secret(lab, on: "pad") == "pad's")
        }
    }

    /// Signing out keeps the device's copies; signing in to another account fetches that
    /// account's items and uploads what the device kept, as a real device merges them, and the
    /// first account's devices see nothing of the second's. The account is the certificate's:
    /// one the world does not let the device use is refused.
    @Test func signingOutAndInToAnotherAccount() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let bobsQuery = Self.query.merging(["acct": .string("bob")]) { $1 }
            func bobs(on device: String) throws -> String? {
                let answer = try lab.call(.copyMatching, on: device, as: Self.app, bobsQuery)
                guard answer.status == 0, case .data(let data)? = answer.result else { return nil }
                return String(decoding: data, as: UTF8.self)
            }
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("alice's")) == 0)
            #expect(try lab.status(.add, on: "other", as: Self.app, Self.password("bob's", ["acct": .string("bob")])) == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "pad") == "alice's")

            let early = try lab.kclab(["device", "icloud", "sign-in", "bob@example.com", "--device", "pad"])
            #expect(early.status != 0 && early.stderr.contains("sign out first"), "\(early.stderr)")
            let out = try lab.kclab(["device", "icloud", "sign-out", "--keep", "--device", "pad"])
            #expect(out.status == 0 && out.stdout.contains("signed out of alice@example.com"), "\(out.stdout)\(out.stderr)")
            #expect(throws: (any Error).self, "signed out, it syncs nothing") { try lab.sync(.status, on: "pad") }
            #expect(try Self.secret(lab, on: "pad") == "alice's", "its copy is kept")
            let stranger = try lab.kclab(["device", "icloud", "sign-in", "carol@example.com", "--device", "pad"])
            #expect(stranger.status != 0 && stranger.stderr.contains("iCloudAccounts"), "\(stranger.stderr)")

            let signIn = try lab.kclab(["device", "icloud", "sign-in", "bob@example.com", "--device", "pad"])
            #expect(signIn.status == 0, "\(signIn.stderr)")
            #expect(try lab.sync(.status, on: "pad").account == "bob@example.com")
            try lab.syncWait()
            #expect(try bobs(on: "pad") == "bob's", "bob's items reached the pad")
            #expect(try Self.secret(lab, on: "other") == "alice's", "the pad's kept item merged into bob's account")
            #expect(try bobs(on: "phone") == nil, "alice's devices see nothing of bob's")
            let status = try lab.kclab(["sync", "status", "--device", "pad"])
            #expect(status.status == 0, "\(status.stderr)")
        }
    }

    /// Settings › iCloud › Passwords and Keychain off: the device hears nothing and sends
    /// nothing; "Delete from this device" leaves third-party synced items; on again, it catches up.
    @Test func keychainSyncOffStopsTheDeviceAndOnCatchesUp() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("v1")) == 0)
            try lab.syncWait()
            let off = try lab.kclab(["device", "icloud", "keychain-sync", "off", "--delete", "--device", "pad"])
            #expect(off.status == 0, "\(off.stderr)")
            #expect(try Self.secret(lab, on: "pad") == "v1", "a third-party app's synced item stays")
            #expect(try lab.sync(.status, on: "pad").keychainSync == false)
            let status = try lab.kclab(["status"]).stdout
            #expect(status.contains("iCloud Keychain: off (alice@example.com)"), "\(status)")
            #expect(status.contains("iCloud Keychain: on (bob@example.com), online, 0 to upload"), "\(status)")
            let change = Self.query.filter { $0.key != "r_Data" }
            #expect(try lab.call(.update, on: "mac", as: Self.app, change, changes: ["v_Data": .data(Data("v2".utf8))]).status == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "pad") == "v1", "off: the Mac's change does not reach the pad")
            let asked = try lab.kclab(["device", "icloud", "keychain-sync", "off", "--device", "pad"])
            #expect(asked.status == 2 && asked.stderr.contains("--keep or --delete"), "\(asked.stderr)")

            #expect(try lab.kclab(["device", "icloud", "keychain-sync", "on", "--device", "pad"]).status == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "pad") == "v2")
        }
    }

    /// What app teams report, reproduced as a device behaves: a read without the sync key misses
    /// the synced copy (KeychainAccess#492, react-native-keychain#156); "remove all" without it
    /// leaves synced items behind (SwiftKeychainWrapper#179), so the add that follows is
    /// errSecDuplicateItem (OneKeyHQ/app-monorepo#8881).
    @Test func thePainPointsTeamsReport() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("v1")) == 0)
            try lab.syncWait()
            let withoutSync: [String: SecValue] = ["class": .string("genp"), "svce": .string("example.com"), "acct": .string("alice")]
            #expect(try lab.status(.copyMatching, on: "mac", as: Self.app, withoutSync) == -25300, "no sync key: local items only")
            var any = withoutSync
            any["sync"] = .string("syna")
            #expect(try lab.status(.copyMatching, on: "mac", as: Self.app, any) == 0, "kSecAttrSynchronizableAny finds the copy")

            // "Remove all" as many wrappers write it: the class alone.
            #expect(try lab.status(.delete, on: "mac", as: Self.app, ["class": .string("genp")]) == -25300)
            #expect(try lab.status(.add, on: "mac", as: Self.app, Self.password("again")) == -25299, "the synced copy is still there")
            #expect(try lab.status(.delete, on: "mac", as: Self.app, ["class": .string("genp"), "sync": .string("syna")]) == 0)
            #expect(try lab.status(.add, on: "mac", as: Self.app, Self.password("again")) == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "phone") == "again", "the delete and the add both reached the phone")
        }
    }

    /// A failed upload waits 30 minutes (OQEDELAY); the lab's clock skips the wait.
    @Test func aFailedUploadWaitsForItsRetry() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("v1")) == 0)
            try lab.syncWait()
            let endpoint = try JSONSerialization.jsonObject(with: Data(contentsOf: lab.state.clouddEndpoint)) as? [String: Any]
            let pid = try #require(endpoint?["pid"] as? Int)
            kill(pid_t(pid), SIGKILL)
            let change = Self.query.filter { $0.key != "r_Data" }
            #expect(try lab.call(.update, on: "phone", as: Self.app, change, changes: ["v_Data": .data(Data("v2".utf8))]).status == 0)
            var failed = false
            for _ in 0..<200 where !failed {
                failed = try lab.sync(.status, on: "phone").views.contains { $0.retryPending }
                if !failed { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(failed, "the upload failed and waits to be retried")
            _ = try await Lab.restart("cloudd", state: lab.state)
            #expect(try lab.sync(.status, on: "phone").views.contains { $0.retryPending }, "cloudd is back, but the retry waits 30 minutes")
            #expect(try lab.kclab(["sync", "retry", "--device", "phone"]).status == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "mac") == "v2")
        }
    }

    /// Two devices add the same item offline, under two UUIDs: the lower UUID (the earlier add,
    /// UUIDs being time-ordered) wins on every device, and the cloud keeps one record.
    @Test func theSameItemAddedTwiceKeepsTheLowerUUID() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            try lab.sync(.offline, on: "phone")
            try lab.sync(.offline, on: "mac")
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("phone's, first")) == 0)
            #expect(try lab.status(.add, on: "mac", as: Self.app, Self.password("mac's, second")) == 0)
            try lab.sync(.online, on: "mac")
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "pad") == "mac's, second")
            try lab.sync(.online, on: "phone")
            try lab.syncWait()
            for device in ["phone", "mac", "pad"] {
                #expect(try Self.secret(lab, on: device) == "phone's, first", "\(device) keeps the lower UUID's copy")
            }
            let listing = try lab.kclab(["cloud", "list", "--account", "alice@example.com", "--view", "Applications", "--json"])
            let zones = try #require(try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]])
            #expect((zones.first?["records"] as? [Any])?.count == 1, "\(listing.stdout)")
        }
    }

    @Test func thisDeviceOnlyItemsNeverLeave() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let bound = Self.password("bound", ["pdmn": .string("cku")])
            #expect(try lab.status(.add, on: "phone", as: Self.app, bound) == -50, "synchronizable and ThisDeviceOnly: errSecParam")
            #expect(try lab.status(.add, on: "phone", as: Self.app, bound.filter { $0.key != "sync" }) == 0, "a local one is fine")
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.password("free", ["acct": .string("bob")])) == 0)
            try lab.syncWait()
            var bob = Self.query
            bob["acct"] = .string("bob")
            #expect(try lab.status(.copyMatching, on: "mac", as: Self.app, bob) == 0)
            #expect(try Self.secret(lab, on: "mac") == nil, "a ThisDeviceOnly item stays on its device")
            let local = Self.query.filter { $0.key != "sync" && $0.key != "r_Data" }
            #expect(try lab.status(.copyMatching, on: "mac", as: Self.app, local) == -25300)
        }
    }

    @Test func classAItemsWaitForTheUnlock() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            #expect(try lab.kclab(["device", "lock", "--device", "phone"]).status == 0)
            #expect(try lab.status(.add, on: "mac", as: Self.app, Self.password("class A")) == 0)
            // Wait for the Mac's upload and the phone's fetch: the phone then holds the item.
            for _ in 0..<200 {
                let phone = try lab.sync(.status, on: "phone")
                if phone.views.contains(where: { $0.heldWhileLocked > 0 }) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try lab.sync(.status, on: "phone").views.first { $0.view == "Applications" }?.heldWhileLocked == 1)
            #expect(try lab.kclab(["device", "unlock", "--device", "phone"]).status == 0)
            try lab.syncWait()
            #expect(try Self.secret(lab, on: "phone") == "class A")
        }
    }
}
