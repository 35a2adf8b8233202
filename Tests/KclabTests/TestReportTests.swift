import AppIdentifiers
import AppIdentity
import Decisions
import Foundation
import KeychainAPI
import KeychainItems
import KeychainTypes
import Testing

/// What `kclab test` says of a run: every call of it read from keychaind's audit a page at a time
/// from the run's start, however many, each status explained with the reason keychaind recorded,
/// and never "none refused" when some of the run could not be read.
@Suite struct TestReportTests {
    static let app = "TESTHOST01.com.example.TestHost"
    static let udid = "UDID-IPHONE"

    /// keychaind's audit as its route answers `after=N&limit=M`: entries numbered from 1 in the
    /// order given, of which the first `forgotten` are gone from its memory.
    struct Keychaind {
        var entries: [KeychainDecision]
        var forgotten: Int64 = 0

        init(_ entries: [KeychainDecision], forgotten: Int64 = 0) {
            self.entries = entries.enumerated().map { number, entry in
                var entry = entry
                entry.sequence = Int64(number + 1)
                return entry
            }
            self.forgotten = forgotten
        }

        func page(after: Int64, limit: Int = TestReport.pageSize) -> KeychainAPI.AuditEntries {
            var found: [KeychainDecision] = []
            var index = Int(max(after, forgotten))
            while index < entries.count, found.count < limit {
                if entries[index].device == TestReportTests.udid { found.append(entries[index]) }
                index += 1
            }
            let latest = Int64(entries.count)
            return KeychainAPI.AuditEntries(entries: found, next: max(after, Int64(index)), latest: latest, dropped: max(0, forgotten - after))
        }
    }

    /// A call keychaind answered with `status`, decided by `rule` for `reason`, as it records it.
    static func call(
        _ function: String = "SecItemCopyMatching",
        _ status: SecStatus = .success,
        _ rule: SecItemError.Rule? = nil,
        _ reason: String = "",
        app: String = TestReportTests.app,
        device: String = TestReportTests.udid
    ) -> KeychainDecision {
        let result: SecItemResult = rule.map { .failure(SecItemError(status, $0, reason)) } ?? .success()
        return .call(device: device, caller: .app(try! AppID(app)), platform: .ios, function: function, result: result)
    }

    static let foreignGroup = call(
        "SecItemAdd",
        .missingEntitlement,
        .accessGroup,
        "SecItemAdd: \(app) may not write to access group 'OTHERTEAM1.foreign'"
    )
    static let itemList = call("SecItemCopyMatching", .param, .queryForm, "SecItemCopyMatching: kSecUseItemList is not supported")
    static let noPasscode = call("SecItemAdd", .authFailed, .passcodeRequired, "SecItemAdd: akpu items need a passcode, and the device has none")
    static let locked = call("SecItemCopyMatching", .interactionNotAllowed, .deviceLocked, "SecItemCopyMatching: the device is locked")
    static let notFound = call("SecItemCopyMatching", .itemNotFound, .noMatch, "SecItemCopyMatching: no genp item matches in the caller's groups")

    /// What kclab test reads of `keychaind` from `start` on, and how many pages it asked for.
    static func read(_ keychaind: Keychaind, start: Int64 = 0) async throws -> (audit: RunAudit<SecItemError.Rule>, pages: Int) {
        var audit = RunAudit<SecItemError.Rule>(app: app, start: start)
        var pages = 0
        try await audit.readToEnd { after in
            pages += 1
            return keychaind.page(after: after)
        }
        return (audit, pages)
    }

    @Test func aRunOfElevenThousandCallsReportsTheRefusalsOfItsFirstPage() async throws {
        var calls = Array(repeating: Self.call(), count: 11_000)
        for index in [3, 40, 41, 500, 700] { calls[index] = Self.foreignGroup }
        calls[7] = Self.itemList
        calls[8] = Self.noPasscode
        calls[9] = Self.locked
        calls[10] = Self.notFound
        calls[11] = Self.notFound
        // The device's other apps, and other devices, in between: not the run's calls.
        for index in stride(from: 0, to: 11_000, by: 10) {
            calls.insert(Self.call(app: "TESTHOST01.com.example.Other"), at: index)
            calls.insert(Self.foreignGroup, at: index)
            calls[index].device = "UDID-MAC"
        }
        let (audit, pages) = try await Self.read(Keychaind(calls))
        #expect(audit.calls == 11_000 && audit.isComplete)
        #expect(pages >= 12, "a page at a time: \(pages)")

        let lines = TestReport.lines(audit, device: "iphone", status: 1)
        #expect(lines.first == "kclab test: iphone: 10 of 11000 keychain calls refused (exit status 1):", "\(lines)")
        #expect(lines.contains("  SecItemAdd → errSecMissingEntitlement (-34018), 5 times"), "\(lines)")
        #expect(lines.contains("    why: access-group: SecItemAdd: \(Self.app) may not write to access group 'OTHERTEAM1.foreign'"))
        #expect(lines.contains { $0.hasPrefix("    fix: list the group in the app's keychain-access-groups entitlement") })
        #expect(lines.contains("  SecItemCopyMatching → errSecParam (-50)"))
        #expect(lines.contains("    why: query-form: SecItemCopyMatching: kSecUseItemList is not supported"), "-50 names what it refused")
        #expect(lines.contains("  SecItemAdd → errSecAuthFailed (-25293)"))
        #expect(lines.contains("    fix: set a passcode (kclab device set-passcode), or use an accessibility that needs none"))
        #expect(lines.contains("  SecItemCopyMatching → errSecInteractionNotAllowed (-25308)"))
        #expect(lines.contains("  SecItemCopyMatching → errSecItemNotFound (-25300), 2 times"))
        #expect(!lines.contains { $0.contains("none refused") || $0.contains("unread") })
    }

    @Test func onlyTheAppsCallsAfterTheRunsStartAreCounted() async throws {
        let before = Array(repeating: Self.foreignGroup, count: 100)
        let during = Array(repeating: Self.call(), count: 50) + [Self.call(app: "TESTHOST01.com.example.Other"), Self.call(device: "UDID-MAC")]
        let (audit, _) = try await Self.read(Keychaind(before + during), start: 100)
        #expect(
            TestReport.lines(audit, device: "iphone", status: 0) == [
                "kclab test: iphone: 50 keychain calls, none refused (exit status 0)"
            ]
        )
    }

    @Test func entriesGoneFromKeychaindsMemoryAreNeverReportedAsNoneRefused() async throws {
        let keychaind = Keychaind(Array(repeating: Self.call(), count: 8_000), forgotten: 3_000)
        let (audit, _) = try await Self.read(keychaind)
        #expect(audit.calls == 5_000 && audit.dropped == 3_000 && !audit.isComplete)
        let lines = TestReport.lines(audit, device: "iphone", status: 0)
        #expect(
            lines.first
                == "kclab test: iphone: 5000 keychain calls read, none of them refused, but not every call of the run was read (exit status 0):",
            "\(lines)"
        )
        #expect(lines.contains { $0.hasPrefix("  unread: 3000 audit entries since the run began (of any app) were gone from keychaind's memory") })

        // A refusal among those gone is not counted; one read is.
        var calls = Array(repeating: Self.call(), count: 8_000) + [Self.notFound]
        calls[0] = Self.foreignGroup
        let (some, _) = try await Self.read(Keychaind(calls, forgotten: 3_000))
        let counted = TestReport.lines(some, device: "iphone", status: 0)
        #expect(counted.first?.hasPrefix("kclab test: iphone: 1 of the 5001 keychain calls read refused, but not every call") == true, "\(counted)")
    }

    @Test func aKeychaindThatStartedAgainIsSaid() async throws {
        let (audit, _) = try await Self.read(Keychaind(Array(repeating: Self.call(), count: 20) + [Self.locked]), start: 5_000)
        #expect(audit.restarted && audit.calls == 21)
        let lines = TestReport.lines(audit, device: "mac", status: 0)
        #expect(lines.contains("  unread: keychaind restarted during the run; what it decided before that was not read"), "\(lines)")
        #expect(lines.contains("  SecItemCopyMatching → errSecInteractionNotAllowed (-25308)"))
    }

    @Test func aRefusalBeforeTheKeychainIsExplainedWithoutAFix() async throws {
        let unknown = KeychainDecision(
            time: Date(),
            device: Self.udid,
            app: "com.example.TestHost",
            appID: Self.app,
            call: "SecItemAdd",
            status: nil,
            name: "unknownApp",
            reason: "register the app first: no app TESTHOST01.com.example.TestHost on this device"
        )
        let (audit, _) = try await Self.read(Keychaind([unknown]))
        let lines = TestReport.lines(audit, device: "iphone", status: 0)
        #expect(lines.first == "kclab test: iphone: 1 of 1 keychain calls refused (exit status 0):")
        #expect(lines.contains("  SecItemAdd → unknownApp (refused before the keychain)"), "\(lines)")
        #expect(lines.contains("    why: register the app first: no app TESTHOST01.com.example.TestHost on this device"))
        #expect(!lines.contains { $0.contains("fix:") })
    }

    @Test func kindsPastTheListedOnesAreCounted() async throws {
        let calls = (0..<(RunAudit<SecItemError.Rule>.listedKinds + 50)).map { Self.call("SecItemAdd", .param, .queryForm, "SecItemAdd: key \($0)") }
        let (audit, _) = try await Self.read(Keychaind(calls))
        let listed = RunAudit<SecItemError.Rule>.listedKinds
        #expect(audit.refused == listed + 50 && audit.refusals.count == listed && audit.unlisted == 50)
        #expect(
            TestReport.lines(audit, device: "iphone", status: 0).contains { $0.hasPrefix("  and 50 more refused, of other kinds") }
        )
    }

    @Test func anAnswerThatDoesNotMoveOnEndsTheRead() {
        var audit = RunAudit<SecItemError.Rule>(app: Self.app, start: 10)
        let stuck = audit.take(KeychainAPI.AuditEntries(entries: [], next: 10, latest: 20, dropped: 0))
        #expect(!stuck)
        let moved = audit.take(KeychainAPI.AuditEntries(entries: [Self.call()], next: 11, latest: 20, dropped: 0))
        #expect(moved)
        #expect(audit.position == 11 && audit.calls == 1)
    }
}
