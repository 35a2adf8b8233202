/// Why a login-service operation was refused; each has the HTTP status and the message users see.
/// A failed login never says whether the account exists.
public enum LoginError: Error, Equatable, Sendable {
    /// The username and password do not match an account (or the account does not exist).
    case invalidCredentials
    /// Too many failed logins for this account: try again after the pause.
    case tooManyAttempts(retryAfterSeconds: Int)
    /// Creating an account whose username is taken.
    case usernameTaken
    case invalidUsername
    case weakPassword(String)
    /// No session, or an expired one.
    case notSignedIn
    /// The current password given to change or delete is wrong.
    case wrongPassword
    /// The accounts database failed; nothing was changed.
    case unavailable
    /// A passkey ceremony's answer names no open ceremony: unknown, already answered, or expired.
    case ceremonyUnknown
    /// The passkey response failed a relying party's check (the code and reason say which).
    case passkeyRefused(code: String, reason: String)
    /// Registering a credential ID this site already holds.
    case passkeyTaken

    public var status: Int {
        switch self {
        case .invalidCredentials, .notSignedIn: 401
        case .wrongPassword: 403
        case .tooManyAttempts: 429
        case .usernameTaken, .passkeyTaken: 409
        case .invalidUsername, .weakPassword: 422
        case .ceremonyUnknown: 400
        case .passkeyRefused: 401
        case .unavailable: 503
        }
    }

    /// A stable code for the JSON API.
    public var code: String {
        switch self {
        case .invalidCredentials: "invalid_credentials"
        case .tooManyAttempts: "too_many_attempts"
        case .usernameTaken: "username_taken"
        case .invalidUsername: "invalid_username"
        case .weakPassword: "weak_password"
        case .notSignedIn: "not_signed_in"
        case .wrongPassword: "wrong_password"
        case .unavailable: "unavailable"
        case .ceremonyUnknown: "ceremony_unknown"
        case .passkeyRefused(let code, _): "passkey_\(code)"
        case .passkeyTaken: "passkey_taken"
        }
    }

    public var message: String {
        switch self {
        case .invalidCredentials: "Incorrect username or password."
        case .tooManyAttempts(let seconds): "Too many failed sign-in attempts for this account. Try again in \(seconds) seconds."
        case .usernameTaken: "That username is taken."
        case .invalidUsername: "A username is 1 to 64 lower-case letters, digits, '.', '_', '-' or '@'."
        case .weakPassword(let reason): reason
        case .notSignedIn: "You are not signed in."
        case .wrongPassword: "The password is not correct."
        case .unavailable: "The service cannot store accounts right now; nothing was changed. Try again."
        case .ceremonyUnknown: "This passkey ceremony is unknown, already answered or expired: ask for new options."
        case .passkeyRefused(_, let reason): "The passkey was refused: \(reason)."
        case .passkeyTaken: "This passkey is already registered."
        }
    }
}
