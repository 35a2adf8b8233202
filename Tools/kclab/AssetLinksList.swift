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
                are printed. With --relation only that relation's statements are listed (an empty one \
                lists every relation, as the API's does). --json prints the API's ListResponse shape \
                (statements with source, relation and target; errorCode; debugString) and the outcome \
                Google's compatibility suite expects (SUCCESS, FETCH_ERROR). Exit status 0 when Google's \
                API reads the list without error and finds a statement, 1 otherwise (an empty list is \
                FETCH_ERROR, "No statements were found"; a relation no statement gives finds nothing), \
                2 for a usage error. docs/assetlinks.md.
                """
        )

        @OptionGroup var source: AssetLinksSource

        @Option(help: "Only this relation's statements, such as delegate_permission/common.get_login_creds.")
        var relation: String?

        @Flag(help: "Print one JSON object, in the API's ListResponse shape.")
        var json = false

        func validate() throws {
            _ = try query(try source.source())
        }

        func run() async throws {
            let (site, served, resolved) = try await source.statements()
            let answer = try query(site).answer(served: served, resolved: resolved)
            if json {
                say(try JSONOutput.pretty(answer))
            } else {
                // The report's reading of the findings gives Google's summary.
                let report = AssetLinksReport(source: site, served: served, resolved: resolved, app: nil, relations: [])
                let statements = answer.statements ?? []
                for statement in statements { say(statement.line) }
                for finding in report.findings where finding.result == .fail { say(finding.description) }
                say(report.googleSummary)
                if let notFound = answer.notFound { say(notFound) }
                say("\(statements.count) \(statements.count == 1 ? "statement" : "statements") for \(site)")
            }
            if answer.outcome != .success || !answer.found { throw ExitCode(1) }
        }

        /// The list request, read as Google's API reads one.
        private func query(_ site: WebAsset) throws -> AssetLinksQuery {
            do {
                return try AssetLinksQuery.parse(source: .web(site: site.description), relation: relation)
            } catch {
                throw ValidationError("--relation: \(error.message) [\(AssetLinksErrorCode.invalidQuery.rawValue)]")
            }
        }
    }
}
