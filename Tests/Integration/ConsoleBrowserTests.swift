import Foundation
import LabControl
import Testing
import WorldTestSupport

/// The console in a real browser (headless Chromium through WebDriver): the token opens it, and the
/// Decisions page's own script adds a refused call to the page as keychaind decides it, over
/// server-sent events, with nothing reloaded.
@Suite struct ConsoleBrowserTests {
    /// Polls `condition` every 200 ms for up to `seconds`; whether it held.
    static func eventually(seconds: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return try condition()
    }

    @Test func theDecisionsPageAddsEachDecisionAsItIsMade() async throws {
        try await withLab(IntegrationWorlds.family) { (lab: RunningLab) async throws in
            let url = try #require(lab.state.consoleURL)
            let base = String(url[..<(try #require(url.range(of: "/?token="))).lowerBound])
            let browser = try WebDriver()
            defer { browser.close() }
            try browser.open(url)
            #expect(try browser.texts("h1").first?.hasPrefix("World") == true, "the token opened the console")

            try browser.open(base + "/decisions?device=phone")
            let following = try Self.eventually { try browser.texts("#live").first == "Live: following keychaind's decisions." }
            let live = try browser.texts("#live")
            #expect(following, "\(live)")
            let shown = try browser.texts("li.decision").count

            let foreign = #"{"class":"genp","svce":"browser","acct":"a","v_Data":"eA==","agrp":"OTHER98765.foreign"}"#
            let refused = try lab.runApp("com.example.AppOne", on: "phone", ["add", foreign])
            #expect(refused.stdout.contains("-34018"), "\(refused.stdout)\(refused.stderr)")
            let added = try Self.eventually {
                try browser.texts("li.decision.refused").contains { $0.contains("SecItemAdd") && $0.contains("errSecMissingEntitlement") }
            }
            let rows = try browser.texts("li.decision")
            #expect(added, "\(rows)")
            #expect(try browser.texts("li.decision").count == shown + 1, "one row for one decision, none twice")
            #expect(try browser.texts("#live").first == "Live: 1 new since the page opened.")
            let first = try browser.texts("li.decision").first ?? ""
            #expect(first.contains("phone") && first.contains("com.example.AppOne"), "newest first: \(first)")
            let png = try browser.screenshot()
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG of the page")
        }
    }
}
