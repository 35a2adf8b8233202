import Foundation
import Testing
import WorldTestSupport

/// `kclab aasa check` against a server of another make than the lab's nginx: Python's HTTPS
/// server, with a CA, an intermediate and leaves made by the `openssl` command rather than by the
/// world builder, bodies sent chunked, close-delimited or gzip-encoded. The checker must judge it
/// as it judges the fixture, given only `--trust` and `--resolve`.
@Suite(.serialized) struct IndependentServerTests {
    static let appID = "A1B2C3D4E5.org.indie.App"
    static let fileJSON = #"{"webcredentials": {"apps": ["A1B2C3D4E5.org.indie.App"]}, "applinks": {"details": []}}"#

    /// A running server and what `kclab aasa check` needs to reach it.
    struct Server {
        let folder: URL
        let port: Int

        func check(_ target: String, _ extra: [String] = [], trust: Bool = true) throws -> (status: Int32, report: [String: Any]) {
            var arguments = ["aasa", "check", target, "--json", "--app", IndependentServerTests.appID, "--timeout", "5"]
            if trust { arguments += ["--trust", folder.appending(path: "root.pem").path] }
            for host in IndependentServerTests.sites.keys.sorted() + ["www.wild.indie.test", "nameless.indie.test"] {
                arguments += ["--resolve", "\(host)=127.0.0.1:\(port)"]
            }
            let result = try run(kclab, arguments + extra)
            let report = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:]
            return (result.status, report)
        }
    }

    /// Each host the server answers for: how it sends the file.
    static var sites: [String: [String: Any]] {
        [
            "plain.indie.test": ["type": "application/json", "body": "file.json"],
            "chunked.indie.test": ["type": "application/json; charset=utf-8", "body": "file.json", "transfer": "chunked"],
            "close.indie.test": ["body": "file.json", "transfer": "close"],
            "gzip.indie.test": ["type": "application/json", "body": "file.json", "gzip": true],
            "gzip-big.indie.test": ["type": "application/json", "body": "big.json", "gzip": true],
            "gzip-bomb.indie.test": ["type": "application/json", "body": "bomb.json", "gzip": true],
            "signed.indie.test": ["type": "application/pkcs7-mime", "body": "signed.p7"],
            "root-only.indie.test": ["type": "application/json", "body": "file.json", "path": "/apple-app-site-association"],
            "moved.indie.test": ["status": 302, "location": "https://plain.indie.test/.well-known/apple-app-site-association"],
            "gone.indie.test": ["status": 410],
            "busy.indie.test": ["status": 502],
            "www.wild.indie.test": ["type": "application/json", "body": "file.json"],
            // Digital Asset Links files (kclab assetlinks check).
            "links.indie.test": ["type": "application/json", "body": "links.json", "path": Self.assetLinksPath],
            "included.indie.test": ["type": "application/json", "body": "included.json", "path": Self.assetLinksPath],
            "links-moved.indie.test": ["status": 301, "location": "https://links.indie.test\(Self.assetLinksPath)", "path": Self.assetLinksPath],
            "links-html.indie.test": ["type": "text/html", "body": "links.json", "path": Self.assetLinksPath],
        ]
    }

    static let assetLinksPath = "/.well-known/assetlinks.json"
    static let appFingerprint = (0..<32).map { String(format: "%02X", $0 * 5 % 256) }.joined(separator: ":")
    /// The site's list: App Links for the app, and an include that adds credential sharing.
    static var linksJSON: String {
        #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"org.indie.app","#
            + #""sha256_cert_fingerprints":["\#(appFingerprint)"]}},{"include":"https://included.indie.test/.well-known/assetlinks.json"}]"#
    }
    static var includedJSON: String {
        #"[{"relation":["delegate_permission/common.get_login_creds"],"target":{"namespace":"android_app","package_name":"org.indie.app","#
            + #""sha256_cert_fingerprints":["\#(appFingerprint)"]}}]"#
    }

    /// `kclab assetlinks check` fetches as Google's API and Android do: the list and its include
    /// over HTTPS with the given root, and a redirect, an HTML type or an untrusted server each
    /// refused with Google's error code.
    @Test func assetLinksAreFetchedAndJudgedWithGooglesCodes() async throws {
        try await withServer { server in
            func check(_ host: String, trust: Bool = true) throws -> (status: Int32, report: [String: Any]) {
                var arguments = ["assetlinks", "check", host, "--json", "--package", "org.indie.app", "--fingerprint", Self.appFingerprint]
                if trust { arguments += ["--trust", server.folder.appending(path: "root.pem").path] }
                for name in ["links.indie.test", "included.indie.test", "links-moved.indie.test", "links-html.indie.test"] {
                    arguments += ["--resolve", "\(name)=127.0.0.1:\(server.port)"]
                }
                let result = try run(kclab, arguments)
                return (result.status, (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any] ?? [:])
            }
            func failed(_ report: [String: Any]) -> [String] {
                ((report["findings"] as? [[String: Any]]) ?? []).filter { $0["result"] as? String == "fail" }.compactMap { $0["code"] as? String }
            }
            let linked = try check("links.indie.test")
            #expect(linked.status == 0, "\(linked.report)")
            let links = (linked.report["links"] as? [[String: Any]]) ?? []
            #expect(
                links.count == 2 && links.allSatisfy { $0["linked"] as? Bool == true },
                "both relations, the second from the include: \(linked.report)"
            )
            #expect(linked.report["statements"] as? Int == 2)

            let moved = try check("links-moved.indie.test")
            #expect(moved.status == 1 && failed(moved.report).contains("REDIRECT"), "\(moved.report)")
            let html = try check("links-html.indie.test")
            #expect(html.status == 1 && failed(html.report).contains("WRONG_CONTENT_TYPE"), "\(html.report)")
            let untrusted = try check("links.indie.test", trust: false)
            #expect(untrusted.status == 1 && failed(untrusted.report).contains("FAILED_SSL_VALIDATION"), "\(untrusted.report)")
        }
    }

    /// The verdict a device reaches for each host, and a rule that must have the given result.
    static let expectations: [(host: String, verdict: String, rule: String, result: String)] = [
        ("plain.indie.test", "approved", "content-type", "pass"),
        ("chunked.indie.test", "approved", "content-type", "pass"),
        ("close.indie.test", "approved", "content-type", "warn"),
        ("gzip.indie.test", "approved", "size-limit", "pass"),
        ("gzip-big.indie.test", "denied", "size-limit", "fail"),
        ("signed.indie.test", "approved", "signature", "pass"),
        ("root-only.indie.test", "approved", "app-listed", "pass"),
        ("moved.indie.test", "denied", "no-redirects", "fail"),
        ("gone.indie.test", "denied", "http-status", "fail"),
        ("busy.indie.test", "pending", "http-status", "fail"),
        ("www.wild.indie.test", "approved", "https-trust", "pass"),
        ("nameless.indie.test", "denied", "https-trust", "fail"),
    ]

    @Test func judgesAServerOfAnotherMakeAsTheFixture() async throws {
        try await withServer { server in
            for (host, verdict, rule, result) in Self.expectations {
                let answer = try server.check(host)
                #expect(answer.report["verdict"] as? String == verdict, "\(host): \(answer.report)")
                let rules = ((answer.report["checks"] as? [[String: String]]) ?? []).filter { $0["result"] == result }.compactMap { $0["rule"] }
                #expect(rules.contains(rule), "\(host): \(answer.report)")
                #expect(answer.status == (verdict == "approved" ? 0 : 1), "\(host)")
            }
            // Python closes without TLS's close_notify: a body that ends at the close is still read.
            let closed = try server.check("close.indie.test")
            let notes = ((closed.report["checks"] as? [[String: String]]) ?? []).filter { $0["rule"] == "transport" }
            #expect(notes.first?["result"] == "warn" && notes.first?["detail"]?.contains("close_notify") == true, "\(closed.report)")
            let rootOnly = try server.check("root-only.indie.test")
            #expect(rootOnly.report["url"] as? String == "https://root-only.indie.test/apple-app-site-association")
            let services = try server.check("plain.indie.test").report["services"] as? [String: [String]]
            #expect(services?["webcredentials"] == [Self.appID] && services?["applinks"] == [])
        }
    }

    static let bombSize = 200 << 20

    /// A gzip bomb is cut at the file limit while it is decoded: checking it costs the checker no
    /// more memory than checking a plain file.
    @Test func aGzipBombIsCutWhileDecoded() async throws {
        try await withServer { server in
            func peakKilobytes(_ host: String) throws -> Int {
                var arguments = ["aasa", "check", host, "--json", "--timeout", "60"]
                arguments += ["--trust", server.folder.appending(path: "root.pem").path, "--resolve", "\(host)=127.0.0.1:\(server.port)"]
                let measure =
                    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
                    + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
                let result = try runTool("python3", ["-c", measure, kclab.path] + arguments)
                return try #require(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.stderr)")
            }
            let judged = try server.check("gzip-bomb.indie.test", ["--timeout", "60"])
            let failed = ((judged.report["checks"] as? [[String: String]]) ?? []).filter { $0["result"] == "fail" }.compactMap { $0["rule"] }
            #expect(judged.report["verdict"] as? String == "denied" && failed.contains("size-limit"), "\(judged.report)")
            let plain = try peakKilobytes("plain.indie.test")
            let bomb = try peakKilobytes("gzip-bomb.indie.test")
            #expect(bomb < plain + 8 * 1024, "kclab peaked at \(bomb) KB for a \(Self.bombSize >> 20) MB bomb, \(plain) KB for a plain file")
        }
    }

    /// A certificate the checker does not trust, or one for another name, is a verdict at once:
    /// with a two-minute timeout the check must end well within the suite's one-minute limit.
    @Test(.timeLimit(.minutes(1))) func aTrustFailureIsFinalAtOnce() async throws {
        try await withServer { server in
            let untrusted = try server.check("plain.indie.test", ["--timeout", "120"], trust: false)
            #expect(untrusted.report["verdict"] as? String == "denied", "\(untrusted.report)")
            let misnamed = try server.check("nameless.indie.test", ["--timeout", "120"])
            #expect(misnamed.report["verdict"] as? String == "denied", "\(misnamed.report)")
        }
    }

    @Test func trustsTheServerOnlyThroughTheGivenRoot() async throws {
        try await withServer { server in
            let untrusted = try server.check("plain.indie.test", trust: false)
            #expect(untrusted.report["verdict"] as? String == "denied", "\(untrusted.report)")
            let failed = ((untrusted.report["checks"] as? [[String: String]]) ?? []).filter { $0["result"] == "fail" }.compactMap { $0["rule"] }
            #expect(failed == ["https-trust"], "\(untrusted.report)")
        }
    }

    // MARK: - The server

    func withServer(_ body: (Server) throws -> Void) async throws {
        try await withTemporaryDirectory { folder in
            try Self.makeCertificates(in: folder)
            try Data(Self.fileJSON.utf8).write(to: folder.appending(path: "file.json"))
            try Data(Self.linksJSON.utf8).write(to: folder.appending(path: "links.json"))
            try Data(Self.includedJSON.utf8).write(to: folder.appending(path: "included.json"))
            // 200,000 bytes of valid JSON that gzip shrinks to a few hundred: the limit is on the decoded file.
            let padding = String(repeating: " ", count: 200_000 - Self.fileJSON.utf8.count)
            try Data((Self.fileJSON + padding).utf8).write(to: folder.appending(path: "big.json"))
            // 200 MB that gzip sends in about 200 KB: decoded without a bound, it costs the checker
            // that much memory per fetch.
            try Data((Self.fileJSON + String(repeating: " ", count: Self.bombSize)).utf8).write(to: folder.appending(path: "bomb.json"))
            let signed = try runTool(
                "openssl",
                [
                    "smime", "-sign", "-in", folder.appending(path: "file.json").path, "-out", folder.appending(path: "signed.p7").path,
                    "-signer", folder.appending(path: "signed.indie.test.pem").path, "-inkey",
                    folder.appending(path: "signed.indie.test.key").path, "-certfile", folder.appending(path: "intermediate.pem").path,
                    "-noattr", "-nodetach", "-outform", "DER",
                ]
            )
            try #require(signed.status == 0, "\(signed.stderr)")
            try Self.writeConfiguration(in: folder)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", Self.script.path, folder.appending(path: "server.json").path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            defer {
                // SIGKILL: the server keeps nothing, and a blocked SIGTERM must not hang the suite.
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            let ready = folder.appending(path: "ready")
            for _ in 0..<200 where !FileManager.default.fileExists(atPath: ready.path) {
                try await Task.sleep(for: .milliseconds(50))
            }
            let port = try #require(Int(String(decoding: try Data(contentsOf: ready), as: UTF8.self)))
            try body(Server(folder: folder, port: port))
        }
    }

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures/independent-https-server.py")
    }

    static func writeConfiguration(in folder: URL) throws {
        var certificates: [String: [String: String]] = [:]
        for name in ["plain.indie.test", "wild.indie.test", "other.indie.test"] + sites.keys.filter({ $0 != "www.wild.indie.test" }) {
            certificates[name] = [
                "chain": folder.appending(path: "\(name).chain.pem").path, "key": folder.appending(path: "\(name).key").path,
            ]
        }
        // www.wild.indie.test is served the wildcard certificate; an unknown name gets another host's.
        certificates["www.wild.indie.test"] = certificates["wild.indie.test"]
        var sites: [String: [String: Any]] = [:]
        for (host, site) in Self.sites {
            var site = site
            if let body = site["body"] as? String { site["body"] = folder.appending(path: body).path }
            sites[host] = site
        }
        let configuration: [String: Any] = [
            "ready": folder.appending(path: "ready").path, "default": "other.indie.test", "certificates": certificates, "sites": sites,
        ]
        try JSONSerialization.data(withJSONObject: configuration).write(to: folder.appending(path: "server.json"))
    }

    /// An EC root, an RSA intermediate and a leaf per host, made with the openssl command.
    static func makeCertificates(in folder: URL) throws {
        func openssl(_ arguments: [String]) throws {
            let result = try runTool("openssl", arguments)
            try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        func path(_ name: String) -> String { folder.appending(path: name).path }
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("root.key"), "-out",
            path("root.pem"), "-days", "30", "-subj", "/O=Indie Test/CN=Indie Test Root", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try Data("basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n".utf8)
            .write(to: folder.appending(path: "intermediate.ext"))
        try openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("intermediate.key"), "-out", path("intermediate.csr"), "-subj",
            "/O=Indie Test/CN=Indie Test Issuing CA",
        ])
        try openssl([
            "x509", "-req", "-in", path("intermediate.csr"), "-CA", path("root.pem"), "-CAkey", path("root.key"), "-CAcreateserial", "-days",
            "30", "-sha256", "-extfile", path("intermediate.ext"), "-out", path("intermediate.pem"),
        ])
        let names = ["plain.indie.test", "wild.indie.test", "other.indie.test"] + sites.keys.filter { $0 != "www.wild.indie.test" }
        for name in Set(names) {
            let san = name == "wild.indie.test" ? "DNS:*.wild.indie.test" : "DNS:\(name)"
            try Data("subjectAltName=\(san)\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n".utf8)
                .write(to: folder.appending(path: "\(name).ext"))
            try openssl([
                "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", "/CN=\(name)",
            ])
            try openssl([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("intermediate.pem"), "-CAkey", path("intermediate.key"),
                "-CAcreateserial", "-days", "30", "-sha256", "-extfile", path("\(name).ext"), "-out", path("\(name).pem"),
            ])
            let chain = try Data(contentsOf: folder.appending(path: "\(name).pem")) + Data(contentsOf: folder.appending(path: "intermediate.pem"))
            try chain.write(to: folder.appending(path: "\(name).chain.pem"))
        }
    }
}
