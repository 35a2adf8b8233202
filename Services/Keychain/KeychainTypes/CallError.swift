/// A CFError as an app's completion handler receives it: its domain, code and description.
/// Shared by webcredentiald (which decides it), the device (which forwards it) and the Security
/// module (which hands it to the app).
public struct CallError: Codable, Hashable, Sendable {
    /// `NSOSStatusErrorDomain`, or AuthenticationServices' error domain for G2 requests.
    public var domain: String
    public var code: Int
    /// The CFError's description.
    public var message: String

    public init(domain: String, code: Int, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// Security's errors: `NSOSStatusErrorDomain` with the OSStatus as the code.
    public static func osStatus(_ status: Int32, _ message: String) -> CallError {
        CallError(domain: osStatusDomain, code: Int(status), message: message)
    }

    public static let osStatusDomain = "NSOSStatusErrorDomain"
    /// `ASAuthorizationErrorDomain`.
    public static let authorizationDomain = "com.apple.AuthenticationServices.AuthorizationError"
}
