// swift-tools-version: 6.2
// KeychainLab: Apple's keychain sharing, associated domains and shared web credentials, on Linux.
import PackageDescription

/// Settings every Swift target shares (docs/style.md, habit 9).
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

/// The package each product of another package comes from, so that a target names a product once:
/// `product("NIOCore")`.
let productPackages: [String: String] = [
    "ArgumentParser": "swift-argument-parser",
    "AsyncHTTPClient": "async-http-client",
    "Crypto": "swift-crypto",
    "CryptoExtras": "swift-crypto",
    "GRDB": "GRDB.swift",
    "Histogram": "hdrhistogram-swift",
    "GRDBSQLite": "GRDB.swift",
    "HTTPTypes": "swift-http-types",
    "Hummingbird": "hummingbird",
    "HummingbirdTLS": "hummingbird",
    "HummingbirdTesting": "hummingbird",
    "Logging": "swift-log",
    "Metrics": "swift-metrics",
    "Mustache": "swift-mustache",
    "NIOCore": "swift-nio",
    "NIOExtras": "swift-nio-extras",
    "NIOHTTP1": "swift-nio",
    "NIOHTTPCompression": "swift-nio-extras",
    "NIOPosix": "swift-nio",
    "NIOSSL": "swift-nio-ssl",
    "PostgresNIO": "postgres-nio",
    "Prometheus": "swift-prometheus",
    "ServiceLifecycle": "swift-service-lifecycle",
    "SwiftASN1": "swift-asn1",
    "UnixSignals": "swift-service-lifecycle",
    "X509": "swift-certificates",
    "Yams": "Yams",
]

/// A dependency on another package's product, found in ``productPackages``; with `traits`, under
/// those traits only.
func product(_ name: String, when traits: Set<String>? = nil) -> Target.Dependency {
    guard let package = productPackages[name] else { fatalError("Package.swift: add \(name) to productPackages") }
    return .product(name: name, package: package, condition: traits.flatMap { .when(traits: $0) })
}

let package = Package(
    name: "KeychainLab",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "kclab", targets: ["kclab"]),
        .library(name: "AppIdentity", targets: ["AppIdentity"]),
        .library(name: "KeychainLabSecurity", targets: ["KeychainLabSecurity"]),
        .library(name: "KeychainLab", targets: ["KeychainLab"]),
        .library(name: "Security", targets: ["Security"]),
        .library(name: "AuthenticationServices", targets: ["AuthenticationServices"]),
    ],
    /// `SecurityAfterX509` (on by default) orders this package's own build (see the `Security`
    /// target). A package that uses only the app-side products (`Security`, `KeychainLab`) turns
    /// the default traits off, `.package(…, traits: [])`, and builds none of the certificate
    /// libraries (docs/testing-your-package.md).
    traits: [
        .trait(name: "SecurityAfterX509", description: "Compile swift-certificates' X509 before the Security module."),
        .default(enabledTraits: ["SecurityAfterX509"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // MARK: Services: the libraries holding the rules

        /// OpenSSL's libcrypto, for CMS (see docs/architecture.md, "Choices of dependency").
        .systemLibrary(
            name: "COpenSSL",
            path: "Services/Identity/COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        /// The one error shape of the libraries (`CodedError`): a code, a message and a cause.
        .target(
            name: "LabErrors",
            path: "Services/Support/LabErrors",
            swiftSettings: strictSettings
        ),
        /// CMS signing and verification over OpenSSL: profiles, code signatures, signed AASA files.
        .target(
            name: "CMSSupport",
            dependencies: ["LabErrors", "COpenSSL"],
            path: "Services/Identity/CMSSupport",
            swiftSettings: strictSettings
        ),
        /// Associated domains: entitlement entries, the AASA file model, and the rules that decide
        /// a site's verdict (spec associations.md a–c), shared by associationd and kclab.
        /// A strict JSON reader that keeps each value's line and column: the association files'
        /// and the asset-link files' reader.
        .target(
            name: "PositionedJSON",
            path: "Services/Associations/PositionedJSON",
            swiftSettings: strictSettings
        ),
        /// Android's Digital Asset Links (`/.well-known/assetlinks.json`): statements, includes,
        /// relations and targets read as Google's API and Android's verifier read them, and the
        /// API's queries (list, check).
        .target(
            name: "AssetLinks",
            dependencies: ["PositionedJSON"],
            path: "Services/Associations/AssetLinks",
            swiftSettings: strictSettings
        ),
        .target(
            name: "SiteAssociation",
            dependencies: ["CMSSupport", "PositionedJSON"],
            path: "Services/Associations/SiteAssociation",
            swiftSettings: strictSettings
        ),
        /// Both files of a site for a team shipping both platforms (`kclab site check`): the
        /// association file for the iOS app, the asset-links file for the Android app, and the
        /// rules that compare them; the asset-links fetch with its includes.
        .target(
            name: "SiteCheck",
            dependencies: ["AssetLinks", "CMSSupport", "SiteAssociation", "SiteAssociationFetch", product("NIOSSL")],
            path: "Services/Associations/SiteCheck",
            swiftSettings: strictSettings
        ),
        /// Fetching association files as a device does (AsyncHTTPClient, no redirects, 128 KB).
        .target(
            name: "SiteAssociationFetch",
            dependencies: [
                "SiteAssociation",
                product("AsyncHTTPClient"),
                product("NIOCore"),
                product("NIOHTTP1"),
                product("NIOHTTPCompression"),
                product("NIOSSL"),
            ],
            path: "Services/Associations/SiteAssociationFetch",
            swiftSettings: strictSettings
        ),
        /// The website fixture: nginx serving a built world's hosts and association files over TLS.
        .target(
            name: "WebsiteFixture",
            dependencies: ["WorldFile", "WorldLayout"],
            path: "Website/Fixture",
            swiftSettings: strictSettings
        ),
        /// WebAuthn: CBOR, COSE ES256 keys, authenticator data, a relying party's checks and what a
        /// platform authenticator writes (passkeys, docs/passkeys.md).
        .target(
            name: "WebAuthn",
            dependencies: [product("Crypto")],
            path: "Services/WebCredentials/WebAuthn",
            swiftSettings: strictSettings
        ),
        /// The login website: accounts with scrypt hashes in SQLite, HTML pages and a JSON API.
        .target(
            name: "LoginService",
            dependencies: [
                "ServiceSupport",
                "WebAuthn",
                "WorldFile",
                product("Crypto"),
                product("CryptoExtras"),
                "SQLiteSupport",
                product("GRDB"),
                product("HTTPTypes"),
                product("Hummingbird"),
                product("Logging"),
                product("NIOCore"),
            ],
            path: "Website/LoginService",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "website",
            dependencies: [
                "ServiceSupport",
                "LoginService",
                "WorldFile",
                product("ArgumentParser"),
                product("Hummingbird"),
                product("Logging"),
            ],
            path: "Website/website",
            swiftSettings: strictSettings
        ),
        /// The checked identifiers (team IDs, bundle IDs, app IDs, access groups) and their errors,
        /// with nothing but LabErrors beneath: the device protocol carries them into every app.
        .target(
            name: "AppIdentifiers",
            dependencies: ["LabErrors"],
            path: "Services/Identity/AppIdentifiers",
            swiftSettings: strictSettings
        ),
        /// Identity: teams, app IDs, entitlements, profiles, code signatures and bundle verification.
        .target(
            name: "AppIdentity",
            dependencies: [
                "AppIdentifiers",
                "LabErrors",
                "CMSSupport",
                product("X509"),
                product("SwiftASN1"),
                product("Crypto"),
            ],
            path: "Services/Identity/AppIdentity",
            swiftSettings: strictSettings
        ),
        /// The world file: teams, apps, devices and websites, read from YAML with line-exact errors.
        .target(
            name: "WorldFile",
            dependencies: [
                "LabErrors",
                "AppIdentity",
                "UserAnswers",
                product("Crypto"),
                product("Yams"),
            ],
            path: "Services/World/WorldFile",
            swiftSettings: strictSettings
        ),
        /// An Xcode project's targets and build settings, read from `project.pbxproj` (the old-style
        /// property list Xcode writes) and expanded as Xcode expands them.
        .target(
            name: "XcodeProject",
            dependencies: ["AppIdentity", "LabErrors"],
            path: "Services/World/XcodeProject",
            swiftSettings: strictSettings
        ),
        /// A real project as a world (`kclab world import`): its apps and their entitlements.
        .target(
            name: "WorldImport",
            dependencies: ["AppIdentity", "LabErrors", "XcodeProject", product("Yams")],
            path: "Services/World/WorldImport",
            swiftSettings: strictSettings
        ),
        /// What the lab's scripted users answer to prompts (`approve`, `pick 2`, `wait 2s then decline`):
        /// the world file's vocabulary and webcredentiald's prompt answers.
        .target(
            name: "UserAnswers",
            path: "Services/WebCredentials/UserAnswers",
            swiftSettings: strictSettings
        ),
        /// Where each artifact of a built world lives: what daemons, devices and tools read, without
        /// the code that writes it.
        .target(
            name: "WorldLayout",
            dependencies: ["AppIdentity"],
            path: "Services/World/WorldLayout",
            swiftSettings: strictSettings
        ),
        /// A world's access groups as a picture (`kclab world graph`): each app's groups in Apple's
        /// order, the groups apps share, laid out as coordinates and rendered as SVG by swift-mustache
        /// from a template embedded in the code, and as text.
        .target(
            name: "WorldGraph",
            dependencies: ["AppIdentity", "WorldBuilder", "WorldFile", product("Mustache")],
            path: "Services/World/WorldGraph",
            resources: [.embedInCode("Templates/overlap.svg.mustache")],
            swiftSettings: strictSettings
        ),
        /// Writes a world's trust material: CAs, team certificates, profiles, signed bundles, TLS identities.
        .target(
            name: "WorldBuilder",
            dependencies: [
                "LabErrors",
                "AppIdentity",
                "CMSSupport",
                "WorldFile",
                "WorldLayout",
                product("X509"),
                product("SwiftASN1"),
                product("Crypto"),
            ],
            path: "Services/World/WorldBuilder",
            swiftSettings: strictSettings
        ),

        /// The values and statuses of the SecItem API, shared by services, devices and apps.
        .target(
            name: "KeychainTypes",
            path: "Services/Keychain/KeychainTypes",
            swiftSettings: strictSettings
        ),
        /// The one decision record every daemon writes and every reader (kclab test, kclab
        /// explain, the console's feed) reads: who asked, the status, the rule, why, the fix.
        .target(
            name: "Decisions",
            dependencies: ["KeychainTypes"],
            path: "Services/Support/Decisions",
            swiftSettings: strictSettings
        ),
        /// The SecItem semantics: query grammar, access-group rules, statuses and result shapes.
        .target(
            name: "KeychainItems",
            dependencies: ["LabErrors", "AppIdentity", "KeychainTypes", "Decisions", product("Crypto")],
            path: "Services/Keychain/KeychainItems",
            swiftSettings: strictSettings
        ),

        /// iCloud Keychain's sync engine (CKKS) per device and view, as a state machine: what
        /// syncs and in which view, the outgoing queue, conflicts, tombstones, offline catch-up.
        .target(
            name: "KeychainSync",
            dependencies: ["KeychainItems", "KeychainTypes"],
            path: "Services/Keychain/KeychainSync",
            swiftSettings: strictSettings
        ),
        /// A device's side of iCloud Keychain: the engine driven against cloudd, items sealed
        /// with the account's key.
        .target(
            name: "KeychainSyncClient",
            dependencies: [
                "KeychainSync", "KeychainItems", "KeychainTypes", "KeychainAPI", "CloudAPI", "DeviceProtocol", "ServiceSupport", product("Crypto"),
                product("NIOHTTP1"),
            ],
            path: "Services/Keychain/KeychainSyncClient",
            swiftSettings: strictSettings
        ),
        /// The CloudKit-like service's rules for a zone: atomic batches checked against change
        /// tags, changes since a token, over a storage protocol.
        .target(
            name: "CloudZones",
            dependencies: ["StableHash"],
            path: "Services/Cloud/CloudZones",
            swiftSettings: strictSettings
        ),
        /// FNV-1a: a hash that is the same everywhere (shards, apps' user IDs).
        .target(
            name: "StableHash",
            path: "Services/Support/StableHash",
            swiftSettings: strictSettings
        ),

        /// How the daemons open SQLite (GRDB, WAL).
        .target(
            name: "SQLiteSupport",
            dependencies: [product("GRDB")],
            path: "Services/Support/SQLiteSupport",
            swiftSettings: strictSettings
        ),
        /// cloudd's zones in SQLite (GRDB, WAL), behind CloudZones' storage protocol.
        .target(
            name: "CloudStore",
            dependencies: ["CloudZones", "SQLiteSupport", product("GRDB")],
            path: "Services/Cloud/CloudStore",
            swiftSettings: strictSettings
        ),
        /// `kclab fleet`: thousands of light simulated devices against the lab's services (docs/scale.md).
        .target(
            name: "Fleet",
            dependencies: [
                "AppIdentifiers", "AppIdentity", "AssociationAPI", "KeychainAPI", "KeychainCallChannel", "KeychainItems", "KeychainSync",
                "KeychainSyncClient", "KeychainTypes", "LabErrors", "ServiceSupport", "SiteAssociation", "UserAnswers", "WebCredentialAPI",
                "WorldBuilder",
                "WorldFile", "WorldLayout",
                product("Crypto"), product("Histogram"), product("AsyncHTTPClient"), product("NIOHTTP1"), product("NIOSSL"), product("Yams"),
            ],
            path: "Tools/Fleet",
            swiftSettings: strictSettings
        ),
        /// A PostgreSQL server of the lab's own (initdb, pg_ctl): for tests and `make scale-demo`.
        .target(
            name: "PostgresInstance",
            path: "Services/Support/PostgresInstance",
            swiftSettings: strictSettings
        ),
        /// cloudd's zones in PostgreSQL (postgres-nio), behind the same storage protocol.
        .target(
            name: "CloudPostgres",
            dependencies: ["CloudZones", product("PostgresNIO"), product("NIOCore"), product("NIOSSL"), product("Logging")],
            path: "Services/Cloud/CloudPostgres",
            swiftSettings: strictSettings
        ),

        /// Keychain items at rest: SQLite through GRDB (WAL), sealed with per-keychain AES-GCM keys.
        .target(
            name: "KeychainStore",
            dependencies: [
                "LabErrors",
                "KeychainItems",
                "KeychainTypes",
                product("GRDB"),
                product("GRDBSQLite"),
                product("Crypto"),
            ],
            path: "Services/Keychain/KeychainStore",
            swiftSettings: strictSettings
        ),

        /// What every service shares: TLS identities from a built world, device identity from mutual
        /// TLS, endpoint files, logging.
        .target(
            name: "ServiceSupport",
            dependencies: [
                product("ArgumentParser"),
                product("ServiceLifecycle"),
                product("UnixSignals"),
                "AppIdentity",
                "LabErrors",
                "ServiceMetrics",
                "WorldLayout",
                product("AsyncHTTPClient"),
                product("Hummingbird"),
                product("HummingbirdTLS"),
                product("NIOCore"),
                product("NIOHTTP1"),
                product("NIOPosix"),
                product("NIOSSL"),
                product("Logging"),
                product("X509"),
            ],
            path: "Services/Support/ServiceSupport",
            swiftSettings: strictSettings
        ),
        /// keychaind's API types, shared by keychaind and devices; openapi.yaml is the contract.
        .target(
            name: "KeychainAPI",
            dependencies: ["AppIdentity", "Decisions", "KeychainItems", "KeychainTypes", "LabErrors"],
            path: "Services/Keychain/KeychainAPI",
            exclude: ["openapi.yaml"],
            swiftSettings: strictSettings
        ),
        /// keychaind's call channel: SecItem calls as length-prefixed binary frames on long-lived
        /// mutual-TLS connections, many at once (the fast path between devices and keychaind).
        .target(
            name: "KeychainCallChannel",
            dependencies: [
                "KeychainAPI",
                "KeychainTypes",
                product("NIOCore"),
                product("NIOPosix"),
                product("NIOSSL"),
            ],
            path: "Services/Keychain/KeychainCallChannel",
            swiftSettings: strictSettings
        ),
        /// A daemon's Prometheus metrics endpoint (swift-metrics bootstrapped with swift-prometheus).
        .target(
            name: "ServiceMetrics",
            dependencies: [
                product("ArgumentParser"),
                product("Logging"),
                product("Metrics"),
                product("NIOCore"),
                product("NIOHTTP1"),
                product("NIOPosix"),
                product("Prometheus"),
                product("ServiceLifecycle"),
            ],
            path: "Services/Support/ServiceMetrics",
            swiftSettings: strictSettings
        ),
        /// keychaind's routes: device reports, app registration from signatures, the four SecItem calls.
        .target(
            name: "KeychainService",
            dependencies: [
                "WorldLayout",
                "AppIdentity",
                "Decisions",
                "KeychainAPI",
                "CMSSupport",
                "KeychainItems",
                "KeychainStore",
                "KeychainTypes",
                "KeychainCallChannel",
                "ServiceMetrics",
                "ServiceSupport",
                product("Hummingbird"),
                product("Metrics"),
                product("Logging"),
                product("Crypto"),
                product("CryptoExtras"),
                product("NIOCore"),
                product("NIOPosix"),
                product("NIOSSL"),
                product("ServiceLifecycle"),
                product("UnixSignals"),
            ],
            path: "Services/Keychain/KeychainService",
            swiftSettings: strictSettings
        ),
        /// associationd's API: what devices send and what they get back.
        .target(
            name: "AssociationAPI",
            dependencies: ["AppIdentity", "LabErrors", "SiteAssociation"],
            path: "Services/Associations/AssociationAPI",
            exclude: ["openapi.yaml"],
            swiftSettings: strictSettings
        ),
        /// associationd's logic: verify each app's associated domains, keep and retry the results.
        .target(
            name: "AssociationService",
            dependencies: [
                "LabErrors",
                product("ServiceLifecycle"),
                "WorldLayout",
                "ServiceMetrics",
                product("Metrics"),
                "AppIdentity",
                "AssociationAPI",
                "CMSSupport",
                "SiteAssociation",
                "SiteAssociationFetch",
                "ServiceSupport",
                "SQLiteSupport",
                product("GRDB"),
                product("Hummingbird"),
                product("HummingbirdTLS"),
                product("Logging"),
                product("NIOCore"),
                product("NIOSSL"),
            ],
            path: "Services/Associations/AssociationService",
            swiftSettings: strictSettings
        ),
        /// webcredentiald's API: what devices send, and the prompts and outcomes they get back.
        .target(
            name: "WebCredentialAPI",
            dependencies: ["AppIdentity", "KeychainTypes", "LabErrors", "StableHash", "UserAnswers"],
            path: "Services/WebCredentials/WebCredentialAPI",
            exclude: ["openapi.yaml"],
            swiftSettings: strictSettings
        ),
        /// Shared web credentials: SecAddSharedWebCredential and SecRequestSharedWebCredential's
        /// rules by OS release, the stored items and the prompts (spec associations.md d).
        .target(
            name: "WebCredentials",
            dependencies: [
                "UserAnswers",
                "AppIdentity", "KeychainTypes", "SiteAssociation", "WebAuthn", "WebCredentialAPI",
                product("Crypto"),
            ],
            path: "Services/WebCredentials/WebCredentials",
            swiftSettings: strictSettings
        ),
        /// webcredentiald's service: verifies the calling app, runs the broker against keychaind and
        /// associationd, keeps user approvals.
        .target(
            name: "WebCredentialService",
            dependencies: [
                product("ServiceLifecycle"),
                "WorldLayout",
                "ServiceMetrics",
                product("Metrics"),
                "AppIdentity",
                "AssociationAPI",
                "CMSSupport",
                "KeychainAPI",
                "KeychainTypes",
                "ServiceSupport",
                "WebCredentialAPI",
                "WebCredentials",
                "SQLiteSupport",
                product("GRDB"),
                product("Hummingbird"),
                product("HummingbirdTLS"),
                product("Logging"),
                product("NIOCore"),
                product("NIOHTTP1"),
            ],
            path: "Services/WebCredentials/WebCredentialService",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "webcredentiald",
            dependencies: [
                "ServiceMetrics",
                "ServiceSupport",
                "WebCredentialService",
                product("ArgumentParser"),
                product("Hummingbird"),
                product("Logging"),
            ],
            path: "Services/WebCredentials/webcredentiald",
            swiftSettings: strictSettings
        ),
        /// The Apple-like CDN: association files fetched from each site and cached.
        .target(
            name: "AppleCDN",
            dependencies: [
                product("ServiceLifecycle"),
                "ServiceSupport",
                "SiteAssociation",
                "SiteAssociationFetch",
                product("Hummingbird"),
                product("HummingbirdTLS"),
                product("HTTPTypes"),
                product("Logging"),
                product("NIOCore"),
                product("NIOHTTP1"),
            ],
            path: "Services/Associations/AppleCDN",
            swiftSettings: strictSettings
        ),
        /// cloudd's wire forms and problem codes (openapi.yaml).
        .target(
            name: "CloudAPI",
            dependencies: ["LabErrors"],
            path: "Services/Cloud/CloudAPI",
            exclude: ["openapi.yaml"],
            swiftSettings: strictSettings
        ),
        /// cloudd's server: zones per iCloud account behind mutual TLS, changes, waits.
        .target(
            name: "CloudService",
            dependencies: [
                "CloudAPI", "CloudPostgres", "CloudStore", "CloudZones", "LabErrors", "ServiceMetrics", "ServiceSupport",
                product("Hummingbird"), product("Logging"), product("Metrics"), product("NIOCore"), product("NIOPosix"), product("ServiceLifecycle"),
            ],
            path: "Services/Cloud/CloudService",
            swiftSettings: strictSettings
        ),
        /// cloudd: the CloudKit-like service iCloud Keychain syncs through (docs/icloud-keychain.md).
        .executableTarget(
            name: "cloudd",
            dependencies: ["CloudService", "ServiceMetrics", "ServiceSupport", product("ArgumentParser"), product("Logging")],
            path: "Services/Cloud/cloudd",
            swiftSettings: strictSettings
        ),
        /// The console's pages (docs/console.md): the lab's world and the overlap of its access
        /// groups, rendered on the server by swift-mustache from templates embedded in the code,
        /// behind a token exchanged for a cookie, on loopback only.
        .target(
            name: "ConsoleService",
            dependencies: [
                "AppIdentifiers", "AppIdentity", "AssociationAPI", "Decisions", "KeychainAPI", "KeychainTypes", "ServiceSupport", "WorldFile",
                "WorldGraph",
                product("HTTPTypes"), product("Hummingbird"), product("Logging"), product("Mustache"), product("NIOCore"),
                product("NIOSSL"), product("ServiceLifecycle"),
            ],
            path: "Services/Console/ConsoleService",
            resources: [
                .embedInCode("Templates/layout.html.mustache"),
                .embedInCode("Templates/world.html.mustache"),
                .embedInCode("Templates/overlap.html.mustache"),
                .embedInCode("Templates/decisions.html.mustache"),
                .embedInCode("Templates/devices.html.mustache"),
                .embedInCode("Templates/device.html.mustache"),
                .embedInCode("Templates/associations.html.mustache"),
                .embedInCode("Templates/console.css"),
                .embedInCode("Templates/console.js"),
            ],
            swiftSettings: strictSettings
        ),
        /// console: the lab's pages for a browser on this machine (docs/console.md).
        .executableTarget(
            name: "console",
            dependencies: ["ConsoleService", "ServiceSupport", product("ArgumentParser"), product("Logging")],
            path: "Services/Console/console",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "associationd",
            dependencies: [
                "ServiceMetrics",
                "ServiceSupport",
                "AssociationAPI",
                "AssociationService",
                "SiteAssociation",
                "SiteAssociationFetch",
                product("ArgumentParser"),
                product("Hummingbird"),
                product("Logging"),
            ],
            path: "Services/Associations/associationd",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "cdn",
            dependencies: [
                "ServiceSupport",
                "AppleCDN",
                "SiteAssociationFetch",
                product("ArgumentParser"),
                product("Hummingbird"),
                product("Logging"),
            ],
            path: "Services/Associations/cdn",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "keychaind",
            dependencies: [
                "ServiceMetrics",
                "KeychainService",
                product("Hummingbird"),
                "ServiceSupport",
                product("ArgumentParser"),
                product("Logging"),
                product("NIOCore"),
                product("NIOPosix"),
            ],
            path: "Services/Keychain/keychaind",
            swiftSettings: strictSettings
        ),

        // MARK: Devices

        /// The messages between apps (or kclab) and their device, and a blocking line-socket client.
        .target(
            name: "DeviceProtocol",
            dependencies: ["AppIdentifiers", "KeychainTypes"],
            path: "Devices/DeviceProtocol",
            swiftSettings: strictSettings
        ),
        /// Apple's SecItem API for apps, under KeychainLab's own module name.
        .target(
            name: "KeychainLabSecurity",
            dependencies: ["DeviceProtocol", "KeychainTypes"],
            path: "Devices/KeychainLabSecurity",
            swiftSettings: strictSettings
        ),
        /// KeychainLab's own Swift API beside Apple's: `Keychain`, `KeychainError`, typed access groups.
        /// Its own module, so that `import Security` holds Apple's names only and a wrapper that
        /// defines its own `Keychain` compiles unchanged.
        .target(
            name: "KeychainLab",
            dependencies: ["AppIdentifiers", "DeviceProtocol", "KeychainLabSecurity"],
            path: "Devices/KeychainLab",
            swiftSettings: strictSettings
        ),
        /// `import AuthenticationServices` on Linux: Apple's passkey API (ASAuthorizationController,
        /// the platform public-key credential provider, its requests and credentials, and
        /// ASAuthorizationError), performed by the device (docs/passkeys.md).
        .target(
            name: "AuthenticationServices",
            dependencies: ["DeviceProtocol", "KeychainLabSecurity", "KeychainTypes", "WebAuthn"],
            path: "Devices/AuthenticationServices",
            swiftSettings: strictSettings
        ),
        /// `import Security` on Linux: re-exports KeychainLabSecurity.
        ///
        /// A module named Security makes `#if canImport(Security)` true for every module compiled
        /// after it in this build (spec security-module.md §4.3, pitfall 7), and swift-certificates'
        /// X509 then takes its Apple branch and fails. Depending on X509 makes the build compile X509
        /// first, while Security does not exist yet; X509 is the only dependency that asks. A package
        /// that builds only the app side has no X509 to order: it turns the trait off.
        .target(
            name: "Security",
            dependencies: ["KeychainLabSecurity", product("X509", when: ["SecurityAfterX509"])],
            path: "Devices/Security",
            swiftSettings: strictSettings
        ),
        /// The device: installs verified bundles, launches apps, forwards their calls to keychaind.
        .target(
            name: "DeviceRuntime",
            dependencies: [
                "StableHash",
                "UserAnswers",
                "WorldLayout",
                "AppIdentity",
                "CMSSupport",
                "DeviceProtocol",
                "AssociationAPI",
                "KeychainAPI",
                "KeychainCallChannel",
                "KeychainSyncClient",
                "KeychainTypes",
                "ServiceSupport",
                "SiteAssociation",
                "WebCredentialAPI",
                "WorldFile",
                product("AsyncHTTPClient"),
                product("NIOCore"),
                product("NIOPosix"),
                product("NIOExtras"),
                product("NIOHTTP1"),
                product("NIOSSL"),
                product("Logging"),
            ],
            path: "Devices/DeviceRuntime",
            swiftSettings: strictSettings
        ),
        /// Landlock's system calls, for the app sandbox.
        .target(name: "CLandlock", path: "Devices/CLandlock"),
        /// app-sandbox: what a device starts an app through, confined with Landlock to the system's
        /// folders, its own and a private temporary folder (docs/reliability.md, "Apps in a sandbox").
        .executableTarget(
            name: "app-sandbox",
            dependencies: ["CLandlock"],
            path: "Devices/AppSandbox",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "device",
            dependencies: [
                "ServiceSupport",
                "DeviceRuntime",
                product("ArgumentParser"),
                product("Logging"),
                product("NIOCore"),
                product("NIOPosix"),
            ],
            path: "Devices/device",
            swiftSettings: strictSettings
        ),

        /// How apps reach the lab's websites: the device's trust roots and DNS, cookies, forms.
        .target(
            name: "DeviceNetwork",
            dependencies: [
                "AuthenticationServices",
                "DeviceProtocol",
                "WebAuthn",
                product("AsyncHTTPClient"),
                product("NIOCore"),
                product("NIOHTTP1"),
                product("NIOSSL"),
            ],
            path: "Devices/DeviceNetwork",
            swiftSettings: strictSettings
        ),
        /// The browser: signs in on websites' forms, saves and fills passwords in com.apple.cfnetwork.
        .executableTarget(
            name: "browser",
            dependencies: ["AuthenticationServices", "DeviceNetwork", "KeychainLab", "Security", "WebAuthn"],
            path: "Devices/Apps/Browser",
            swiftSettings: strictSettings
        ),
        /// An app that makes any SecItem call given as JSON, through the Security module.
        .executableTarget(
            name: "keychainlab-app",
            dependencies: ["KeychainLab", "Security"],
            path: "Devices/Apps/ScriptableApp",
            swiftSettings: strictSettings
        ),

        /// The seeds' code, unchanged: seed 000's add and query, seed 001's KeyChainAccessGroupHelper.
        /// It draws the same warning Apple's compiler gives it (an implicitly unwrapped CFBoolean
        /// coerced to Any); warnings are suppressed here alone, so the rest of the build stays strict.
        .target(
            name: "SeedSnippets",
            dependencies: ["Security"],
            path: "Devices/Apps/SeedSnippets",
            swiftSettings: [.swiftLanguageMode(.v6), .unsafeFlags(["-suppress-warnings"])]
        ),
        /// The program the demo world's apps run: the seeds' stories, one subcommand each.
        .executableTarget(
            name: "demo-app",
            dependencies: ["AuthenticationServices", "DeviceNetwork", "KeychainLab", "Security", "SeedSnippets", "WebAuthn"],
            path: "Devices/Apps/DemoApp",
            swiftSettings: strictSettings
        ),

        /// A subset of macOS's `security` command for a Mac's login keychain, run as a macOS app.
        .executableTarget(
            name: "security-tool",
            dependencies: ["Security"],
            path: "Devices/Apps/SecurityTool",
            swiftSettings: strictSettings
        ),
        /// A wrapper written as the open-source ones are, with its own `Keychain` type, and the
        /// program that runs it on a device (WrapperPatternTests; docs/keychain.md).
        .target(
            name: "MiniKeychainWrapper",
            dependencies: ["Security"],
            path: "Devices/Apps/WrapperPatterns/MiniKeychainWrapper",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "wrapper-patterns",
            dependencies: ["MiniKeychainWrapper", "Security"],
            path: "Devices/Apps/WrapperPatterns/App",
            swiftSettings: strictSettings
        ),

        // MARK: Tools

        /// Running a world: keychaind and devices as background processes, and talking to them.
        .target(
            name: "LabControl",
            dependencies: [
                "WorldLayout", "CLandlock", "DeviceProtocol", "KeychainTypes", "PostgresInstance", "ServiceSupport", "WebsiteFixture", "WorldBuilder",
                "WorldFile",
            ],
            path: "Tools/LabControl",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "kclab",
            dependencies: [
                "AppIdentifiers",
                "Decisions",
                "Fleet",
                "LabErrors",
                "WorldLayout",
                "AppIdentity",
                "DeviceProtocol",
                "KeychainItems",
                "KeychainTypes",
                "LabControl",
                "LoginService",
                "AssociationAPI",
                "SiteAssociation",
                "SiteAssociationFetch",
                "AssetLinks",
                "SiteCheck",
                "CloudAPI",
                "PositionedJSON",
                "KeychainAPI",
                "ServiceSupport",
                "WebAuthn",
                "WebCredentials",
                "WebsiteFixture",
                "WorldFile",
                "WorldBuilder",
                "WorldGraph",
                "WorldImport",
                "XcodeProject",
                product("ArgumentParser"),
                product("NIOSSL"),
                product("NIOHTTP1"),
            ],
            path: "Tools/kclab",
            swiftSettings: strictSettings
        ),

        /// The parsers under fuzzing and the seeds they grow from, shared by both fuzzers.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "WorldLayout",
                "AppIdentity",
                "DeviceProtocol",
                "KeychainAPI",
                "KeychainCallChannel",
                "KeychainTypes",
                "CMSSupport",
                "DeviceNetwork",
                "LoginService",
                "SiteAssociation",
                "AssetLinks",
                "WebAuthn",
                "WorldBuilder",
                "WorldFile",
                "XcodeProject",
                product("Crypto"),
                product("SwiftASN1"),
                product("X509"),
            ],
            path: "Tools/fuzz/Targets",
            swiftSettings: strictSettings
        ),
        /// kclab-fuzz: every parser fed mutated inputs (make fuzz; docs/reliability.md).
        .executableTarget(
            name: "kclab-fuzz",
            dependencies: ["FuzzTargets", product("ArgumentParser")],
            path: "Tools/fuzz/Mutational",
            swiftSettings: strictSettings
        ),
        /// kclab-libfuzzer: the same targets under libFuzzer, coverage-guided (make fuzz-coverage).
        .executableTarget(
            name: "kclab-libfuzzer",
            dependencies: ["FuzzTargets"],
            path: "Tools/fuzz/LibFuzzer",
            swiftSettings: strictSettings
        ),

        // MARK: Tests

        .target(
            name: "WorldTestSupport",
            dependencies: ["WorldLayout", "AppIdentity", "CMSSupport", "WorldFile", "WorldBuilder"],
            path: "Tests/WorldTestSupport",
            swiftSettings: strictSettings
        ),
        // MARK: Benchmarks

        .executableTarget(
            name: "keychain-bench",
            dependencies: [
                "AppIdentity",
                "KeychainItems",
                "KeychainStore",
                "DeviceProtocol",
                "AssociationAPI",
                "KeychainAPI",
                "KeychainCallChannel",
                "KeychainTypes",
                "LabControl",
                "LabErrors",
                "WebCredentialAPI",
                "ServiceSupport",
                product("ArgumentParser"),
                product("AsyncHTTPClient"),
                product("NIOCore"),
                product("NIOPosix"),
                product("NIOHTTP1"),
                product("NIOSSL"),
                product("GRDB"),
            ],
            path: "Benchmarks/KeychainBench",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "sync-bench",
            dependencies: ["DeviceProtocol", "KeychainTypes", "LabControl", product("ArgumentParser")],
            path: "Benchmarks/SyncBench",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "association-bench",
            dependencies: [
                "WorldLayout",
                "CMSSupport",
                "SiteAssociation",
                "SiteAssociationFetch",
                "WebsiteFixture",
                "WorldBuilder",
                "WorldFile",
                product("ArgumentParser"),
                product("NIOSSL"),
            ],
            path: "Benchmarks/AssociationBench",
            swiftSettings: strictSettings
        ),

        .testTarget(
            name: "KeychainSyncTests",
            dependencies: [
                "KeychainSync", "CloudZones", "CloudStore", "CloudPostgres", "KeychainItems", "KeychainTypes", "PostgresInstance",
                product("PostgresNIO"),
                product("Logging"),
            ],
            path: "Tests/KeychainSyncTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CMSSupportTests",
            dependencies: ["LabErrors", "CMSSupport", "WorldTestSupport"],
            path: "Tests/CMSSupportTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppIdentityTests",
            dependencies: ["LabErrors", "AppIdentity", "CMSSupport", "WorldTestSupport"],
            path: "Tests/AppIdentityTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WorldFileTests",
            dependencies: ["AppIdentity", "LabErrors", "UserAnswers", "WebCredentialAPI", "WorldFile", "WorldImport", "XcodeProject"],
            path: "Tests/WorldFileTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WorldGraphTests",
            dependencies: [
                "AppIdentity", "CMSSupport", "WorldBuilder", "WorldFile", "WorldGraph", "WorldImport", "WorldLayout", "WorldTestSupport",
                "XcodeProject",
            ],
            path: "Tests/WorldGraphTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ConsoleServiceTests",
            dependencies: [
                "AppIdentity", "AssociationAPI", "ConsoleService", "Decisions", "KeychainAPI", "KeychainTypes", "WorldFile", "WorldGraph",
                product("HTTPTypes"), product("Hummingbird"), product("HummingbirdTesting"), product("NIOCore"),
            ],
            path: "Tests/ConsoleServiceTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WorldBuilderTests",
            dependencies: [
                "WorldLayout",
                "AppIdentity",
                "CMSSupport",
                "WorldBuilder",
                "WorldFile",
                "WorldTestSupport",
                "ServiceSupport",
                product("Crypto"),
                product("SwiftASN1"),
                product("X509"),
            ],
            path: "Tests/WorldBuilderTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeychainItemsTests",
            dependencies: ["AppIdentity", "KeychainItems", "KeychainTypes"],
            path: "Tests/KeychainItemsTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeychainStoreTests",
            dependencies: [
                "LabErrors",
                "AppIdentity", "KeychainItems", "KeychainStore", "KeychainTypes", "WorldTestSupport",
                product("GRDB"),
            ],
            path: "Tests/KeychainStoreTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "AppIdentifiers",
                "Decisions",
                "WorldLayout",
                "app-sandbox",
                "DeviceProtocol",
                "KeychainAPI",
                "KeychainCallChannel",
                "KeychainTypes",
                "LabControl",
                "ServiceSupport",
                "WorldTestSupport",
                "keychaind",
                "device",
                "cdn",
                "associationd",
                "kclab",
                "keychainlab-app",
                "demo-app",
                "browser",
                "wrapper-patterns",
                "security-tool",
                "webcredentiald",
                "website",
                "cloudd",
                "console",
                "CloudAPI",
                "CloudPostgres",
                "CloudZones",
                "PostgresInstance",
                "KeychainSync",
                "KeychainSyncClient",
                "KeychainItems",
                product("Crypto"),
                "WebsiteFixture",
                "WorldBuilder",
                "WorldFile",
                "WebAuthn",
                product("Yams"),
                product("NIOSSL"),
                product("NIOHTTP1"),
            ],
            path: "Tests/Integration",
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DeviceNetworkTests",
            dependencies: ["DeviceNetwork"],
            path: "Tests/DeviceNetworkTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AssociationServiceTests",
            dependencies: [
                "AssociationAPI", "AssociationService", "AppIdentity", "ServiceSupport", "SiteAssociation", "WorldTestSupport",
                product("ServiceLifecycle"),
                product("ArgumentParser"),
            ],
            path: "Tests/AssociationServiceTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: ["WebAuthn", product("Crypto")],
            path: "Tests/WebAuthnTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LoginServiceTests",
            dependencies: ["LoginService", "WebAuthn", "WorldFile", "WorldTestSupport", product("Crypto")],
            path: "Tests/LoginServiceTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebCredentialsTests",
            dependencies: ["UserAnswers", "AppIdentity", "KeychainTypes", "WebCredentialAPI", "WebCredentials"],
            path: "Tests/WebCredentialsTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppleCDNTests",
            dependencies: ["AppleCDN", "SiteAssociation"],
            path: "Tests/AppleCDNTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SiteAssociationTests",
            dependencies: [
                "SiteAssociation", "SiteAssociationFetch", "CMSSupport", "WorldTestSupport", "PositionedJSON", "AssetLinks", "SiteCheck",
            ],
            path: "Tests/SiteAssociationTests",
            exclude: ["Corpus"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeychainCallChannelTests",
            dependencies: ["KeychainCallChannel", "KeychainAPI", "KeychainTypes"],
            path: "Tests/KeychainCallChannelTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeychainLabSecurityTests",
            dependencies: ["DeviceProtocol", "KeychainLab", "KeychainLabSecurity", "KeychainTypes"],
            path: "Tests/KeychainLabSecurityTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KclabTests",
            dependencies: [
                "WorldLayout",
                "kclab", "keychaind", "device", "app-sandbox", "cdn", "associationd", "webcredentiald", "website", "demo-app", "console",
                "LabControl", "Decisions", "KeychainAPI",
                "WorldTestSupport",
                "ServiceSupport", "WebsiteFixture", "WorldBuilder", "WorldFile", "Fleet",
                product("Histogram"), product("Yams"),
            ],
            path: "Tests/KclabTests",
            swiftSettings: strictSettings
        ),
    ]
)
