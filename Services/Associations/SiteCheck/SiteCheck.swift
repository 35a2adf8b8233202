public import AssetLinks
public import CMSSupport
public import Foundation
public import NIOSSL
import SiteAssociation
public import SiteAssociationFetch

/// Both files of one site, fetched as each platform fetches its own: the association file as an
/// iOS device in developer mode asks the site (128 KB, 10 s), the asset-links file as Google's API
/// and Android do (1 MiB, 5 s, includes followed).
public enum SiteCheck {
    /// Checks `authority` (a host, with a port when not 443) for the iOS app `appID` and the
    /// Android app `app`; `trustRoots` (nil: the system's) for TLS, `trust` for signed files;
    /// `verdict` says whose reading of the Android file decides (Android's verifier, Google's API
    /// or both), and both stay in the report.
    public static func run(
        authority: String,
        appID: String,
        app: AndroidAppAsset,
        trustRoots: [NIOSSLCertificate]?,
        trust: TrustStore,
        resolve: Resolutions.Map,
        verdict: AssetLinksReport.Verdict = .both,
        now: Date = Date()
    ) async throws(AssetLinksProblem) -> SiteCheckReport {
        let source = try WebAsset(secureHost: authority)
        let appleFetcher = SiteFetcher(trustRoots: trustRoots, resolve: resolve)
        let attempts = await appleFetcher.fetchFile(SiteFetcher.locations(for: authority))
        await appleFetcher.shutdown()
        let apple = SiteEvaluator(host: source.host, trust: trust, now: now).evaluate(attempts, service: .webcredentials, appID: appID)
        let fetcher = AssetLinksFetch.fetcher(trustRoots: trustRoots, resolve: resolve)
        let android = await AssetLinksFetch.report(source, app: app, relations: [.handleAllURLs, .getLoginCreds], verdict: verdict, fetcher: fetcher)
        await fetcher.shutdown()
        return SiteCheckReport(host: authority.lowercased(), appID: appID, app: app, apple: apple, android: android)
    }
}

extension SiteCheck {
    /// Judges local copies of both files as if `authority` served them (200, each typed as its
    /// format wants), without fetching: the transport rules do not apply, and an include of the
    /// asset-links file is not read.
    public static func local(
        authority: String,
        appID: String,
        app: AndroidAppAsset,
        aasa: Data,
        assetLinks: Data,
        trust: TrustStore,
        verdict: AssetLinksReport.Verdict = .both,
        now: Date = Date()
    ) async throws(AssetLinksProblem) -> SiteCheckReport {
        let source = try WebAsset(secureHost: authority)
        let apple = SiteEvaluator(host: source.host, trust: trust, now: now).evaluateLocal(
            aasa,
            url: "https://\(authority.lowercased())/.well-known/apple-app-site-association",
            service: .webcredentials,
            appID: appID
        )
        let resolved = await ResolvedStatements.resolve(StatementList.read(assetLinks), source: source) { _ in
            .unavailable("a local check reads no included file")
        }
        let android = AssetLinksReport(
            source: source,
            served: StatementListFetch.localFile(url: source.statementListURL),
            resolved: resolved,
            app: app,
            relations: [.handleAllURLs, .getLoginCreds],
            verdict: verdict
        )
        return SiteCheckReport(host: authority.lowercased(), appID: appID, app: app, apple: apple, android: android)
    }
}
