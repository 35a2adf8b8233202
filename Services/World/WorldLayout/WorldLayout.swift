public import AppIdentity
public import Foundation

/// Where `kclab world build` puts each artifact inside its output folder. Every tool that reads a
/// built world (kclab, the devices, the services) finds its files through this one type.
///
/// ```
/// OUT/
///   manifest.json                       the inputs of every artifact, so a rebuild changes nothing
///   trust/root-ca.pem                   the root standing in for Apple's (code signing, devices)
///   trust/developer-ca.pem              the developer-relations intermediate
///   trust/device-ca.pem                 the device intermediate
///   trust/web-root-ca.pem               the root standing in for the web CAs devices trust
///   trust/web-ca.pem                    the web intermediate that issues TLS certificates
///   ca/*.key, ca/profile-signing.pem    CA keys and the profile signer (0700 folder)
///   teams/TEAMID/signing.pem|.key       each team's code-signing identity
///   profiles/BUNDLEID.mobileprovision   each app's provisioning profile
///   apps/BUNDLEID.app/                  each app's signed bundle
///   apps/updates/BUNDLEID.app/          the later version of an app that declares `update:`
///   profiles/updates/BUNDLEID.mobileprovision   its profile
///   apps/macos/BUNDLEID.app/            the Mac build of an app the world also builds for iOS
///   profiles/macos/BUNDLEID.mobileprovision     its profile (and apps|profiles/updates/macos/…)
///   devices/ID/device.pem|.key          each device's mutual-TLS identity (chain included)
///   websites/HOST/tls.pem|.key          each host's TLS identity (chain included)
///   websites/HOST/apple-app-site-association   the file the host serves (JSON or signed)
///   websites/HOST/assetlinks.json       the Digital Asset Links file, when the world gives one
///   services/NAME/tls.pem|.key          each service's TLS identity
///   services/NAME/client.pem|.key       a system service's mutual-TLS client identity (webcredentiald),
///                                       or an administrator's (kclab)
///   untrusted/                          a look-alike CA no device trusts, for refusal demos
/// ```
public struct WorldLayout: Sendable, Hashable {
    /// The output folder.
    public let root: URL

    /// A layout rooted at `root`.
    public init(root: URL) {
        self.root = root
    }

    /// The services that get a TLS identity.
    public static let services = ["keychaind", "associationd", "webcredentiald", "cdn", "cloudd"]
    /// The services that run as several replicas: each replica is reached by a name of its own
    /// under `SERVICE.test` (`replica-2.cloudd.test` in docker-compose.scale.yml), which the
    /// service's certificate covers with `*.SERVICE.test`, as CloudKit's partitions
    /// (`pNN-ckdatabasews.icloud.com`) are covered by one wildcard.
    public static let replicatedServices = ["cloudd"]

    /// The host names `service`'s TLS certificate names: `localhost`, the service's own name
    /// (its compose service), and for a replicated service the wildcard over its replicas.
    public static func serviceHosts(_ service: String) -> [String] {
        ["localhost", service] + (replicatedServices.contains(service) ? ["*.\(service).test"] : [])
    }

    /// The services that also get a client identity, to call keychaind and associationd for the
    /// devices (issued by the device CA with the system-service role).
    public static let systemServices = ["webcredentiald"]
    /// The lab's operators: a client identity with the administrator role, for keychaind's admin
    /// routes (issued by the device CA): kclab, and the console, which reads its audit.
    public static let administrators = ["kclab", "console"]

    public static let manifestFile = "manifest.json"
    public static let rootCA = "trust/root-ca.pem"
    public static let developerCA = "trust/developer-ca.pem"
    public static let deviceCA = "trust/device-ca.pem"
    public static let webRootCA = "trust/web-root-ca.pem"
    public static let webCA = "trust/web-ca.pem"
    public static let profileSigner = "ca/profile-signing.pem"

    /// The key beside a certificate: `x.pem` → `x.key`.
    public static func key(for certificate: String) -> String {
        String(certificate.dropLast(4)) + ".key"
    }

    public static func teamCertificate(_ team: TeamID) -> String { "teams/\(team)/signing.pem" }
    /// An app's profile; `update` for its later version, `macBuild` for the Mac build of an app
    /// that also has an iOS build (each build is signed under a profile of its own).
    public static func profile(_ bundleID: BundleID, update: Bool = false, macBuild: Bool = false) -> String {
        "profiles/\(variant(update: update, macBuild: macBuild))\(bundleID).mobileprovision"
    }
    /// An app's signed bundle; `update` and `macBuild` as for ``profile(_:update:macBuild:)``.
    public static func bundle(_ bundleID: BundleID, update: Bool = false, macBuild: Bool = false) -> String {
        "apps/\(variant(update: update, macBuild: macBuild))\(bundleID).app"
    }
    private static func variant(update: Bool, macBuild: Bool) -> String {
        (update ? "updates/" : "") + (macBuild ? "macos/" : "")
    }
    public static func deviceCertificate(_ device: String) -> String { "devices/\(device)/device.pem" }
    /// The folder of a device's identity while signed in to `account` (nil: signed out): its
    /// certificate (`device.pem`), chain (`device-chain.pem`) and the account's keychain key
    /// (`icloud-keychain.key`). The account the world starts it with is the device's own folder;
    /// another it may sign in to is under `accounts/`; signed out, `signed-out/`.
    public static func deviceIdentityFolder(_ device: String, account: String?, worldAccount: String?) -> String {
        if account == worldAccount { return "devices/\(device)" }
        return account.map { "devices/\(device)/accounts/\($0)" } ?? "devices/\(device)/signed-out"
    }
    /// What a device is (ID, UDID, platform, release), for tools that check as it does.
    public static func deviceDescription(_ device: String) -> String { "devices/\(device)/device.json" }
    /// The key of the iCloud account's keychain, as the world builder keeps it.
    public static func accountKeychainKey(_ account: String) -> String { "accounts/\(account)/keychain.key" }
    /// The account's keychain key as a device signed in to it holds it, in the identity folder
    /// of that account (``deviceIdentityFolder(_:account:worldAccount:)``).
    public static func iCloudKeychainKey(identityFolder: String) -> String { "\(identityFolder)/icloud-keychain.key" }
    public static func hostCertificate(_ host: String) -> String { "websites/\(host)/tls.pem" }
    public static func siteAssociation(_ host: String) -> String { "websites/\(host)/apple-app-site-association" }
    /// The Digital Asset Links file a host serves at `/.well-known/assetlinks.json`.
    public static func assetLinks(_ host: String) -> String { "websites/\(host)/assetlinks.json" }
    public static func serviceCertificate(_ service: String) -> String { "services/\(service)/tls.pem" }
    public static func systemServiceCertificate(_ service: String) -> String { "services/\(service)/client.pem" }

    /// The trust folder `kclab bundle verify --trust` expects.
    public var trustDirectory: URL { root.appending(path: "trust") }

    /// A path inside the output folder.
    public func url(_ relative: String) -> URL {
        root.appending(path: relative)
    }
}
