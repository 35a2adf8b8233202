public import Foundation

/// `ASAuthorizationError`: the errors an `ASAuthorizationController` reports, in Apple's domain
/// with Apple's codes.
public struct ASAuthorizationError: Error, CustomNSError, Hashable, Sendable {
    public enum Code: Int, Sendable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        case notInteractive = 1005
    }

    public static let errorDomain = "com.apple.AuthenticationServices.AuthorizationError"
    public static let unknown = Code.unknown
    public static let canceled = Code.canceled
    public static let invalidResponse = Code.invalidResponse
    public static let notHandled = Code.notHandled
    public static let failed = Code.failed
    public static let notInteractive = Code.notInteractive

    public let code: Code
    /// What the system said (`NSLocalizedFailureReason` on a device).
    public let failureReason: String

    public init(_ code: Code, failureReason: String = "") {
        self.code = code
        self.failureReason = failureReason
    }

    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        [NSLocalizedDescriptionKey: localizedDescription, NSLocalizedFailureReasonErrorKey: failureReason]
    }

    public var localizedDescription: String {
        "The operation couldn’t be completed. (\(Self.errorDomain) error \(code.rawValue).)"
    }
}

extension ASAuthorizationError.Code {
    /// `catch ASAuthorizationError.canceled`.
    public static func ~= (code: ASAuthorizationError.Code, error: any Error) -> Bool {
        (error as? ASAuthorizationError)?.code == code
    }
}
