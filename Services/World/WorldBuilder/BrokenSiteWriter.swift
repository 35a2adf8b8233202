import Crypto
import Foundation
import WorldFile
import WorldLayout

/// Writes the catalogue of broken sites of a website (`brokenSites: true`): for each host its TLS
/// identity (an expired one, or one from a CA no device trusts, where that is the fault) and the
/// file it serves, derived from the domain's own file. How each is served is the nginx fixture's.
enum BrokenSiteWriter {
    /// The file a site without one of its own starts from.
    static let emptyFile = Data(#"{"webcredentials":{"apps":[]}}"#.utf8)

    static func write(
        _ site: Website,
        domainIdentity: Identity,
        webCA: Identity,
        untrustedWebCA: Identity,
        store: inout ArtifactStore,
        now: Date
    ) throws(BuildError) {
        let base = site.aasa?.json ?? emptyFile
        for (host, kind) in site.brokenHosts {
            let issuer = kind == .untrustedCA ? untrustedWebCA : webCA
            let identity = try store.identity(
                WorldLayout.hostCertificate(host),
                subject: TrustHierarchy.name(host, organization: "KeychainLab Websites"),
                profile: .tlsServer(hosts: [host], loopback: false),
                issuer: issuer,
                now: now,
                expired: kind == .expiredCertificate
            )
            _ = try store.put("websites/\(host)/fullchain.pem", identity.chainPEM)
            if kind == .garbageDER {
                _ = try store.put(WorldLayout.siteAssociation(host), garbage(count: 4096, seed: host))
                continue
            }
            let file = SiteAssociationFile(json: content(kind, base: base), signed: kind == .signedByOtherDomain)
            try SiteAssociationWriter.write(
                file,
                host: host,
                identity: kind == .signedByOtherDomain ? domainIdentity : identity,
                signerHost: kind == .signedByOtherDomain ? site.domain : nil,
                store: &store
            )
        }
    }

    /// Writes the broken Android files of a site whose own file is `base`: each host's TLS identity
    /// and its file (none for the redirect, which nginx answers itself).
    static func writeAssetLinks(_ site: Website, base: Data, webCA: Identity, store: inout ArtifactStore, now: Date) throws(BuildError) {
        for (host, kind) in site.brokenAssetLinksHosts {
            let identity = try store.identity(
                WorldLayout.hostCertificate(host),
                subject: TrustHierarchy.name(host, organization: "KeychainLab Websites"),
                profile: .tlsServer(hosts: [host], loopback: false),
                issuer: webCA,
                now: now
            )
            _ = try store.put("websites/\(host)/fullchain.pem", identity.chainPEM)
            if let file = assetLinksContent(kind, base: base, host: host, domain: site.domain) {
                _ = try store.put(WorldLayout.assetLinks(host), file)
            }
        }
    }

    /// The bytes a broken Android file serves, from the domain's own.
    static func assetLinksContent(_ kind: BrokenAssetLinks, base: Data, host: String, domain: String) -> Data? {
        let path = "/.well-known/assetlinks.json"
        switch kind {
        case .redirect: return nil
        case .wrongContentType: return base
        case .lowercaseFingerprint:
            let text = String(decoding: base, as: UTF8.self)
            return Data(text.replacing(/(?:[0-9A-F]{2}:){31}[0-9A-F]{2}/) { $0.output.lowercased() }.utf8)
        case .includeLoop: return Data(#"[{"include":"https://\#(host)\#(path)"}]"#.utf8)
        case .httpInclude: return Data(#"[{"include":"http://\#(domain)\#(path)"}]"#.utf8)
        case .oversized: return base + Data(repeating: UInt8(ascii: " "), count: max(0, (1 << 20) + 1 - base.count))
        case .objectBody:
            return Data(#"{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"web","site":"https://\#(domain)"}}"#.utf8)
        }
    }

    /// The bytes a broken site serves.
    static func content(_ kind: BrokenSite, base: Data) -> Data {
        switch kind {
        case .oversized: padded(base, to: 131_073)
        case .exactLimit: padded(base, to: 131_072)
        case .invalidJSON: Data(String(decoding: base, as: UTF8.self).dropLast().utf8) + Data(",}".utf8)
        case .byteOrderMark: Data([0xEF, 0xBB, 0xBF]) + base
        case .appMissing: Data(#"{"webcredentials":{"apps":["ZZZZZZZZZZ.com.example.SomeoneElse"]}}"#.utf8)
        case .noTeamPrefix: Data(String(decoding: base, as: UTF8.self).replacing(/"[A-Z0-9]{10}\./, with: "\"").utf8)
        default: base
        }
    }

    /// Bytes that look random and are the same on every build (SHA-256 in counter mode).
    static func garbage(count: Int, seed: String) -> Data {
        var bytes = Data()
        var counter = 0
        while bytes.count < count {
            bytes += Data(SHA256.hash(data: Data("\(seed)#\(counter)".utf8)))
            counter += 1
        }
        return bytes.prefix(count)
    }

    /// `base` with a `pad` member that brings it to exactly `size` bytes.
    static func padded(_ base: Data, to size: Int) -> Data {
        let text = String(decoding: base, as: UTF8.self)
        let rest = text.dropFirst()  // after "{"
        let separator = rest.hasPrefix("}") ? "" : ","
        let overhead = #"{"pad":""#.utf8.count + 1 + separator.utf8.count + rest.utf8.count
        return Data((#"{"pad":""# + String(repeating: "x", count: max(0, size - overhead)) + "\"" + separator + rest).utf8)
    }
}
