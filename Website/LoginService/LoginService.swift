import Crypto
public import Foundation
import ServiceSupport
import WorldFile

/// The website's accounts: create, log in, change the password, delete, who is signed in. Pure
/// rules over an `AccountStore`, with the clock injected; the routes only translate HTTP.
public final class LoginService: Sendable {
    /// How a session reaches the site: a cookie for the HTML pages, a bearer token for apps.
    public enum SessionKind: String, Sendable {
        case cookie
        case bearer
    }

    let store: AccountStore
    let hasher: PasswordHasher
    let policy: PasswordPolicy
    let now: @Sendable () -> Date
    /// Failed logins allowed per account within `failureWindow` before it pauses.
    public let maximumFailures: Int
    /// How long failures count, and how long a paused account stays paused, in seconds.
    public let failureWindow: TimeInterval
    /// How long a session lasts.
    public let sessionLifetime: TimeInterval
    /// Where passwords are hashed and checked, off the request threads, in turn by account.
    let passwordWork = FairWorkPool(name: "password")

    public init(
        store: AccountStore,
        hasher: PasswordHasher = PasswordHasher(),
        policy: PasswordPolicy = PasswordPolicy(),
        maximumFailures: Int = 5,
        failureWindow: TimeInterval = 300,
        sessionLifetime: TimeInterval = 86_400 * 7,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.hasher = hasher
        self.policy = policy
        self.maximumFailures = maximumFailures
        self.failureWindow = failureWindow
        self.sessionLifetime = sessionLifetime
        self.now = now
    }

    /// A session's token, given to the client once; only its SHA-256 is stored.
    public struct Session: Sendable {
        public let username: String
        public let token: String
    }

    /// Creates an account and signs it in.
    public func createAccount(site: String, username: String, password: String, kind: SessionKind) throws(LoginError) -> Session {
        let name = username.trimmingCharacters(in: .whitespaces).lowercased()
        guard SiteAccount.isValidUsername(name) else { throw .invalidUsername }
        if let problem = policy.problem(with: password, username: name) { throw .weakPassword(problem) }
        let inserted = Self.stored { try store.insertAccount(site: site, username: name, passwordHash: try hasher.hash(password), at: now()) }
        guard let inserted else { throw .unavailable }
        guard inserted else { throw .usernameTaken }
        return try startSession(site: site, username: name, kind: kind)
    }

    /// Adds an account declared in the world, unless it exists; returns whether it was added.
    @discardableResult
    public func seed(site: String, username: String, password: String) throws -> Bool {
        try store.insertAccount(site: site, username: username, passwordHash: try hasher.hash(password), at: now())
    }

    /// Checks the password and starts a session. Every failure, for an account that exists or
    /// not, takes the same time, says the same thing and counts toward the account's pause.
    public func logIn(site: String, username: String, password: String, kind: SessionKind) throws(LoginError) -> Session {
        let name = username.trimmingCharacters(in: .whitespaces).lowercased()
        // The attempt is counted before the (slow) password check, atomically: parallel guesses
        // cannot all pass the count and get more than `maximumFailures` tries.
        let date = now()
        let reserved = Self.stored {
            try store.reserveAttempt(site: site, username: name, at: date, window: failureWindow, maximum: maximumFailures)
        }
        guard let reserved else { throw .unavailable }
        // A refused attempt costs a transaction, not a hash: the pause is decided before hashing.
        if let end = reserved {
            throw .tooManyAttempts(retryAfterSeconds: max(1, Int(end.timeIntervalSince(date).rounded(.up))))
        }
        let stored = Self.stored { try store.passwordHash(site: site, username: name) } ?? nil
        let matches: Bool
        if let stored {
            matches = hasher.verify(password, against: stored)
        } else {
            hasher.burn(password)
            matches = false
        }
        guard matches else { throw .invalidCredentials }
        _ = Self.stored { try store.clearFailures(site: site, username: name) }
        return try startSession(site: site, username: name, kind: kind)
    }

    /// Runs `body`, which hashes or checks a password, on the password threads in `account`'s
    /// turn: one account's guesses wait behind each other, not in front of another account's
    /// sign-in. `unavailable` (503) at once when too much is waiting.
    public func inPasswordTurn<T: Sendable>(
        of account: String,
        _ body: @escaping @Sendable () throws(LoginError) -> T
    ) async throws(LoginError) -> T {
        let key = account.trimmingCharacters(in: .whitespaces).lowercased()
        switch await passwordWork.run(key: key, { Result<T, LoginError>(catching: body) }) {
        case .done(let result): return try result.get()
        case .busy, .overBudget: throw .unavailable
        }
    }

    /// The account signed in with `token` on `site`.
    public func user(site: String, token: String) -> String? {
        Self.stored { try store.sessionUser(tokenHash: Self.digest(token), site: site, at: now()) } ?? nil
    }

    /// Changes the password of the signed-in account; every other session of it ends.
    public func changePassword(site: String, token: String, current: String, new: String) throws(LoginError) {
        let username = try signedIn(site: site, token: token)
        try checkPassword(site: site, username: username, current)
        if let problem = policy.problem(with: new, username: username) { throw .weakPassword(problem) }
        _ = Self.stored {
            try store.setPasswordHash(site: site, username: username, passwordHash: try hasher.hash(new), keeping: Self.digest(token))
        }
    }

    /// Deletes the signed-in account, after its password again; every session of it ends.
    public func deleteAccount(site: String, token: String, password: String) throws(LoginError) {
        let username = try signedIn(site: site, token: token)
        try checkPassword(site: site, username: username, password)
        _ = Self.stored { try store.deleteAccount(site: site, username: username) }
    }

    /// Ends a session.
    public func logOut(token: String) {
        _ = Self.stored { try store.deleteSession(tokenHash: Self.digest(token)) }
    }

    // MARK: Helpers

    private func signedIn(site: String, token: String) throws(LoginError) -> String {
        guard let username = user(site: site, token: token) else { throw .notSignedIn }
        return username
    }

    private func checkPassword(site: String, username: String, _ password: String) throws(LoginError) {
        guard let stored = Self.stored({ try store.passwordHash(site: site, username: username) }) ?? nil,
            hasher.verify(password, against: stored)
        else { throw .wrongPassword }
    }

    func startSession(site: String, username: String, kind: SessionKind) throws(LoginError) -> Session {
        let token = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let date = now()
        let stored: Void? = Self.stored {
            try store.insertSession(
                tokenHash: Self.digest(token),
                site: site,
                username: username,
                kind: kind.rawValue,
                at: date,
                expires: date.addingTimeInterval(sessionLifetime)
            )
        }
        guard stored != nil else { throw .unavailable }
        return Session(username: username, token: token)
    }

    static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A storage failure: nil (callers treat it as "no"), never a crash.
    static func stored<T>(_ body: () throws -> T) -> T? {
        try? body()
    }
}
