import AppIdentity
public import Foundation
public import Hummingbird
import NIOCore
import NIOSSL
import Synchronization
import X509

/// The device at the other end of a mutual-TLS connection, read from its verified certificate.
public struct DeviceIdentity: Hashable, Sendable {
    /// The UDID, the certificate's common name.
    public let udid: String
    /// The world's name for the device, the certificate's organizational unit.
    public let name: String
    /// The iCloud account the device is signed in to, the certificate's email address (subject
    /// alternative name); `nil` for a device signed in to none. Only this decides which account's
    /// synchronizable items a device sees.
    public let iCloudAccount: String?

    /// Reads a device certificate; `nil` unless it carries the device role marker and a UDID.
    public init?(certificateDER: Data) {
        guard let certificate = try? Certificate(der: certificateDER), CertificateRole.device.isMarked(in: certificate),
            let name = certificate.subjectValue(.RDNAttributeType.organizationalUnitName)
        else { return nil }
        self.udid = certificate.commonName
        self.name = name
        let names = (try? certificate.extensions.subjectAlternativeNames) ?? nil
        self.iCloudAccount =
            names?.lazy.compactMap { name -> String? in
                if case .rfc822Name(let address) = name { return address }
                return nil
            }.first
    }

    /// The device of a request's connection. TLS already verified the chain to the world's root;
    /// this adds the role check, so a team's certificate can never pass as a device.
    public static func of(_ channel: any Channel) async -> DeviceIdentity? {
        guard let certificate = try? await channel.nioSSL_peerCertificate().get(), let der = try? certificate.toDERBytes() else {
            return nil
        }
        let key = Data(der)
        if let known = cache.withLock({ $0[key] }) { return known }
        let identity = DeviceIdentity(certificateDER: key)
        cache.withLock { known in
            // A world has a handful of devices; the bound only guards against a flood of strangers.
            if known.count > 1024 { known.removeAll() }
            known[key] = identity
        }
        return identity
    }

    /// Parsed identities by certificate, so each request does not parse X.509 again.
    private static let cache = Mutex<[Data: DeviceIdentity?]>([:])
}

/// A request context that keeps the connection, so handlers can learn which device is calling.
public struct DeviceRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Requests up to 4 MiB are decoded; larger ones get 413.
    public var maxUploadSize: Int { 4 * 1024 * 1024 }
}
