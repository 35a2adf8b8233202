import Foundation
import LabControl
import ServiceSupport
import Testing
import WorldTestSupport

/// The console in a real lab: `kclab up` starts it last and prints its URL with the token, which
/// it also writes to STATE/console.url; the token is exchanged for a cookie, nothing opens without
/// it, and `kclab down` stops the console with the rest.
@Suite struct ConsoleLabTests {
    /// curl's standard output for `arguments`, quietly, with a time limit.
    static func curl(_ arguments: [String]) throws -> String {
        try runTool("curl", ["-s", "--max-time", "10"] + arguments).stdout
    }

    /// The status code curl got for `url`, sending the cookies of `jar` if given.
    static func status(_ url: String, cookies jar: String? = nil) throws -> String {
        try curl((jar.map { ["-b", $0] } ?? []) + ["-o", "/dev/null", "-w", "%{http_code}", url])
    }

    @Test func kclabUpStartsTheConsoleBehindItsToken() async throws {
        try await withTemporaryDirectory { folder in
            let world = folder.appending(path: "world.yaml")
            try Data(IntegrationWorlds.family.utf8).write(to: world)
            let lab = LabState(root: folder.appending(path: "state"))
            let state = lab.root.path
            defer { _ = try? run(kclab, ["down", "--state", state]) }
            let up = try run(kclab, ["up", "--world", world.path, "--state", state])
            try #require(up.status == 0, "\(up.stderr)")

            // The URL: printed by up and by kclab console, in STATE/console.url, the owner's alone.
            let url = try #require(lab.consoleURL)
            #expect(up.stdout.contains("console: \(url)\n"), "\(up.stdout)")
            let entry = try #require(url.range(of: "/?token="))
            let base = String(url[..<entry.lowerBound])
            let token = String(url[entry.upperBound...])
            #expect(base.hasPrefix("http://127.0.0.1:") && token.count == 64 && token.allSatisfy(\.isHexDigit), "\(url)")
            let mode = try FileManager.default.attributesOfItem(atPath: lab.consoleURLFile.path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            let printed = try run(kclab, ["console", "--state", state])
            #expect(printed.status == 0 && printed.stdout == url + "\n", "\(printed.stdout)\(printed.stderr)")
            let status = try run(kclab, ["status", "--state", state])
            #expect(status.stdout.contains("console: running") && status.stdout.contains("    url: \(base) (with its token"), "\(status.stdout)")
            #expect(!status.stdout.contains(token), "status shows the address, not the token")

            // Without the cookie, or with a wrong token: 403 everywhere.
            for path in ["/", "/overlap", "/overlap.svg", "/nonesuch"] {
                #expect(try Self.status(base + path) == "403", "\(path)")
            }
            #expect(try Self.status(base + "/?token=" + String(repeating: "0", count: 64)) == "403")

            // The exchange: 303 to the page without the token, with an HttpOnly, SameSite=Strict cookie.
            let jar = folder.appending(path: "cookies.txt").path
            let exchange = try Self.curl(["-D", "-", "-o", "/dev/null", "-c", jar, url])
            let lines = exchange.split(separator: "\r\n").map { $0.lowercased() }
            #expect(lines.first?.hasPrefix("http/1.1 303") == true, "\(exchange)")
            #expect(lines.contains("location: /"), "\(exchange)")
            let cookie = try #require(lines.first { $0.hasPrefix("set-cookie: kclab_console_") })
            #expect(cookie.contains("httponly") && cookie.contains("samesite=strict") && !cookie.contains(token), "\(cookie)")
            let page = try Self.curl(["-b", jar, "-w", "\n%{http_code}", base + "/"])
            #expect(page.hasSuffix("\n200") && page.contains("com.example.AppOne") && !page.contains(token), "\(page.suffix(200))")
            #expect(try Self.status(base + "/overlap.svg", cookies: jar) == "200")
            // A browser's way: follow the redirect, keeping the cookie.
            let browser = folder.appending(path: "browser.txt").path
            let followed = try Self.curl(["-L", "-c", browser, "-b", browser, "-o", "/dev/null", "-w", "%{http_code} %{url_effective}", url])
            #expect(followed == "200 \(base)/", "\(followed)")

            // A restarted console keeps its port and draws a new token: the old cookie opens nothing.
            let restart = try run(kclab, ["restart", "--state", state, "console"])
            #expect(restart.status == 0, "\(restart.stderr)")
            let renewed = try #require(lab.consoleURL)
            #expect(renewed.hasPrefix(base + "/?token=") && renewed != url)
            #expect(try Self.status(base + "/", cookies: jar) == "403")

            // The token is in no log line.
            let log = try String(contentsOf: lab.log("console"), encoding: .utf8)
            #expect(log.contains("console listening") && !log.contains(token) && !log.contains(String(renewed.suffix(64))), "\(log)")

            // kclab down stops it and removes its URL.
            let pid = try ServiceSupport.Endpoint.read(from: lab.consoleEndpoint).pid
            #expect(LabProcesses.isAlive(pid))
            let down = try run(kclab, ["down", "--state", state])
            #expect(down.stdout.contains("console"), "\(down.stdout)")
            #expect(!LabProcesses.isAlive(pid), "no console process left")
            #expect(lab.consoleURL == nil)
            #expect(try run(kclab, ["console", "--state", state]).status == 2, "nothing runs")
        }
    }

    /// The Decisions page and `/events` in a real lab: the console follows keychaind's audit
    /// route, so an app's refused call and its next one reach the page and the stream, each with
    /// its device's name, rule and fix; a reader that reconnects with `Last-Event-ID` gets only
    /// what came after.
    @Test func decisionsReachThePageAndTheStream() async throws {
        try await withLab(IntegrationWorlds.family) { (lab: RunningLab) async throws in
            let url = try #require(lab.state.consoleURL)
            let base = String(url[..<(try #require(url.range(of: "/?token="))).lowerBound])
            let jar = lab.state.root.appending(path: "cookies.txt").path
            _ = try Self.curl(["-c", jar, "-o", "/dev/null", url])

            let foreign = #"{"class":"genp","svce":"console","acct":"a","v_Data":"eA==","agrp":"OTHER98765.foreign"}"#
            let refused = try lab.runApp("com.example.AppOne", on: "phone", ["add", foreign])
            #expect(refused.stdout.contains("-34018"), "\(refused.stdout)\(refused.stderr)")
            let added = try lab.runApp("com.example.AppOne", on: "phone", ["add", #"{"class":"genp","svce":"console","acct":"a","v_Data":"eA=="}"#])
            #expect(added.status == 0, "\(added.stdout)\(added.stderr)")

            // The page, once the console has read both (it follows keychaind as it decides).
            var page = ""
            for _ in 0..<50 where !(page.contains("errSecMissingEntitlement") && page.contains("errSecSuccess")) {
                page = try Self.curl(["-b", jar, base + "/decisions?device=phone&app=com.example.AppOne"])
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(page.contains(#"<span class="device">phone</span>"#) && page.contains("errSecMissingEntitlement"), "\(page.suffix(3000))")
            #expect(page.contains("OTHER98765.foreign"), "the reason names the group")

            // The stream: the refusals, as events with the decision as JSON.
            let stream = { (path: String, headers: [String]) in
                try runTool("curl", ["-sN", "--max-time", "3", "-b", jar] + headers.flatMap { ["-H", $0] } + [base + path]).stdout
            }
            let refusals = try stream("/events?status=refused&app=com.example.AppOne", [])
            #expect(refusals.hasPrefix("retry: 2000\n\n"), "\(refusals)")
            let event = try #require(refusals.components(separatedBy: "\n\n").first { $0.contains("errSecMissingEntitlement") }, "\(refusals)")
            let id = try #require(event.split(separator: "\n").first.map { String($0.dropFirst(4)) }.flatMap(Int.init), "\(event)")
            #expect(event.contains(#""device":"phone""#) && event.contains(#""call":"SecItemAdd""#) && event.contains(#""outcome":"refused""#))
            #expect(!refusals.contains(#""outcome":"ok""#), "the filter holds on the stream")

            // Reconnecting after the refusal: only what came after it, AppOne's add among it.
            let after = try stream("/events?app=com.example.AppOne", ["Last-Event-ID: \(id)"])
            #expect(!after.contains("id: \(id)\n") && after.contains(#""outcome":"ok""#), "\(after)")
            #expect(!after.contains("eA=="), "no item value is in a decision")

            // The device's page lists the item under AppOne's default group (its first
            // keychain-access-groups entry), by its metadata alone.
            let device = try Self.curl(["-b", jar, base + "/devices/phone"])
            #expect(device.contains("<code>ABCDE12345.com.example.SharedItems</code>") && device.contains("console / a"), "\(device.suffix(3000))")
            #expect(device.contains("1 item in 1 group."), "\(device.suffix(3000))")
            #expect(!device.contains("did not answer"), "the console reads keychaind: \(device.suffix(2000))")
            #expect(try Self.status(base + "/associations", cookies: jar) == "200")
        }
    }
}
