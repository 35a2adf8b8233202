import ArgumentParser
import AssetLinks
import Foundation
import SiteAssociationFetch
import SiteCheck

/// Where `kclab assetlinks check` and `list` read a site's statement list: fetched from the site
/// (`--trust`, `--resolve`, `--state` as `kclab aasa check` takes them), or a local `--file`.
struct AssetLinksSource: ParsableArguments {
    @Argument(help: "The site: a domain (example.com, example.com:8443) or its URL (https://example.com, http://example.com).")
    var site: String

    @Option(help: "Judge this local file as the site's list, without fetching (includes as --include gives them).")
    var file: String?

    @Option(name: .customLong("include"), help: "An included file's local copy for --file: URL=FILE (repeatable).")
    var includes: [String] = []

    @Option(help: "PEM roots to trust for TLS (default: the system's).")
    var trust: String?

    @Option(help: "Connect to ADDR[:PORT] for HOST instead of asking DNS (repeatable).")
    var resolve: [String] = []

    @Option(help: "The state folder of kclab up: trust its world's web root and reach its websites (nginx).")
    var state: String?

    func validate() throws {
        if file == nil, !includes.isEmpty {
            throw ValidationError("--include gives local copies for --file; a fetched list's includes are fetched")
        }
        _ = try source()
    }

    func source() throws -> WebAsset {
        do {
            return try WebAsset(argument: site)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// How the list was served (n/a for a local file) and its statements, includes followed.
    func statements() async throws -> (source: WebAsset, served: [AssetLinksFinding], resolved: ResolvedStatements) {
        let source = try source()
        guard let file else {
            let roots = try SiteOptions.trustRoots(trust: trust, state: state)
            let fetcher = AssetLinksFetch.fetcher(trustRoots: roots.tls, resolve: try SiteOptions.resolutions(resolve, state: state))
            let (served, resolved) = await AssetLinksFetch.statements(source, fetcher: fetcher)
            await fetcher.shutdown()
            return (source, served, resolved)
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw fail("cannot read \(file)", code: 2) }
        let copies = try localIncludes()
        let resolved = await ResolvedStatements.resolve(StatementList.read(data), source: source) { url in
            guard let path = copies[url.description.lowercased()] else {
                return .unavailable("a local check reads only what --include URL=FILE gives")
            }
            guard let data = FileManager.default.contents(atPath: path) else { return .failed("cannot read \(path)", .fetchError) }
            return .data(data)
        }
        return (source, StatementListFetch.localFile(url: source.statementListURL), resolved)
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
