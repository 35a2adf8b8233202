public import Foundation
import NIOCore
public import NIOSSL
import WorldLayout

/// TLS configurations built from a world's files (see `WorldLayout`): services present their
/// certificate and demand a device certificate; devices present theirs and trust the web root.
public enum TLSIdentities {
    /// A service's server side: its certificate chain and key, and mutual TLS that accepts only
    /// clients whose certificate chains to the world's root (devices, through the device CA).
    /// A client without a certificate fails the handshake.
    public static func server(world: URL, service: String) throws -> TLSConfiguration {
        let layout = WorldLayout(root: world)
        let chain = try NIOSSLCertificate.fromPEMFile(layout.url("services/\(service)/fullchain.pem").path)
        let key = try NIOSSLPrivateKey(file: layout.url(WorldLayout.key(for: WorldLayout.serviceCertificate(service))).path, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(layout.url(WorldLayout.rootCA).path))
        configuration.certificateVerification = .noHostnameVerification
        configuration.minimumTLSVersion = .tlsv12
        // On shutdown, a connection a client keeps alive waited 5 s for the client's close_notify
        // (NIOSSL's default), which held every service's exit for 5 s.
        configuration.shutdownTimeout = .milliseconds(250)
        return configuration
    }

    /// A public server (the CDN): its identity, no client certificate asked for.
    public static func publicServer(world: URL, service: String) throws -> TLSConfiguration {
        var configuration = try server(world: world, service: service)
        configuration.certificateVerification = .none
        configuration.trustRoots = nil
        return configuration
    }

    /// The roots devices trust for websites: `trust/web-root-ca.pem`.
    public static func webRoots(world: URL) throws -> [NIOSSLCertificate] {
        try NIOSSLCertificate.fromPEMFile(WorldLayout(root: world).url(WorldLayout.webRootCA).path)
    }

    /// A device's client side: its certificate chain and key, trusting the world's web root for servers.
    public static func deviceClient(world: URL, device: String) throws -> TLSConfiguration {
        try deviceClient(world: world, identityFolder: "devices/\(device)")
    }

    /// A device's client side with the identity in `identityFolder` of the built world (one per
    /// iCloud account it may be signed in to: `WorldLayout.deviceIdentityFolder`).
    public static func deviceClient(world: URL, identityFolder: String) throws -> TLSConfiguration {
        try client(world: world, chain: "\(identityFolder)/device-chain.pem", key: WorldLayout.key(for: "\(identityFolder)/device.pem"))
    }

    /// A system service's client side (webcredentiald calling keychaind and associationd): its
    /// client identity, trusting the world's web root for the services' certificates.
    public static func systemServiceClient(world: URL, service: String) throws -> TLSConfiguration {
        try client(
            world: world,
            chain: "services/\(service)/client-chain.pem",
            key: WorldLayout.key(for: WorldLayout.systemServiceCertificate(service))
        )
    }

    /// The lab operator's client side (kclab reading keychaind's admin route).
    public static func administratorClient(world: URL) throws -> TLSConfiguration {
        try systemServiceClient(world: world, service: "kclab")
    }

    /// A device's client side from an identity held in memory (`chainPEM`, `keyPEM`: a fleet's
    /// devices, minted on demand), trusting the world's web root for servers.
    public static func deviceClient(world: URL, chainPEM: String, keyPEM: String) throws -> TLSConfiguration {
        try client(
            world: world,
            chain: try NIOSSLCertificate.fromPEMBytes(Array(chainPEM.utf8)),
            key: try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
        )
    }

    private static func client(world: URL, chain chainPath: String, key keyPath: String) throws -> TLSConfiguration {
        let layout = WorldLayout(root: world)
        return try client(
            world: world,
            chain: try NIOSSLCertificate.fromPEMFile(layout.url(chainPath).path),
            key: try NIOSSLPrivateKey(file: layout.url(keyPath).path, format: .pem)
        )
    }

    private static func client(world: URL, chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateChain = chain.map { .certificate($0) }
        configuration.privateKey = .privateKey(key)
        configuration.trustRoots = .certificates(try webRoots(world: world))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}
