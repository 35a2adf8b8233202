import AppIdentifiers
import ArgumentParser
import AssetLinks
import Foundation
import LabErrors
import SiteCheck

/// `kclab site …`: a site's files for both platforms at once.
struct SiteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "site",
        abstract: "Check a site for a team that ships an iOS app and an Android app.",
        subcommands: [Check.self]
    )
}

extension SiteCommand {
    /// `kclab site check DOMAIN-or-URL --app TEAM.BUNDLE --package P:SHA256 [--json]`
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Judge a site's apple-app-site-association and assetlinks.json files for both apps, and compare what they grant.",
            discussion: """
                The association file is fetched as an iOS device in developer mode fetches it and judged \
                for --app's webcredentials (as kclab aasa check does); the Digital Asset Links file is \
                fetched as Google's API and Android fetch it and judged for --package (as kclab \
                assetlinks check does). Then the two are compared: webcredentials lists the iOS app ⇔ \
                get_login_creds names the Android app (shared-credentials); applinks names the iOS app \
                ⇔ Android verifies the host's App Links (app-links); the paths iOS opens, beside the \
                ones the Android app declares (app-link-paths); the host answers both files itself, \
                200 and no redirect (same-host). The site is a domain or its https URL \
                (https://example.com, as kclab aasa check takes it). Exit status 0 when both apps share \
                and every rule holds (by default Google's API and Android's verifier both reading the \
                Android file; --verdict android or google lets one decide, the app-links comparison \
                included, and both verdicts stay in the report), 1 when one fails, 2 for a usage error. With --aasa-file and --assetlinks-file, \
                local copies are judged as if the site served them. docs/assetlinks.md, "Both platforms".
                """
        )

        @Argument(help: "The site: a domain (example.com, example.com:8443) or its https URL (https://example.com).")
        var domain: String

        @Option(help: "The iOS app's app ID, TEAM.BUNDLE, such as ABCDE12345.com.example.app.")
        var app: String

        @Option(help: "The Android app: its package name and the SHA-256 of its signing certificate, P:SHA256.")
        var package: String

        @Option(help: "PEM roots to trust for TLS and for signed files (default: the system's).")
        var trust: String?

        @Option(help: "Connect to ADDR[:PORT] for HOST instead of asking DNS (repeatable).")
        var resolve: [String] = []

        @Option(help: "The state folder of kclab up: trust its world's web root and reach its websites (nginx).")
        var state: String?

        @Option(help: "Judge this local apple-app-site-association file, without fetching (with --assetlinks-file).")
        var aasaFile: String?

        @Option(help: "Judge this local assetlinks.json, without fetching (with --aasa-file).")
        var assetlinksFile: String?

        @Option(help: "Whose reading of the Android file decides: android (its verifier), google (its API and hosting rules) or both.")
        var verdict: AssetLinksReport.Verdict = .both

        @Flag(help: "Print one JSON object.")
        var json = false

        func validate() throws {
            _ = try authority()
            do {
                _ = try AppID(app)
            } catch {
                throw ValidationError("--app: \(error.message)")
            }
            _ = try androidApp()
            if (aasaFile == nil) != (assetlinksFile == nil) {
                throw ValidationError("a local check judges both files: give --aasa-file and --assetlinks-file together")
            }
        }

        func run() async throws {
            let report = try await checked()
            if json {
                say(try JSONOutput.pretty(report))
            } else {
                for line in report.lines { say(line) }
            }
            if !report.passed { throw ExitCode(1) }
        }

        /// Both files fetched and judged; what `run` prints and the demo shows.
        func checked() async throws -> SiteCheckReport {
            let roots = try SiteOptions.trustRoots(trust: trust, state: state)
            let host = try authority()
            if let aasaFile, let assetlinksFile {
                let aasa = try AASACommand.Check.localBody(aasaFile)
                guard let links = FileManager.default.contents(atPath: assetlinksFile) else { throw fail("cannot read \(assetlinksFile)", code: 2) }
                do {
                    return try await SiteCheck.local(
                        authority: host,
                        appID: app,
                        app: try androidApp(),
                        aasa: aasa,
                        assetLinks: links,
                        trust: roots.cms,
                        verdict: verdict
                    )
                } catch let problem as AssetLinksProblem {
                    throw ValidationError(problem.message)
                }
            }
            let resolutions = try SiteOptions.resolutions(resolve, state: state)
            let android = try androidApp()
            do {
                return try await SiteCheck.run(
                    authority: host,
                    appID: app,
                    app: android,
                    trustRoots: roots.tls,
                    trust: roots.cms,
                    resolve: resolutions,
                    verdict: verdict
                )
            } catch {
                throw ValidationError(error.message)
            }
        }

        /// The host (and port, when not 443) both files are fetched from: the argument is a domain
        /// or an https URL, with a final `/` or without; iOS reads association files over HTTPS
        /// only, so an http URL is refused.
        private func authority() throws -> String {
            let site: WebAsset
            do {
                site = try WebAsset(argument: domain, finalSlash: true)
            } catch {
                throw ValidationError(error.message)
            }
            guard site.isSecure else {
                throw ValidationError("'\(domain)' is not an https URL: iOS fetches association files over HTTPS only, and Android's verifier too")
            }
            return site.authority
        }

        /// `--package P:SHA256`: the name ends at the first colon (a package name has none).
        private func androidApp() throws -> AndroidAppAsset {
            guard let colon = package.firstIndex(of: ":") else {
                throw ValidationError("--package takes P:SHA256, the package name and its certificate's SHA-256, not '\(package)'")
            }
            do {
                return try AndroidAppAsset(packageName: String(package[..<colon]), fingerprints: [String(package[package.index(after: colon)...])])
            } catch {
                throw ValidationError("--package: \(error.message)")
            }
        }
    }
}
