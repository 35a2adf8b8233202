import ArgumentParser
import CMSSupport
import DeviceProtocol
import Foundation
import LabControl
import NIOSSL
import SiteAssociationFetch

/// How `kclab aasa check` and `kclab assetlinks check` reach a site: the roots it must chain to
/// (`--trust`, or a lab's web root with `--state`, else the system's) and where to connect
/// (`--resolve`, and a lab's websites with `--state`; in the compose lab, DNS).
enum SiteOptions {
    /// The TLS roots (nil: the system's) and the same roots for CMS signatures.
    static func trustRoots(trust: String?, state: String?) throws -> (tls: [NIOSSLCertificate]?, cms: TrustStore) {
        let labRoots = state.map { LabState(root: URL(fileURLWithPath: $0)).builtWorld.appending(path: "trust/web-root-ca.pem").path }
        let given = trust ?? labRoots
        let path = given ?? "/etc/ssl/certs/ca-certificates.crt"
        guard let pem = FileManager.default.contents(atPath: path) else {
            if trust == nil, let state {
                throw ValidationError("no lab was built in \(state) (\(path) is missing): start one with kclab up --world FILE --state \(state)")
            }
            throw ValidationError("cannot read the trust roots at \(path)")
        }
        do {
            let store = try TrustStore(pem: pem)
            let tls = given == nil ? nil : try NIOSSLCertificate.fromPEMBytes(Array(pem))
            return (tls, store)
        } catch {
            throw ValidationError("\(path) holds no PEM certificate: \(error)")
        }
    }

    /// `--resolve` entries, and with `--state` the lab's websites (given entries win).
    static func resolutions(_ entries: [String], state: String?) throws -> Resolutions.Map {
        var map: Resolutions.Map
        do {
            map = try Resolutions.parse(entries)
        } catch {
            throw ValidationError(error.description)
        }
        if let state {
            let lab = LabState(root: URL(fileURLWithPath: state))
            if let site = SiteRecord.read(lab) {
                map.merge(site.resolutions) { given, _ in given }
            } else if LabRecord.read(lab) != nil {
                throw fail("no websites run in \(state): start them with kclab up (nginx must be installed)", code: 2)
            }
            // Else a lab kclab up did not start (the compose lab): its hosts resolve by DNS, to
            // the nginx service whose network aliases they are.
        }
        return map
    }
}
