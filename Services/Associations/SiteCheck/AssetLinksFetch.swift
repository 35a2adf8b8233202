public import AssetLinks
public import Foundation
public import NIOSSL
public import SiteAssociation
public import SiteAssociationFetch

/// Fetching a site's Digital Asset Links file and its includes as Google's API and Android do:
/// HTTPS with the given roots, no redirect followed, at most 1 MiB, 5 s to connect and to read
/// (StatementService's UrlFetcher); one implementation for `kclab assetlinks check`,
/// `kclab site check` and the demo.
public enum AssetLinksFetch {
    /// A fetcher with Android's limits.
    public static func fetcher(trustRoots: [NIOSSLCertificate]?, resolve: [String: (address: String, port: Int?)]) -> SiteFetcher {
        SiteFetcher(
            trustRoots: trustRoots,
            resolve: resolve,
            timeout: .seconds(5),
            userAgent: "KeychainLab assetlinks check",
            maximumSize: StatementList.maximumSize
        )
    }

    /// The report on `source`'s list, its includes fetched with `fetcher`, for `app` by `relations`.
    public static func report(
        _ source: WebAsset,
        app: AndroidAppAsset?,
        relations: [AssetRelation],
        verdict: AssetLinksReport.Verdict = .both,
        fetcher: SiteFetcher
    ) async -> AssetLinksReport {
        let (served, resolved) = await statements(source, fetcher: fetcher)
        return AssetLinksReport(source: source, served: served, resolved: resolved, app: app, relations: relations, verdict: verdict)
    }

    /// How `source`'s list was served, and its statements with the includes followed.
    public static func statements(_ source: WebAsset, fetcher: SiteFetcher) async -> (served: [AssetLinksFinding], resolved: ResolvedStatements) {
        let top = judged(await fetcher.fetch(source.statementListURL))
        let list = top.body.map { StatementList.read($0) } ?? StatementList()
        let resolved = await ResolvedStatements.resolve(list, source: source) { url in
            let included = judged(await fetcher.fetch(url.description))
            guard let body = included.body else {
                let failure = included.findings.first { $0.result == .fail }
                return .failed(failure?.detail ?? "no answer", failure?.code ?? .fetchError)
            }
            return .data(body)
        }
        return (top.findings, resolved)
    }

    /// A fetch as the asset-links rules judge it.
    public static func judged(_ attempt: FetchAttempt) -> (findings: [AssetLinksFinding], body: Data?) {
        let fetch: StatementListFetch =
            switch attempt.outcome {
            case .response(let status, let type, let location, let body, let truncated):
                .response(status: status, contentType: type, location: location, body: body, truncated: truncated)
            case .untrustedServer(let reason): .untrusted(reason)
            case .timeout: .timeout
            case .unreachable(let reason): .unreachable(reason)
            }
        return fetch.judged(url: attempt.url)
    }
}
