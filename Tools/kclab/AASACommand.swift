import ArgumentParser
import CMSSupport
import DeviceProtocol
import Foundation
import LabControl
import NIOSSL
import SiteAssociation
import SiteAssociationFetch

/// `kclab aasa …`: apple-app-site-association files.
struct AASACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Validate a site's apple-app-site-association file as a device would.",
        subcommands: [Check.self]
    )
}

extension AASACommand {
    /// `kclab aasa check DOMAIN-or-URL …`
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch a site's association file and apply every rule a device applies; print each check and the verdict.",
            discussion: """
                Given a domain (or an https URL without a path), the file is fetched from https://DOMAIN/.well-known/apple-app-site-association \
                and, when that is refused, from /apple-app-site-association (iOS 8: the root path only, \
                signed files only). Given a URL, exactly that URL is fetched. Redirects are not followed, \
                the server must be valid for the host, and at most 131,072 bytes are read. \
                The exit status is 0 when the site is approved, 1 when it is denied or pending, 2 for a \
                usage error. iOS 14 and later devices read the file through Apple's CDN, which caches it \
                for hours: this command asks the site itself, as ?mode=developer devices do.
                """
        )

        @Argument(help: "A domain (example.com, example.com:8443), https://DOMAIN/ for the same, or the file's https URL.")
        var target: String

        @Option(help: "The app ID the file must list, such as ABCDE12345.com.example.app.")
        var app: String?

        @Option(help: "The service: webcredentials, applinks, activitycontinuation or appclips.")
        var service = "webcredentials"

        @Option(help: "PEM roots to trust for TLS and for signed files (default: the system's).")
        var trust: String?

        @Option(help: "Connect to ADDR[:PORT] for HOST instead of asking DNS (repeatable).")
        var resolve: [String] = []

        @Option(help: "The state folder of kclab up: trust its world's web root and reach its websites (nginx).")
        var state: String?

        @Option(help: "The device's OS, such as ios:17 or ios:8 (iOS 8 reads signed files only).")
        var os = "ios:17"

        @Option(help: "A URL to match against the file's applinks patterns for --app, as swcutil verify does (repeatable).")
        var match: [String] = []

        @Flag(help: "Ask the lab's Apple-like CDN, as iOS 14+ devices do, and compare its copy with the site's file (needs --state).")
        var cdn = false

        @Option(help: "Seconds the whole answer may take before the site counts as timed out (pending).")
        var timeout = 10

        @Flag(help: "Print one JSON object.")
        var json = false

        @Option(help: "Judge this local file as if the site served it (200, typed by its first byte), without fetching.")
        var file: String?

        func validate() throws {
            guard (1...120).contains(timeout) else { throw ValidationError("--timeout must be 1 to 120 seconds") }
            if file != nil, cdn { throw ValidationError("--file judges a local file; --cdn asks the lab's CDN: give one") }
            if cdn, state == nil { throw ValidationError("--cdn asks the lab's CDN: give --state of a lab whose world has websites") }
        }

        func run() async throws {
            let service = try parsedService()
            let version = try parsedOS()
            let (host, locations) = try parsedTarget(rootOnly: version < 9)
            let roots = try SiteOptions.trustRoots(trust: trust, state: state)
            let resolutions = try SiteOptions.resolutions(resolve, state: state)
            let evaluator = SiteEvaluator(host: host, trust: roots.cms, now: Date(), era: version)
            var report: SiteReport
            if let file {
                // A local file needs no HTTP client.
                report = evaluator.evaluateLocal(try Self.localBody(file), url: locations[0], service: service, appID: app)
            } else {
                // Whatever ends the fetch, the client is shut down before it goes: an HTTP client
                // dropped while running ends the process by a signal.
                let fetcher = SiteFetcher(trustRoots: roots.tls, resolve: resolutions, timeout: .seconds(timeout))
                do {
                    if cdn {
                        report = try await throughCDN(fetcher, evaluator: evaluator, service: service, authority: locations[0])
                    } else {
                        report = evaluator.evaluate(await fetcher.fetchFile(locations), service: service, appID: app)
                    }
                } catch {
                    await fetcher.shutdown()
                    throw error
                }
                await fetcher.shutdown()
            }
            if cdn, !AssociationEra.readsThroughCDN(era: version, direct: false) {
                report.checks.insert(
                    .warn(.cdnEra, "a device of \(os) follows iOS \(version)'s rules and reads the site itself; only iOS 14 and later ask the CDN"),
                    at: 0
                )
            }
            if !match.isEmpty {
                report.checks += try matches(report, era: version)
            }
            try print(report, era: version)
            for hint in hints(report) { warn("hint: \(hint)") }
            if report.verdict != .approved { throw ExitCode(1) }
        }

        /// A local file's bytes, read no further than a fetch would read.
        static func localBody(_ path: String) throws -> Data {
            guard let handle = FileHandle(forReadingAtPath: path) else { throw fail("cannot read \(path)", code: 2) }
            defer { try? handle.close() }
            return (try? handle.read(upToCount: AssociationFile.maximumSize + 1)) ?? Data()
        }

        /// What an iOS 14+ device gets: the CDN's copy, judged as any file, then compared with the
        /// site's current file so that a stale copy is explained.
        private func throughCDN(
            _ fetcher: SiteFetcher,
            evaluator: SiteEvaluator,
            service: AssociationService,
            authority location: String
        ) async throws
            -> SiteReport
        {
            guard let state, let base = SiteRecord.endpointURL(LabState(root: URL(fileURLWithPath: state)).cdnEndpoint) else {
                throw ValidationError("--cdn asks the lab's CDN: give --state of a lab whose world has websites")
            }
            guard let authority = URL(string: location).flatMap({ url in url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } }) else {
                throw ValidationError("no domain in '\(location)'")
            }
            let (attempt, headers) = await fetcher.fetchWithHeaders(AppleCDNPath.url(base: base, authority: authority))
            let age = Int(headers["age"] ?? "") ?? 0
            var cdnChecks: [SiteAssociation.Check] = []
            guard case .response(let status, _, _, let copy, _) = attempt.outcome else {
                return SiteReport(
                    verdict: .pending,
                    url: attempt.url,
                    checks: [.fail(.cdn, "the CDN did not answer: \(attempt.outcome)")],
                    services: [:],
                    throughCDN: true
                )
            }
            if status != 200 {
                let reason = headers["apple-failure-reason"] ?? "no reason given"
                cdnChecks.append(
                    .fail(.cdn, "the CDN answered \(status): \(reason) (\(headers["apple-failure-details"] ?? "")); a device denies the site")
                )
                cdnChecks.append(
                    .warn(
                        .cdnCache,
                        "the CDN keeps this failure \(headers["cache-control"] ?? "") from \(age) s ago; ?mode=developer devices ask the site directly"
                    )
                )
                return SiteReport(verdict: .denied, url: attempt.url, checks: cdnChecks, services: [:], throughCDN: true)
            }
            cdnChecks.append(
                .pass(
                    .cdn,
                    "the CDN answered 200 with a copy \(age) s old (Apple-Origin-Format: \(headers["apple-origin-format"] ?? "?"), \(headers["cache-control"] ?? ""))"
                )
            )
            var report = evaluator.evaluate([attempt], service: service, appID: app)
            let direct = await fetcher.fetchFile(SiteFetcher.locations(for: authority))
            if case .response(200, _, _, let current, _)? = direct.last?.outcome {
                if current == copy {
                    cdnChecks.append(.pass(.cdnCopy, "the CDN's copy is the site's current file"))
                } else {
                    let maxAge = Int(headers["cache-control"]?.split(separator: "=").last ?? "") ?? 21_600
                    cdnChecks.append(
                        .warn(
                            .cdnCopy,
                            "the site's file changed after the CDN copied it \(age) s ago: iOS 14+ devices get the old copy for up to \(max(0, maxAge - age)) s more; ?mode=developer devices fetch the site directly"
                        )
                    )
                }
            }
            report.checks = cdnChecks + report.checks
            report.throughCDN = true
            return report
        }

        /// What to do next about a failure of the transport: a certificate the roots used do not
        /// trust, or a lab whose websites do not answer.
        private func hints(_ report: SiteReport) -> [String] {
            let failed = Set(report.checks.filter { $0.result == .fail }.map(\.rule))
            var hints: [String] = []
            if failed.contains(.httpsTrust), trust == nil {
                hints.append(
                    state == nil
                        ? "the system's roots do not trust the site's certificate: give --trust PEM, or --state DIR for a lab's site"
                        : "the lab's web root does not trust this certificate: the site is one of the lab's broken ones, or give --trust PEM"
                )
            }
            if failed.contains(.reachable), let state {
                hints.append("the lab's websites do not answer: is the lab up? kclab status --state \(state)")
            }
            return hints
        }

        /// Each `--match` URL against the file the verdict read.
        private func matches(_ report: SiteReport, era: Int) throws -> [SiteAssociation.Check] {
            guard let app else { throw ValidationError("--match needs --app: patterns belong to an app's details entry") }
            guard let file = report.file else {
                return [.warn(.urlMatch, "no readable file to match against")]
            }
            return try match.map { text in
                guard let url = URL(string: text), url.scheme != nil else { throw ValidationError("--match takes a URL, not '\(text)'") }
                let result = file.match(url, appID: app, era: era)
                return SiteAssociation.Check(.urlMatch, result.outcome == .matched ? .pass : .warn, "\(text): \(result)")
            }
        }

        private func print(_ report: SiteReport, era: Int) throws {
            if json {
                let checks = report.checks.map { ["rule": $0.rule.rawValue, "result": $0.result.rawValue, "detail": $0.detail] }
                say(
                    try JSONOutput.object([
                        ("verdict", report.verdict.rawValue), ("url", report.url), ("checks", checks), ("services", report.services),
                        ("era", era), ("throughCDN", report.throughCDN),
                    ])
                )
                return
            }
            for check in report.checks { say(check.description) }
            for (name, apps) in report.services.sorted(by: { $0.key < $1.key }) {
                say("\(name): \(apps.isEmpty ? "(no apps)" : apps.joined(separator: ", "))")
            }
            say("verdict: \(report.verdict.rawValue) (\(report.url))")
        }

        private func parsedService() throws -> AssociationService {
            guard let service = AssociationService(rawValue: service), service != .authsrv else {
                throw ValidationError("--service must be webcredentials, applinks, activitycontinuation or appclips")
            }
            return service
        }

        private func parsedOS() throws -> Int {
            let parts = os.split(separator: ":")
            guard parts.count == 2, parts[0] == "ios" || parts[0] == "macos", let major = Int(parts[1].split(separator: ".")[0]) else {
                throw ValidationError("--os must look like ios:17 or macos:14")
            }
            return AssociationEra.iOSRelease(isMac: parts[0] == "macos", major: major)
        }

        private func parsedTarget(rootOnly: Bool) throws -> (host: String, locations: [String]) {
            var authority = target.lowercased()
            if target.contains("://") {
                guard let url = URL(string: target), url.scheme == "https", let host = url.host else {
                    throw ValidationError("'\(target)' is not an https URL: devices fetch association files over HTTPS only")
                }
                // A URL with a path is that file; without one it names the domain, checked as a
                // device checks it (.well-known, then the root).
                guard url.path.isEmpty || url.path == "/", url.query == nil else { return (host.lowercased(), [target]) }
                authority = host.lowercased() + (url.port.map { ":\($0)" } ?? "")
            }
            guard !authority.isEmpty, !authority.contains("/") else { throw ValidationError("'\(target)' is not a domain") }
            let host = String(authority.split(separator: ":")[0])
            return (host, SiteFetcher.locations(for: authority, rootOnly: rootOnly))
        }
    }
}
