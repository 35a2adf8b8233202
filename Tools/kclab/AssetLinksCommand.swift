import ArgumentParser
import AssetLinks
import Foundation
import SiteAssociation
import SiteAssociationFetch
import SiteCheck

/// `kclab assetlinks …`: Android's Digital Asset Links files.
struct AssetLinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assetlinks",
        abstract: "Validate a site's Digital Asset Links file (assetlinks.json) as Google's API and Android read it.",
        subcommands: [Check.self]
    )
}

extension AssetLinksCommand {
    /// `kclab assetlinks check DOMAIN-or-URL [--file F] [--package P --fingerprint SHA256…] [--relation R…] [--json]`
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a site's /.well-known/assetlinks.json, apply every rule, and say whether it links an Android app.",
            discussion: """
                The file is fetched from https://DOMAIN/.well-known/assetlinks.json as Google's API and \
                Android fetch it: a valid certificate, 200 only, no redirect followed, application/json, \
                at most 1 MiB. Every statement and include is checked (relation grammar, web and \
                android_app targets, fingerprints), each problem with its line, column and the error code \
                Google's API gives; includes are followed (at most 10 files, HTTPS once the chain is). \
                With --package and --fingerprint it says whether each relation (default: \
                delegate_permission/common.handle_all_urls and …/common.get_login_creds) links the app \
                under each certificate. Exit status 0 when every rule holds, 1 when one fails, 2 for a \
                usage error. docs/assetlinks.md.
                """
        )

        @Argument(help: "The site: a domain (example.com, example.com:8443) or its URL (https://example.com, http://example.com).")
        var site: String

        @Option(help: "Judge this local file as the site's list, without fetching (includes as --include gives them).")
        var file: String?

        @Option(name: .customLong("include"), help: "An included file's local copy for --file: URL=FILE (repeatable).")
        var includes: [String] = []

        @Option(help: "The Android app's package name, such as com.example.app.")
        var package: String?

        @Option(help: "The SHA-256 of a certificate that signs the app, as keytool -printcert prints it (repeatable).")
        var fingerprint: [String] = []

        @Option(help: "A relation to ask about (repeatable); default: handle_all_urls and get_login_creds.")
        var relation: [String] = []

        @Option(help: "PEM roots to trust for TLS (default: the system's).")
        var trust: String?

        @Option(help: "Connect to ADDR[:PORT] for HOST instead of asking DNS (repeatable).")
        var resolve: [String] = []

        @Option(help: "The state folder of kclab up: trust its world's web root and reach its websites (nginx).")
        var state: String?

        @Flag(help: "Print one JSON object.")
        var json = false

        func validate() throws {
            if package == nil, !fingerprint.isEmpty { throw ValidationError("--fingerprint needs --package") }
            if package != nil, fingerprint.isEmpty {
                throw ValidationError("--package needs the app's --fingerprint (its signing certificate's SHA-256)")
            }
            if file == nil, !includes.isEmpty {
                throw ValidationError("--include gives local copies for --file; a fetched list's includes are fetched")
            }
        }

        func run() async throws {
            let report = try await checked()
            try print(report)
            if !report.passed { throw ExitCode(1) }
        }

        /// The report, fetched or read from --file; what `run` prints and the demo shows.
        func checked() async throws -> AssetLinksReport {
            let source = try parsedSite()
            let relations = try parsedRelations()
            let app = try parsedApp()
            let report: AssetLinksReport
            if let file {
                guard let data = FileManager.default.contents(atPath: file) else { throw fail("cannot read \(file)", code: 2) }
                let copies = try localIncludes()
                let resolved = await ResolvedStatements.resolve(StatementList.read(data), source: source) { url in
                    guard let path = copies[url.description.lowercased()] else {
                        return .unavailable("a local check reads only what --include URL=FILE gives")
                    }
                    guard let data = FileManager.default.contents(atPath: path) else { return .failed("cannot read \(path)", .fetchError) }
                    return .data(data)
                }
                report = AssetLinksReport(
                    source: source,
                    served: StatementListFetch.localFile(url: source.statementListURL),
                    resolved: resolved,
                    app: app,
                    relations: relations
                )
            } else {
                report = try await fetched(source, relations: relations, app: app)
            }
            return report
        }

        /// Fetches the list and its includes over HTTPS with Android's limits.
        private func fetched(_ source: WebAsset, relations: [AssetRelation], app: AndroidAppAsset?) async throws -> AssetLinksReport {
            let roots = try SiteOptions.trustRoots(trust: trust, state: state)
            let fetcher = AssetLinksFetch.fetcher(trustRoots: roots.tls, resolve: try SiteOptions.resolutions(resolve, state: state))
            let report = await AssetLinksFetch.report(source, app: app, relations: relations, fetcher: fetcher)
            await fetcher.shutdown()
            return report
        }

        private func print(_ report: AssetLinksReport) throws {
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                say(String(decoding: try encoder.encode(report), as: UTF8.self))
                return
            }
            for line in report.lines { say(line) }
        }

        private func parsedSite() throws -> WebAsset {
            do {
                return site.contains("://") ? try WebAsset(site: site) : try WebAsset(secureHost: site)
            } catch {
                throw ValidationError(error.message)
            }
        }

        private func parsedRelations() throws -> [AssetRelation] {
            guard !relation.isEmpty else { return [.handleAllURLs, .getLoginCreds] }
            do {
                return try relation.map { text throws(AssetLinksProblem) in try AssetRelation(text) }
            } catch {
                throw ValidationError("--relation: \(error.message)")
            }
        }

        private func parsedApp() throws -> AndroidAppAsset? {
            guard let package else { return nil }
            do {
                return try AndroidAppAsset(packageName: package, fingerprints: fingerprint)
            } catch {
                throw ValidationError(error.message)
            }
        }

        /// `--include URL=FILE` as a map from the URL (lower-case) to the file.
        private func localIncludes() throws -> [String: String] {
            var copies: [String: String] = [:]
            for entry in includes {
                guard let equals = entry.firstIndex(of: "="), let url = try? IncludeURL(String(entry[..<equals])) else {
                    throw ValidationError("--include takes URL=FILE with an http(s) URL, not '\(entry)'")
                }
                copies[url.description.lowercased()] = String(entry[entry.index(after: equals)...])
            }
            return copies
        }
    }
}
