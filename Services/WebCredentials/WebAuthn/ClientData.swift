import Foundation

/// `clientDataJSON` (WebAuthn §5.8.1): what the client says it asked the authenticator to sign.
public struct ClientData: Codable, Hashable, Sendable {
    public static let create = "webauthn.create"
    public static let get = "webauthn.get"
    /// A client data JSON larger than this is refused unread.
    public static let maximumSize = 4096

    public var type: String
    /// The challenge, base64url.
    public var challenge: String
    public var origin: String
    public var crossOrigin: Bool?

    public init(type: String, challenge: [UInt8], origin: String) {
        self.type = type
        self.challenge = Base64URL.encode(challenge)
        self.origin = origin
        self.crossOrigin = false
    }

    /// Reads clientDataJSON from untrusted bytes.
    public init(json: [UInt8]) throws(WebAuthnError) {
        guard json.count <= Self.maximumSize else { throw .malformed("clientDataJSON is larger than \(Self.maximumSize) bytes") }
        do {
            self = try JSONDecoder().decode(ClientData.self, from: Data(json))
        } catch {
            throw .malformed("clientDataJSON is not the JSON object WebAuthn defines")
        }
    }

    /// The JSON an authenticator's client writes, with keys in WebAuthn's order.
    public var json: [UInt8] {
        let escaped = { (text: String) in String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self) }
        let text = "{\"type\":\(escaped(type)),\"challenge\":\(escaped(challenge)),\"origin\":\(escaped(origin)),\"crossOrigin\":false}"
        return Array(text.utf8)
    }
}
