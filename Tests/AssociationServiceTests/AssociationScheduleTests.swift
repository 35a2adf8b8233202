import AppIdentity
import AssociationAPI
import AssociationService
import Foundation
import SiteAssociation
import Synchronization
import Testing
import WorldTestSupport

/// associationd's schedule, proven with a clock the test moves: a pending site is retried every
/// 3 hours, 8 times, and again when the app asks (spec associations.md b.2). The sites here are
/// scripted (a fake judge): the network path is tested with nginx in Tests/Integration.
@Suite struct AssociationScheduleTests {
    /// Answers from a script, counting the questions.
    final class ScriptedJudge: SiteJudge {
        let verdict = Mutex(SiteReport.Verdict.pending)
        let calls = Mutex(0)

        /// The `direct` flag of each question.
        let directs = Mutex<[Bool]>([])

        func verify(_ entry: AssociatedDomain, appID: AppID, platform: Platform, version: OSVersion, direct: Bool) async -> SiteReport {
            calls.withLock { $0 += 1 }
            directs.withLock { $0.append(direct) }
            let verdict = self.verdict.withLock { $0 }
            let check: Check =
                verdict == .pending ? .fail(.httpStatus, "503") : verdict == .approved ? .pass(.appListed, "ok") : .fail(.appListed, "no")
            return SiteReport(verdict: verdict, url: "https://\(entry.host)/.well-known/apple-app-site-association", checks: [check], services: [:])
        }
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// The time, moved by the test.
    final class TestClock: Sendable {
        let now: Mutex<Date>
        init(_ start: Date) { now = Mutex(start) }
    }

    func withCenter(_ body: (AssociationCenter, ScriptedJudge, TestClock) async throws -> Void) async throws {
        try await withTemporaryDirectory { folder in
            let judge = ScriptedJudge()
            let clock = TestClock(Self.start)
            let center = AssociationCenter(store: try AssociationStore(directory: folder), judge: judge, now: { clock.now.withLock { $0 } })
            try await body(center, judge, clock)
        }
    }

    @Test func aPendingSiteIsRetriedEveryThreeHoursEightTimes() async throws {
        try await withCenter { center, judge, clock in
            let records = try await center.install(
                device: "phone",
                platform: .ios,
                version: OSVersion(17),
                appID: try AppID("D3KQX62K1A.com.example.DemoApp"),
                entries: ["webcredentials:example.com"]
            )
            #expect(records.first?.state == .pending && records.first?.failures == 1)
            #expect(records.first?.nextRetry == Self.start.addingTimeInterval(3 * 3600))

            clock.now.withLock { $0 += 3 * 3600 - 1 }
            #expect(try await center.retryDue().isEmpty, "not yet")
            for retry in 1...8 {
                clock.now.withLock { $0 = Self.start.addingTimeInterval(Double(retry) * 3 * 3600) }
                let retried = try await center.retryDue()
                #expect(retried.count == 1 && retried.first?.failures == retry + 1)
                let expected: Date? = retry < 8 ? clock.now.withLock { $0 }.addingTimeInterval(3 * 3600) : nil
                #expect(retried.first?.nextRetry == expected, "retry \(retry)")
            }
            clock.now.withLock { $0 += 30 * 3600 }
            #expect(try await center.retryDue().isEmpty, "after 8 retries nothing is scheduled")
            #expect(judge.calls.withLock { $0 } == 9)

            // The app makes a shared-credential call: the pending site is fetched again at once.
            judge.verdict.withLock { $0 = .approved }
            let asked = try await center.association(
                device: "phone",
                appID: try AppID("D3KQX62K1A.com.example.DemoApp"),
                service: .webcredentials,
                host: "example.com"
            )
            #expect(asked?.state == .approved && asked?.nextRetry == nil && asked?.failures == 0)
            #expect(judge.calls.withLock { $0 } == 10)
            _ = try await center.association(
                device: "phone",
                appID: try AppID("D3KQX62K1A.com.example.DemoApp"),
                service: .webcredentials,
                host: "example.com"
            )
            #expect(judge.calls.withLock { $0 } == 10, "an approved site is not fetched again")
        }
    }

    @Test func aSiteThatRecoversIsApprovedAtItsRetry() async throws {
        try await withCenter { center, judge, clock in
            _ = try await center.install(
                device: "phone",
                platform: .ios,
                version: OSVersion(17),
                appID: try AppID("D3KQX62K1A.com.example.A"),
                entries: ["webcredentials:example.com"]
            )
            judge.verdict.withLock { $0 = .approved }
            clock.now.withLock { $0 += 3 * 3600 }
            let retried = try await center.retryDue()
            #expect(retried.first?.state == .approved && retried.first?.nextRetry == nil)
            clock.now.withLock { $0 += 3 * 3600 }
            #expect(try await center.retryDue().isEmpty)
        }
    }

    @Test func entriesAreKeptUntilTheAppIsDeleted() async throws {
        try await withCenter { center, judge, _ in
            judge.verdict.withLock { $0 = .approved }
            let records = try await center.install(
                device: "phone",
                platform: .ios,
                version: OSVersion(17),
                appID: try AppID("D3KQX62K1A.com.example.A"),
                entries: ["webcredentials:example.com", "applinks:*.example.com", "applinks:*.shop.example.com", "applinks:https://bad.example"]
            )
            #expect(records.map(\.state) == [.approved, .approved, .approved, .denied])
            #expect(records.last?.reason.contains("scheme or a path") == true)
            let best = try await center.association(
                device: "phone",
                appID: try AppID("D3KQX62K1A.com.example.A"),
                service: .applinks,
                host: "a.shop.example.com"
            )
            #expect(best?.entry == "applinks:*.shop.example.com", "the longest wildcard governs")
            #expect(
                try await center.association(device: "phone", appID: try AppID("D3KQX62K1A.com.example.A"), service: .applinks, host: "example.com")
                    == nil,
                "*. does not cover the domain"
            )
            #expect(try center.records(device: "phone").count == 4)
            try center.remove(device: "phone", appID: try AppID("D3KQX62K1A.com.example.A"))
            #expect(try center.records(device: "phone").isEmpty)
        }
    }
}

/// `?mode=developer` and `?mode=managed` entries: used only where the device's settings allow,
/// and fetched from the site (not the CDN) as the mode says (spec associations.md a.1, b.1).
@Suite struct AlternateModeTests {
    static let entries = [
        "webcredentials:example.com", "webcredentials:dev.example.com?mode=developer", "webcredentials:mdm.example.com?mode=managed",
        "webcredentials:both.example.com?mode=developer+managed",
    ]

    func install(settings: AssociationAPI.DeviceSettings, developmentSigned: Bool = true) async throws -> ([String: AssociationRecord], [Bool]) {
        try await withTemporaryDirectory { folder in
            let judge = AssociationScheduleTests.ScriptedJudge()
            judge.verdict.withLock { $0 = .approved }
            let center = AssociationCenter(store: try AssociationStore(directory: folder), judge: judge)
            let records = try await center.install(
                device: "phone",
                platform: .ios,
                version: OSVersion(17),
                appID: try AppID("D3KQX62K1A.com.example.DemoApp"),
                entries: Self.entries,
                settings: settings,
                developmentSigned: developmentSigned
            )
            return (Dictionary(uniqueKeysWithValues: records.map { ($0.entry, $0) }), judge.directs.withLock { $0 })
        }
    }

    @Test func aDeveloperDeviceUsesDeveloperEntriesDirectlyAndNoManagedOnes() async throws {
        let (records, directs) = try await install(settings: .standard)
        #expect(records["webcredentials:example.com"]?.state == .approved)
        #expect(records["webcredentials:dev.example.com?mode=developer"]?.state == .approved)
        #expect(records["webcredentials:mdm.example.com?mode=managed"]?.state == .denied)
        #expect(records["webcredentials:mdm.example.com?mode=managed"]?.reason.contains("devices an MDM manages") == true)
        #expect(records["webcredentials:both.example.com?mode=developer+managed"]?.state == .denied)
        #expect(directs == [false, true], "the plain entry through the CDN, the developer one from the site")
    }

    @Test func developerEntriesNeedDeveloperModeAndADevelopmentSignedApp() async throws {
        let (off, _) = try await install(settings: AssociationAPI.DeviceSettings(developerMode: false))
        #expect(off["webcredentials:dev.example.com?mode=developer"]?.reason.contains("Developer Mode") == true)
        let (store, _) = try await install(settings: .standard, developmentSigned: false)
        #expect(store["webcredentials:dev.example.com?mode=developer"]?.state == .denied)
        #expect(store["webcredentials:dev.example.com?mode=developer"]?.reason.contains("development-signed") == true)
    }

    @Test func managedEntriesNeedTheMDMsDomain() async throws {
        let settings = AssociationAPI.DeviceSettings(developerMode: true, managedDomains: ["mdm.example.com"], managedDirectDownloads: true)
        let (records, directs) = try await install(settings: settings)
        #expect(records["webcredentials:mdm.example.com?mode=managed"]?.state == .approved)
        #expect(records["webcredentials:both.example.com?mode=developer+managed"]?.reason.contains("has not authorised both.example.com") == true)
        #expect(directs == [false, true, true], "direct downloads: the managed entry skips the CDN")
        let cdn = AssociationAPI.DeviceSettings(developerMode: false, managedDomains: ["mdm.example.com"])
        #expect(try await install(settings: cdn).1 == [false, false], "without direct downloads a managed entry reads the CDN")
    }
}
