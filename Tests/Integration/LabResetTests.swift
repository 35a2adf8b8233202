import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// `kclab reset` between test cases, through real processes: twenty short cases on one lab, each
/// adding a synchronizable item with the same primary key on the iPhone (a new UUID each time),
/// reading it on the Mac, then resetting. Each case gives the answers the first gave on the fresh
/// lab, the reset's own included; with the old reset (items only) the second case already meets
/// the first's record in cloudd. `--keep-cloud` keeps the zones and the devices' state.
@Suite(.serialized) struct LabResetTests {
    static let world = """
        name: reset
        teams:
          - {id: ABCDE12345, name: Example Inc.}
        apps:
          - bundleID: com.example.App
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.shared]
        devices:
          - {id: phone, osVersion: "17.4", iCloudAccount: alice@example.com, apps: [com.example.App]}
          - {id: mac, platform: macos, osVersion: "14.5", iCloudAccount: alice@example.com, iCloudAccounts: [bob@example.com], apps: [com.example.App]}
        """
    static let app = "com.example.App"
    static let cases = 20

    /// One primary key for every case (class, service, account, sync); the secret says the case.
    static func item(_ secret: String) -> [String: SecValue] {
        [
            "class": .string("genp"), "svce": .string("reset.example.com"), "acct": .string("alice"), "sync": .bool(true),
            "v_Data": .data(Data(secret.utf8)),
        ]
    }

    /// Every synced item with that key's service and account, with its secret.
    static let query: [String: SecValue] = [
        "class": .string("genp"), "svce": .string("reset.example.com"), "acct": .string("alice"), "sync": .bool(true),
        "m_Limit": .string("m_LimitAll"), "r_Data": .bool(true),
    ]

    /// What one case sees, this case's secret written `SECRET`, so that every case's answers
    /// compare with the first's.
    struct Answers: Equatable {
        /// SecItemAdd's status on the iPhone.
        var added: Int32?
        /// The secrets each device reads once the account has converged.
        var phone: [String]
        var mac: [String]
        /// Whether a device was left paused after the reset.
        var paused: [Bool?]
        /// What kclab reset printed, and its exit status.
        var reset: [String]
        var resetStatus: Int32
    }

    static func secrets(_ lab: RunningLab, on device: String, case secret: String) throws -> [String] {
        let answer = try lab.call(.copyMatching, on: device, as: app, query)
        let values: [SecValue] =
            switch answer.result {
            case .array(let values)?: values
            case let value?: [value]
            case nil: []
            }
        return values.compactMap(\.data).map { String(decoding: $0, as: UTF8.self) }.map { $0 == secret ? "SECRET" : $0 }.sorted()
    }

    /// Adds the item on the iPhone, waits until the account has converged, reads both devices,
    /// then resets the lab.
    static func play(_ number: Int, on lab: RunningLab) throws -> Answers {
        let secret = "case \(number): \(UUID().uuidString)"
        let added = try lab.status(.add, on: "phone", as: app, item(secret))
        try lab.syncWait()
        let (phone, mac) = (try secrets(lab, on: "phone", case: secret), try secrets(lab, on: "mac", case: secret))
        let reset = try lab.kclab(["reset"])
        let paused = try ["phone", "mac"].map { try lab.sync(.status, on: $0).paused }
        let lines = reset.stdout.split(separator: "\n").map(String.init) + reset.stderr.split(separator: "\n").map { "stderr: \($0)" }
        return Answers(added: added, phone: phone, mac: mac, paused: paused, reset: lines, resetStatus: reset.status)
    }

    @Test func twentyCasesWithAResetBetweenEachAnswerAsOnAFreshLab() async throws {
        try await withLab(Self.world) { (lab: RunningLab) async throws in
            let first = try Self.play(1, on: lab)
            #expect(first.added == 0 && first.phone == ["SECRET"] && first.mac == ["SECRET"], "\(first)")
            #expect(first.paused == [nil, nil], "no device is left paused")
            #expect(first.resetStatus == 0, "\(first.reset)")
            #expect(
                first.reset == [
                    "removed 2 items",
                    "removed 1 cloud record and 1 change from 1 of 8 zones of 2 accounts (alice@example.com, bob@example.com)",
                    "reset the iCloud Keychain of 2 devices (mac, phone): forgot 2 mirrored records, 0 queued changes, 0 held until unlock, 8 change tokens",
                ],
                "the iPhone's item and the Mac's copy; the record in alice's zone; each device's mirror and a token for each view"
            )
            for number in 2...Self.cases {
                let answers = try Self.play(number, on: lab)
                #expect(answers == first, "case \(number) answered otherwise than the first, on the fresh lab")
                if answers != first { break }
            }

            // --keep-cloud removes the items alone: the record stays in cloudd, and the devices'
            // engines still mirror it. The whole reset then takes them.
            #expect(try lab.status(.add, on: "phone", as: Self.app, Self.item("kept")) == 0)
            try lab.syncWait()
            let kept = try lab.kclab(["reset", "--keep-cloud"])
            #expect(kept.status == 0 && kept.stdout == "removed 2 items\n", "\(kept.stdout)\(kept.stderr)")
            let listed = try lab.kclab(["cloud", "list", "--account", "alice@example.com", "--json"])
            let zones = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stderr)")
            #expect(zones.reduce(0) { $0 + (($1["records"] as? [Any])?.count ?? 0) } == 1, "\(listed.stdout)")
            let whole = try lab.kclab(["reset"])
            #expect(
                whole.status == 0 && whole.stdout.contains("removed 0 items\nremoved 1 cloud record and 1 change from 1 of 8 zones"),
                "\(whole.stdout)\(whole.stderr)"
            )
            #expect(whole.stdout.contains("forgot 2 mirrored records"), "\(whole.stdout)")

            // A change queued on an offline Mac is forgotten, not uploaded once the Mac is back
            // online: the reset brings it online afresh, and the account stays empty.
            try lab.sync(.offline, on: "mac")
            #expect(try lab.status(.add, on: "mac", as: Self.app, Self.item("queued while offline")) == 0)
            var queued = 0
            for _ in 0..<100 where queued == 0 {
                try await Task.sleep(for: .milliseconds(50))
                queued = try lab.sync(.status, on: "mac").views.reduce(0) { $0 + $1.outgoing }
            }
            #expect(queued == 1, "the Mac took the change and queued it")
            let offline = try lab.kclab(["reset"])
            #expect(
                offline.stdout.contains("removed 1 items\n") && offline.stdout.contains(", 1 queued change,"),
                "\(offline.stdout)\(offline.stderr)"
            )
            let mac = try lab.sync(.status, on: "mac")
            #expect(mac.views.allSatisfy { $0.online && $0.outgoing == 0 }, "\(mac.views)")
            try lab.syncWait()
            #expect(try Self.secrets(lab, on: "phone", case: "").isEmpty && Self.secrets(lab, on: "mac", case: "").isEmpty)
            let empty = try lab.kclab(["cloud", "list", "--account", "alice@example.com"])
            #expect(!empty.stdout.contains(" 1 record"), "\(empty.stdout)")
        }
    }
}
