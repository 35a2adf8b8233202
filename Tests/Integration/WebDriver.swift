import Foundation
import Testing
import WorldTestSupport

/// A headless Chromium driven through ChromeDriver's WebDriver protocol (W3C WebDriver: JSON over
/// HTTP on the driver's port), for the console's pages as a browser runs them: their script, its
/// EventSource, the cookie of the token exchange. Debian's `chromium` and `chromium-driver`
/// (`make deps`); nothing is downloaded. The driver runs on a port of its own and is stopped, with
/// its browser, when ``close()`` runs.
final class WebDriver {
    private let driver: Process
    private let base: String
    private let session: String

    /// Starts ChromeDriver and a headless browser session (as root Chromium needs `--no-sandbox`).
    init() throws {
        let port = Int.random(in: 20_000..<40_000)
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
        driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        base = "http://127.0.0.1:\(port)"
        var ready = false
        for _ in 0..<100 where !ready {
            ready = ((try? Self.call("GET", base + "/status")) as? [String: Any])?["ready"] as? Bool == true
            if !ready { Thread.sleep(forTimeInterval: 0.1) }
        }
        guard ready else {
            driver.terminate()
            throw WebDriverFailure("chromedriver did not answer on port \(port)")
        }
        let options: [String: Any] = [
            "binary": "/usr/bin/chromium", "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"],
        ]
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]]
        guard let id = (try Self.call("POST", base + "/session", capabilities) as? [String: Any])?["sessionId"] as? String else {
            driver.terminate()
            throw WebDriverFailure("chromedriver made no session")
        }
        session = base + "/session/" + id
    }

    /// Opens `url` and waits for it to load.
    func open(_ url: String) throws {
        _ = try Self.call("POST", session + "/url", ["url": url])
    }

    /// The text of every element `css` selects, in the page's order.
    func texts(_ css: String) throws -> [String] {
        let found = try Self.call("POST", session + "/elements", ["using": "css selector", "value": css]) as? [[String: String]] ?? []
        return try found.compactMap { $0.values.first }.map { element in
            try Self.call("GET", session + "/element/\(element)/text") as? String ?? ""
        }
    }

    /// The page as a PNG.
    func screenshot() throws -> Data {
        let text = try Self.call("GET", session + "/screenshot") as? String ?? ""
        return Data(base64Encoded: text) ?? Data()
    }

    /// Ends the session (which closes the browser) and stops the driver, which does not always
    /// exit on SIGTERM: after 2 seconds it is killed.
    func close() {
        _ = try? Self.call("DELETE", session)
        driver.terminate()
        for _ in 0..<20 where driver.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        driver.waitUntilExit()
    }

    /// One command: its answer's `value`.
    @discardableResult
    private static func call(_ method: String, _ url: String, _ body: [String: Any]? = nil) throws -> Any? {
        var arguments = ["-s", "--max-time", "30", "-X", method, url]
        if let body {
            let data = try JSONSerialization.data(withJSONObject: body)
            arguments += ["-H", "Content-Type: application/json", "--data-binary", String(decoding: data, as: UTF8.self)]
        }
        let result = try runTool("curl", arguments)
        guard result.status == 0, let answer = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw WebDriverFailure("\(method) \(url): curl \(result.status) \(result.stdout.prefix(300))")
        }
        if let value = answer["value"] as? [String: Any], let error = value["error"] as? String {
            throw WebDriverFailure("\(method) \(url): \(error): \(value["message"] ?? "")")
        }
        return answer["value"].flatMap { $0 is NSNull ? nil : $0 }
    }
}

struct WebDriverFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
