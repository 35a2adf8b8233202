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
        subcommands: [Check.self, List.self]
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

        @OptionGroup var source: AssetLinksSource

        @Option(help: "The Android app's package name, such as com.example.app.")
        var package: String?

        @Option(help: "The SHA-256 of a certificate that signs the app, as keytool -printcert prints it (repeatable).")
        var fingerprint: [String] = []

        @Option(help: "A relation to ask about (repeatable); default: handle_all_urls and get_login_creds.")
        var relation: [String] = []

        @Flag(help: "Print one JSON object.")
        var json = false

        func validate() throws {
            if package == nil, !fingerprint.isEmpty { throw ValidationError("--fingerprint needs --package") }
            if package != nil, fingerprint.isEmpty {
                throw ValidationError("--package needs the app's --fingerprint (its signing certificate's SHA-256)")
            }
        }

        func run() async throws {
            let report = try await checked()
            try print(report)
            if !report.passed { throw ExitCode(1) }
        }

        /// The report, fetched or read from --file; what `run` prints and the demo shows.
        func checked() async throws -> AssetLinksReport {
            let relations = try parsedRelations()
            let app = try parsedApp()
            let (source, served, resolved) = try await self.source.statements()
            return AssetLinksReport(source: source, served: served, resolved: resolved, app: app, relations: relations)
        }

        private func print(_ report: AssetLinksReport) throws {
            if json {
                say(try JSONOutput.pretty(report))
                return
            }
            for line in report.lines { say(line) }
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
    }
}
