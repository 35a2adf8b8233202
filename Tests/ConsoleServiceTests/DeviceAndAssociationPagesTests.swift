import AppIdentity
import AssociationAPI
import ConsoleService
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KeychainAPI
import NIOCore
import Testing
import WorldFile

/// The Devices, Device and Associations pages: what the world says of each device, its items by
/// group as keychaind lists them (metadata only), associations with counts by state, and a clear
/// line where a daemon could not be read.
@Suite struct DeviceAndAssociationPagesTests {
    static func get(_ uri: String) async throws -> (HTTPResponse.Status, String) {
        try await Fixtures.withConsole { client in
            let response = try await client.execute(uri: uri, method: .get, headers: [.cookie: Fixtures.cookie])
            return (response.status, String(buffer: response.body))
        }
    }

    @Test func theDevicesPageLinksEveryDeviceOfTheWorld() async throws {
        let world = try Fixtures.demo()
        let (status, html) = try await Self.get("/devices")
        #expect(status == .ok)
        for device in world.devices {
            #expect(html.contains(#"<a href="/devices/\#(device.id)">\#(device.id)</a>"#), "\(device.id)")
        }
        #expect(html.contains(#"<a href="/devices" aria-current="page">Devices</a>"#))
    }

    @Test func aDevicePageSaysWhyItHasNoItemsWithoutKeychaind() async throws {
        let (status, html) = try await Self.get("/devices/iphone-alice")
        #expect(status == .ok)
        #expect(html.contains("<h1>Device iphone-alice</h1>") && html.contains("iOS 17.4") && html.contains("<code>com.example.AppOne</code>"))
        #expect(html.contains("keychaind did not answer: the console was started without keychaind (--keychaind)"), "\(html)")
        #expect(try await Self.get("/devices/nonesuch").0 == .notFound)
    }

    @Test func aDevicesItemsAreGroupedByKeychainAndGroupWithoutValues() throws {
        let device = try #require(try Fixtures.demo().devices.first { $0.platform == .macos })
        func item(_ keychain: String, _ group: String, _ service: String, sync: Bool = false) -> KeychainAPI.AdminItem {
            .init(
                keychain: keychain,
                itemClass: "genp",
                group: group,
                account: "alice",
                service: service,
                server: nil,
                label: nil,
                synchronizable: sync,
                protection: "ak",
                created: Date(timeIntervalSince1970: 1_796_000_000),
                modified: nil,
                data: nil
            )
        }
        let items = KeychainAPI.AdminItems(
            items: [
                item("device:\(device.udid)", "ABCDE12345.shared", "b"), item("device:\(device.udid)", "ABCDE12345.shared", "a", sync: true),
                item("login:\(device.udid)", "com.example.MacApp", "login-item"),
            ],
            counts: [:]
        )
        let page = DevicePage(world: "demo", device: device, items: .success(items))
        #expect(page.groups.map(\.keychain) == ["data protection", "login"], "the data-protection keychain, then the login keychain")
        #expect(page.groups.first?.items.map(\.what) == ["a / alice", "b / alice"] && page.groups.first?.items.first?.sync == "synchronizable")
        #expect(page.summary == "3 items in 2 groups." && !page.hasFailure)
    }

    static func record(_ device: String, _ entry: String, state: String, retry: String? = nil) throws -> AssociationRecord {
        let json = """
            {"appID":"ABCDE12345.com.example.AppOne","checks":[{"detail":"the file names the app","result":"\(state == "approved" ? "pass" : "fail")","rule":"app-listed"}],
             "device":"\(device)","entry":"\(entry)","era":17,"failures":\(retry == nil ? 0 : 2),"lastChecked":"2026-12-08T01:00:00Z",
             \(retry.map { #""nextRetry":"\#($0)","# } ?? "")"osVersion":"17.4","platform":"ios","reason":"app-listed: the file names the app",
             "service":"webcredentials","state":"\(state)","throughCDN":true,"url":"https://app-site-association.cdn-apple.com/a/v1/example.com"}
            """
        return try AssociationAPI.decoder().decode(AssociationRecord.self, from: Data(json.utf8))
    }

    @Test func associationsAreCountedByStateAndFiltered() throws {
        let alice = "00008030-001A2B3C4D5E802E"
        let records = [
            try Self.record(alice, "webcredentials:example.com", state: "approved"),
            try Self.record(alice, "webcredentials:bad.example.com", state: "pending", retry: "2026-12-08T02:00:00Z"),
            try Self.record("OTHER", "webcredentials:example.com", state: "denied"),
        ]
        let names = [alice: "iphone-alice"]
        let page = AssociationsPage(world: "demo", records: .success(records), names: names, filter: ("", ""))
        #expect(page.summary == "3 associations: 1 approved, 1 denied, 1 pending.", "\(page.summary)")
        #expect(page.rows.first?.device == "OTHER" && page.rows.last?.device == "iphone-alice")
        let pending = try #require(page.rows.first { $0.state == "pending" })
        #expect(
            pending.retry == "retrying at 2026-12-08T02:00:00Z (2 failed)" && pending.source == "the CDN" && pending.checks.first?.result == "fail"
        )
        let approved = AssociationsPage(world: "demo", records: .success(records), names: names, filter: ("", "approved"))
        #expect(approved.rows.map(\.state) == ["approved"] && approved.states.first { $0.selected }?.name == "approved")
    }

    @Test func anAssociationsPageSaysWhyAssociationdWasNotRead() async throws {
        let (status, html) = try await Self.get("/associations?state=denied")
        #expect(status == .ok)
        #expect(html.contains("associationd did not answer: the console was started without associationd (--associationd)"), "\(html)")
        #expect(html.contains("<option selected>denied</option>"))
    }
}
