public import ArgumentParser
public import AssetLinks
import Foundation
import SiteAssociation
import SiteAssociationFetch
import SiteCheck

/// `kclab assetlinks …`: Android's Digital Asset Links files.
struct AssetLinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assetlinks",
        abstract: "Validate a site's Digital Asset Links file (assetlinks.json) as Google's API and Android read it.",
        subcommands: [Check.self, List.self]
    )
}

extension AssetLinksCommand {
    /// `kclab assetlinks check DOMAIN-or-URL [--file F] [--package P --fingerprint SHA256… | --target SITE]
    /// [--relation R…] [--verdict android|google|both] [--json]`
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a site's /.well-known/assetlinks.json, apply every rule, and answer Google's check for an app or a site.",
            discussion: """
                The file is fetched from https://DOMAIN/.well-known/assetlinks.json as Google's API and \
                Android fetch it: a valid certificate, 200 only, no redirect followed, application/json, \
                at most 1 MiB. Every statement and include is checked (relation grammar, web and \
                android_app targets, fingerprints), each problem with its line, column and the error code \
                Google's API gives; includes are followed (at most 10 files, HTTPS once the chain is). \
                With --package and --fingerprint it says whether each relation (default: \
                delegate_permission/common.handle_all_urls and …/common.get_login_creds) links the app \
                under each certificate; with --target https://SITE, whether each --relation links that \
                site (Google's check with a web target); with --relation alone, whether a statement gives \
                that relation to any target. Google's API and Android's verifier each give a verdict; \
                --verdict says which decides (default both). Exit status 0 when that verdict holds, 1 \
                when it does not (a rule fails, or a question finds nothing: an empty list, a relation \
                no statement gives, an app or site not listed), 2 for a usage error. docs/assetlinks.md.
                """
        )

        @OptionGroup var source: AssetLinksSource

        @Option(help: "The Android app's package name, such as com.example.app.")
        var package: String?

        @Option(help: "The SHA-256 of a certificate that signs the app, as keytool -printcert prints it (repeatable).")
        var fingerprint: [String] = []

        @Option(help: "A site to ask about instead of an app, https://host[:port] (Google's check with a web target; needs --relation).")
        var target: String?

        @Option(help: "A relation to ask about (repeatable); default for an app: handle_all_urls and get_login_creds.")
        var relation: [String] = []

        @Option(help: "Whose verdict sets the exit status: android (its verifier), google (its API and hosting rules) or both.")
        var verdict: AssetLinksReport.Verdict = .both

        @Flag(help: "Print one JSON object.")
        var json = false

        func validate() throws {
            if package == nil, !fingerprint.isEmpty { throw ValidationError("--fingerprint needs --package") }
            if package != nil, fingerprint.isEmpty {
                throw ValidationError("--package needs the app's --fingerprint (its signing certificate's SHA-256)")
            }
            if package != nil, target != nil { throw ValidationError("ask about an app (--package) or a site (--target), not both") }
            _ = try question()
        }

        func run() async throws {
            let report = try await checked()
            try print(report)
            if !report.passed { throw ExitCode(1) }
        }

        /// The report, fetched or read from --file; what `run` prints and the demo shows.
        func checked() async throws -> AssetLinksReport {
            let (app, site, relations) = try question()
            let (source, served, resolved) = try await self.source.statements()
            return AssetLinksReport(source: source, served: served, resolved: resolved, app: app, site: site, relations: relations, verdict: verdict)
        }

        private func print(_ report: AssetLinksReport) throws {
            if json {
                say(try JSONOutput.pretty(report))
                return
            }
            for line in report.lines { say(line) }
        }

        /// What is asked, each part read as Google's API reads a check request: the app under each
        /// certificate, or the site, and the relations (an app's default both of Google's; a site's
        /// must be given, as a check's relation must).
        private func question() throws -> (app: AndroidAppAsset?, site: WebAsset?, relations: [AssetRelation]) {
            do {
                let relations = try relation.map { text throws(AssetLinksProblem) in try AssetLinksQuery.relation(text) }
                if let package {
                    let prints = try fingerprint.map { text throws(AssetLinksProblem) in try AssetLinksQuery.app(package, text).fingerprints[0] }
                    let app = try AndroidAppAsset(packageName: package, fingerprints: prints)
                    return (app, nil, relations.isEmpty ? [.handleAllURLs, .getLoginCreds] : relations)
                }
                if let target {
                    let site = try AssetLinksQuery.site(target)
                    _ = try AssetLinksQuery.checkRelation(relation.first)
                    return (nil, site, relations)
                }
                return (nil, nil, relations)
            } catch {
                throw ValidationError("\(error.message) [\(AssetLinksErrorCode.invalidQuery.rawValue)]")
            }
        }
    }
}

extension AssetLinksReport.Verdict: ExpressibleByArgument {}
