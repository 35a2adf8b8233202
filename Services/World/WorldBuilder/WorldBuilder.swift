import AppIdentity
import CMSSupport
public import Foundation
public import LabErrors
public import WorldFile
public import WorldLayout

/// `kclab world build`: writes a world's trust material with real keys and X.509 certificates
/// (see ``WorldLayout`` for where each file goes). Building an unchanged world again changes nothing.
public struct WorldBuilder: Sendable {
    /// The world to build.
    public let world: World
    /// Where to build it.
    public let layout: WorldLayout
    /// The time certificates and profiles are issued at.
    public let now: Date
    /// Where the programs apps name with `program:` are found (KeychainLab's build products).
    public let programs: URL?

    /// A builder writing `world` into `output`.
    public init(world: World, output: URL, now: Date = Date(), programs: URL? = nil) {
        self.world = world
        self.layout = WorldLayout(root: output)
        self.now = now
        self.programs = programs
    }

    /// Writes every artifact whose inputs changed, and removes those the world no longer has.
    public func build() throws(BuildError) -> BuildReport {
        var store = try ArtifactStore(layout: layout)
        let trust = try TrustHierarchy.make(&store, now: now)
        let needsUntrusted = world.apps.contains { !$0.tampering.isDisjoint(with: [.untrustedProfile, .untrustedCertificate]) }
        let untrusted = needsUntrusted ? try TrustHierarchy.makeUntrusted(&store, now: now) : nil

        var signers: [TeamID: Identity] = [:]
        for team in world.teams {
            signers[team.id] = try TrustHierarchy.teamSigner(
                &store,
                team: team,
                path: WorldLayout.teamCertificate(team.id),
                issuer: trust.developerCA,
                now: now
            )
        }
        for app in world.apps.flatMap({ [$0] + ($0.updated.map { [$0] } ?? []) }) {
            guard let team = world.team(app.team), var signer = signers[app.signedBy ?? app.team], var listed = signers[app.team] else {
                throw BuildError(.signing, "\(app.bundleID) names a team the world does not declare")
            }
            if app.tampering.contains(.untrustedCertificate), let untrusted {
                signer = try TrustHierarchy.teamSigner(
                    &store,
                    team: team,
                    path: "untrusted/\(WorldLayout.teamCertificate(team.id))",
                    issuer: untrusted.developerCA,
                    now: now
                )
                listed = signer
            }
            let profileSigner = app.tampering.contains(.untrustedProfile) ? untrusted?.profileSigner ?? trust.profileSigner : trust.profileSigner
            let profile = app.profile.exists ? try writeProfile(app, team: team, listing: listed, signedBy: profileSigner, store: &store) : Data()
            try BundleWriter(app: app, profile: profile, signer: signer, programs: programs).write(&store)
        }
        for device in world.devices {
            let subject = TrustHierarchy.name(device.udid, unit: device.id, organization: "KeychainLab Devices")
            // The account is the certificate's, so a device gets an identity for each account
            // it may be signed in to, and one signed out if it has an account to sign out of.
            var accounts: [String?] = [device.iCloudAccount] + device.otherICloudAccounts.map(Optional.some)
            if device.iCloudAccount != nil { accounts.append(nil) }
            for account in accounts {
                let folder = WorldLayout.deviceIdentityFolder(device.id, account: account, worldAccount: device.iCloudAccount)
                let identity = try store.identity(
                    "\(folder)/device.pem",
                    subject: subject,
                    profile: .client(.device, iCloudAccount: account),
                    issuer: trust.deviceCA,
                    now: now
                )
                _ = try store.put("\(folder)/device-chain.pem", identity.chainPEM)
                if let account {
                    // The account's keychain key, which seals its synced items for cloudd (which
                    // cannot open them), goes to the account's devices only.
                    let key = try store.symmetricKey(WorldLayout.accountKeychainKey(account))
                    _ = try store.put(WorldLayout.iCloudKeychainKey(identityFolder: folder), key, permissions: 0o600)
                }
            }
            let description = DeviceDescription(id: device.id, udid: device.udid, platform: device.platform, osVersion: device.osVersion.description)
            _ = try store.put(WorldLayout.deviceDescription(device.id), description.encoded())
        }
        for site in world.websites {
            var domainIdentity: Identity? = nil
            for (host, aasa) in site.hosts {
                let identity = try store.identity(
                    WorldLayout.hostCertificate(host),
                    subject: TrustHierarchy.name(host, organization: "KeychainLab Websites"),
                    profile: .tlsServer(hosts: [host], loopback: false),
                    issuer: trust.webCA,
                    now: now
                )
                if host == site.domain { domainIdentity = identity }
                _ = try store.put("websites/\(host)/fullchain.pem", identity.chainPEM)
                if let aasa {
                    try SiteAssociationWriter.write(aasa, host: host, identity: identity, store: &store)
                }
                if let assetLinks = site.assetLinks(of: host) {
                    _ = try store.put(WorldLayout.assetLinks(host), assetLinks)
                }
            }
            if site.brokenSites, let assetLinks = site.assetLinks {
                try BrokenSiteWriter.writeAssetLinks(site, base: assetLinks, webCA: trust.webCA, store: &store, now: now)
            }
            if let domainIdentity, site.brokenSites {
                let untrustedWebCA = try TrustHierarchy.makeUntrustedWebCA(&store, now: now)
                try BrokenSiteWriter.write(
                    site,
                    domainIdentity: domainIdentity,
                    webCA: trust.webCA,
                    untrustedWebCA: untrustedWebCA,
                    store: &store,
                    now: now
                )
            }
        }
        for service in WorldLayout.services {
            let identity = try store.identity(
                WorldLayout.serviceCertificate(service),
                subject: TrustHierarchy.name(service, organization: "KeychainLab Services"),
                profile: .tlsServer(hosts: WorldLayout.serviceHosts(service), loopback: true),
                issuer: trust.webCA,
                now: now
            )
            _ = try store.put("services/\(service)/fullchain.pem", identity.chainPEM)
        }
        // Client identities beside the devices': system services act for devices, the operator
        // reads keychaind's admin route; the role marker tells keychaind which.
        let clients =
            WorldLayout.systemServices.map { ($0, CertificateRole.systemService, "KeychainLab System Services") }
            + WorldLayout.administrators.map { ($0, CertificateRole.administrator, "KeychainLab Administrators") }
        for (name, role, organization) in clients {
            let identity = try store.identity(
                WorldLayout.systemServiceCertificate(name),
                subject: TrustHierarchy.name(name, organization: organization),
                profile: .client(role),
                issuer: trust.deviceCA,
                now: now
            )
            _ = try store.put("services/\(name)/client-chain.pem", identity.chainPEM)
        }
        try store.finish()
        return BuildReport(output: layout.root, written: store.written, unchanged: store.unchanged)
    }

    /// The CMS-signed profile of `app`, listing `listed` as its signing certificate.
    private func writeProfile(
        _ app: App,
        team: Team,
        listing listed: Identity,
        signedBy signer: Identity,
        store: inout ArtifactStore
    ) throws(BuildError) -> Data {
        let allowed = ProfileFactory.allowedEntitlements(for: app, team: team)
        let world = self.world
        let devices = (app.profile.devices ?? []).compactMap { world.device($0)?.udid }
        let spec =
            "\(app.name)|\(app.platform)|\(app.appIDPrefix)|\(team.name)|\(app.profile.kind)|\(app.profile.validDays)|\(app.profile.expired)|\(devices)"
        let now = self.now
        return try store.produce(
            WorldLayout.profile(for: app),
            fingerprint: ArtifactStore.fingerprint([
                Data("profile-v1".utf8), Data(spec.utf8), allowed.propertyList, listed.certificateDER, signer.certificateDER,
            ]),
            isCurrent: { data in
                // A profile close to expiry is renewed, unless the world asks for an expired one.
                guard !app.profile.expired else { return true }
                guard let message = try? SignedMessage(der: data), let profile = try? ProvisioningProfile(propertyList: message.content) else {
                    return false
                }
                return profile.expirationDate > now.addingTimeInterval(86_400)
            },
            make: { () throws(BuildError) -> Data in
                let profile = ProfileFactory.profile(for: app, team: team, world: world, certificate: listed.certificateDER, now: now)
                do {
                    return try CMSSigner(certificatePEM: signer.pem, privateKeyPEM: signer.keyPEM, chainPEM: signer.chain).sign(profile.propertyList)
                } catch {
                    throw BuildError(.signing, "cannot sign the profile of \(app.bundleID): \(error)")
                }
            }
        )
    }
}

/// What a build did.
public struct BuildReport: Sendable, Hashable {
    /// The output folder.
    public let output: URL
    /// The files written, relative to the output folder; removed files start with `-`.
    public let written: [String]
    /// How many files were already up to date.
    public let unchanged: Int
}
