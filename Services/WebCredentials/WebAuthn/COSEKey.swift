public import Crypto

/// A credential public key in COSE form (RFC 9053): only ES256 (EC2, P-256, alg -7), the one
/// algorithm a passkey of Apple's platform authenticator uses.
public struct COSEKey: Hashable, Sendable {
    public static let es256 = -7

    public let publicKey: P256.Signing.PublicKey

    public init(_ publicKey: P256.Signing.PublicKey) {
        self.publicKey = publicKey
    }

    /// Reads `{1: 2, 3: -7, -1: 1, -2: x, -3: y}`; any other key type, algorithm or curve is refused.
    public init(cbor: CBOR) throws(WebAuthnError) {
        guard cbor[int: 1]?.int == 2 else { throw .unsupportedKey("kty is not EC2 (2)") }
        guard cbor[int: 3]?.int == Self.es256 else { throw .unsupportedKey("alg is not ES256 (-7)") }
        guard cbor[int: -1]?.int == 1 else { throw .unsupportedKey("crv is not P-256 (1)") }
        guard let x = cbor[int: -2]?.bytes, let y = cbor[int: -3]?.bytes, x.count == 32, y.count == 32 else {
            throw .unsupportedKey("x and y must be 32 bytes each")
        }
        do {
            publicKey = try P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
        } catch {
            throw .unsupportedKey("the point is not on P-256")
        }
    }

    /// The key as COSE, in CTAP2's canonical order.
    public var cbor: CBOR {
        let point = Array(publicKey.x963Representation)
        return .map([
            (.int(1), .int(2)), (.int(3), .int(Self.es256)), (.int(-1), .int(1)),
            (.int(-2), .bytes(Array(point[1..<33]))), (.int(-3), .bytes(Array(point[33..<65]))),
        ])
    }

    public static func == (a: COSEKey, b: COSEKey) -> Bool { a.publicKey.rawRepresentation == b.publicKey.rawRepresentation }
    public func hash(into hasher: inout Hasher) { hasher.combine(publicKey.rawRepresentation) }
}
