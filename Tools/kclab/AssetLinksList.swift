import ArgumentParser
import AssetLinks
import Foundation

extension AssetLinksCommand {
    /// `kclab assetlinks list DOMAIN-or-URL [--relation R] [--file F] [--json]`: Google's statements.list.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a site's statements as Google's statements.list answers: each relation and target, includes followed.",
            discussion: """
                The list is fetched (or read from --file) and its includes followed as by kclab \
                assetlinks check; a statement Google's API skips is not listed, and its error codes \
                are printed. With --relation only that relation's statements are listed. --json prints \
                the API's ListResponse shape (statements with source, relation and target; errorCode). \
                Exit status 0 when Google's API reads the list without error, 1 otherwise, 2 for a \
                usage error. docs/assetlinks.md.
                """
        )

        @OptionGroup var source: AssetLinksSource

        @Option(help: "Only this relation's statements, such as delegate_permission/common.get_login_creds.")
        var relation: String?

        @Flag(help: "Print one JSON object, in the API's ListResponse shape.")
        var json = false

        func run() async throws {
            let asked: AssetRelation?
            do {
                asked = try relation.map { text throws(AssetLinksProblem) in try AssetRelation(text) }
            } catch {
                throw ValidationError("--relation: \(error.message)")
            }
            let (site, served, resolved) = try await source.statements()
            // The report's reading of the findings gives Google's codes.
            let report = AssetLinksReport(source: site, served: served, resolved: resolved, app: nil, relations: [])
            let listing = StatementListing(source: site, statements: resolved.statements, relation: asked, errors: report.googleErrors)
            if json {
                say(try JSONOutput.pretty(listing))
            } else {
                for statement in listing.statements { say(statement.line) }
                for finding in report.findings where finding.result == .fail { say(finding.description) }
                say(report.googleSummary)
                say("\(listing.statements.count) \(listing.statements.count == 1 ? "statement" : "statements") for \(site)")
            }
            if !listing.errorCode.isEmpty { throw ExitCode(1) }
        }
    }
}
