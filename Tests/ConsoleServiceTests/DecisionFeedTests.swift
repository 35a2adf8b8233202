import ConsoleService
import Decisions
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KeychainTypes
import NIOCore
import Testing

/// The Decisions page and `/events`: the feed keeps the last 1,000 decisions with the console's
/// own numbers, a reader that reconnects with `Last-Event-ID` gets what came after, filters narrow
/// both, and every value is escaped.
@Suite struct DecisionFeedTests {
    static let alice = "00008030-001A2B3C4D5E802E"

    /// A decision of `app` on `device`: a success, or refused with `status` by `rule`.
    static func decision(
        _ call: String = "SecItemAdd",
        app: String = "com.example.AppOne",
        device: String = alice,
        status: SecStatus = .success,
        rule: String? = nil,
        reason: String? = nil
    ) -> Decision<RuleName> {
        Decision(
            time: Date(timeIntervalSince1970: 1_796_000_000),
            device: device,
            app: app,
            appID: "ABCDE12345.\(app)",
            call: call,
            status: status,
            name: status.name,
            rule: rule.map { RuleName(rawValue: $0) },
            reason: reason,
            fix: rule.map { _ in "list the group in keychain-access-groups" }
        )
    }

    @Test func theFeedKeepsTheLatestThousandInOrder() async {
        let feed = DecisionFeed()
        await feed.append((1...1_250).map { Self.decision("call-\($0)") })
        let (count, latest) = (await feed.count, await feed.latest)
        #expect(count == 1_000 && latest == 1_250)
        let all = await feed.events(after: 0)
        #expect(all.map(\.id) == Array(251...1_250), "the oldest 250 are gone, the rest oldest first")
        #expect(all.first?.decision.call == "call-251" && all.last?.decision.call == "call-1250")
        #expect(await feed.events(after: 1_200).map(\.id) == Array(1_201...1_250))
        #expect(await feed.events(after: 1_250).isEmpty)
        // A browser that read an earlier console (its id is beyond the latest) gets everything kept.
        #expect(await feed.events(after: 9_999).count == 1_000)
        #expect(await feed.newest(limit: 3).map(\.id) == [1_250, 1_249, 1_248])
        await feed.append([], missed: 7)
        #expect(await feed.missed == 7)
    }

    @Test func filtersNarrowByDeviceAppAndStatus() async {
        let feed = DecisionFeed()
        await feed.append([
            Self.decision(),
            Self.decision("SecItemCopyMatching", app: "com.other.Thief", status: .missingEntitlement, rule: "access-group"),
            Self.decision("SecItemCopyMatching", device: "OTHER", status: .itemNotFound),
        ])
        let ids = { (filter: DecisionFilter) in await feed.events(after: 0, matching: filter).map(\.id) }
        #expect(await ids(DecisionFilter(device: Self.alice)) == [1, 2])
        #expect(await ids(DecisionFilter(app: "com.other.Thief")) == [2])
        #expect(await ids(DecisionFilter(app: "ABCDE12345.com.other.Thief")) == [2], "the application identifier names the app too")
        #expect(await ids(DecisionFilter(status: "refused")) == [2, 3])
        #expect(await ids(DecisionFilter(status: "-34018")) == [2])
        #expect(await ids(DecisionFilter(status: "errSecItemNotFound")) == [3])
        #expect(await ids(DecisionFilter(device: "", app: "", status: "")) == [1, 2, 3], "an empty field filters nothing")
    }

    /// `/events` on a closed feed sends what it holds and ends, as a stream ends when the console stops.
    static func events(_ feed: DecisionFeed, _ uri: String, lastEventID: String? = nil) async throws -> (HTTPResponse.Status, String?, String) {
        await feed.close()
        return try await Fixtures.withConsole(feed: feed) { client in
            var headers: HTTPFields = [.cookie: Fixtures.cookie]
            if let lastEventID { headers[HTTPField.Name("Last-Event-ID")!] = lastEventID }
            let response = try await client.execute(uri: uri, method: .get, headers: headers)
            return (response.status, response.headers[.contentType], String(buffer: response.body))
        }
    }

    @Test func eventsAreServerSentEventsAfterTheLastOneSeen() async throws {
        let feed = DecisionFeed()
        await feed.append([
            Self.decision(), Self.decision("SecItemCopyMatching", status: .missingEntitlement, rule: "access-group"), Self.decision("SecItemDelete"),
        ])
        let (status, type, body) = try await Self.events(feed, "/events", lastEventID: "1")
        #expect(status == .ok && type == "text/event-stream; charset=utf-8")
        #expect(body.hasPrefix("retry: 2000\n\n"), "\(body)")
        #expect(!body.contains("id: 1\n"), "the browser has 1 already")
        let second = try #require(body.components(separatedBy: "\n\n").first { $0.hasPrefix("id: 2\n") })
        let lines = second.split(separator: "\n")
        #expect(lines.count == 3 && lines[1] == "event: decision" && lines[2].hasPrefix("data: {"), "\(second)")
        let row = try JSONDecoder().decode(DecisionRow.self, from: Data(lines[2].dropFirst(6).utf8))
        #expect(row.device == "iphone-alice" && row.udid == Self.alice, "the world's name for the device")
        #expect(row.call == "SecItemCopyMatching" && row.name == "errSecMissingEntitlement" && row.code == "-34018")
        #expect(row.outcome == "refused" && row.rule == "access-group" && row.fix.contains("keychain-access-groups"))
        #expect(row.record.contains(#""rule" : "access-group""#), "\(row.record)")
        #expect(body.contains("id: 3\nevent: decision\n"))

        // after= when there is no Last-Event-ID; the header wins when both are given.
        #expect(try await Self.events(feed, "/events?after=2").2.contains("id: 2\n") == false)
        #expect(try await Self.events(feed, "/events?after=2", lastEventID: "0").2.contains("id: 1\n"))
        // A filter: the refusals only.
        let refused = try await Self.events(feed, "/events?status=refused").2
        #expect(refused.contains("id: 2\n") && !refused.contains("id: 1\n") && !refused.contains("id: 3\n"), "\(refused)")
        #expect(try await Self.events(feed, "/events?device=iphone-alice&app=nonesuch").2 == "retry: 2000\n\n")
    }

    @Test func theDecisionsPageShowsTheNewestFirstEscaped() async throws {
        let feed = DecisionFeed()
        await feed.append([
            Self.decision(),
            Self.decision(
                "SecItemCopyMatching",
                status: .missingEntitlement,
                rule: "access-group",
                reason: "group <script>alert(1)</script> not held"
            ),
        ])
        let html = try await Fixtures.withConsole(feed: feed) { client in
            let response = try await client.execute(uri: "/decisions?device=iphone-alice", method: .get, headers: [.cookie: Fixtures.cookie])
            #expect(response.status == .ok)
            return String(buffer: response.body)
        }
        let refusal = try #require(html.range(of: #"<li class="decision refused" data-id="2""#))
        let success = try #require(html.range(of: #"<li class="decision ok" data-id="1""#))
        #expect(refusal.lowerBound < success.lowerBound, "newest first")
        #expect(html.contains("group &lt;script&gt;alert(1)&lt;/script&gt; not held") && !html.contains("<script>alert"), "escaped")
        #expect(html.contains(#"<span class="device">iphone-alice</span>"#))
        #expect(html.contains(#"data-stream="/events?device=iphone-alice&amp;after=2""#), "the feed goes on after the newest row, filtered alike")
        #expect(html.contains("<option selected>iphone-alice</option>"))
        #expect(html.contains(#"<script src="/console.js"></script>"#))
        #expect(html.contains(#"<a href="/decisions" aria-current="page">Decisions</a>"#))
    }

    @Test func theScriptIsTheConsolesOwnAndAllowedAlone() async throws {
        let (status, type, text, policy) = try await Fixtures.withConsole { client in
            let response = try await client.execute(uri: "/console.js", method: .get, headers: [.cookie: Fixtures.cookie])
            return (response.status, response.headers[.contentType], String(buffer: response.body), response.headers[.contentSecurityPolicy])
        }
        #expect(status == .ok && type == "text/javascript; charset=utf-8")
        #expect(
            text.contains("new EventSource") && !text.contains("innerHTML") && !text.contains("http"),
            "values set as text, nothing fetched elsewhere"
        )
        let directives = policy?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        #expect(directives.contains("script-src 'self'") && directives.contains("connect-src 'self'") && directives.contains("default-src 'none'"))
    }
}
