import Foundation
import LoginService
import Synchronization
import Testing
import WorldFile
import WorldTestSupport

/// The login website's rules, over a real SQLite store in a temporary folder and a clock the
/// test moves.
@Suite struct LoginServiceTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static func service(in folder: URL, clock: Clock = Clock()) throws -> LoginService {
        LoginService(store: try AccountStore(directory: folder), hasher: PasswordHasher(logN: 10), now: { clock.now.withLock { $0 } })
    }

    @Test func passwordsAreStoredOnlyAsSaltedScryptHashes() throws {
        let hasher = PasswordHasher(logN: 10)
        let first = try hasher.hash("Correct-horse-7")
        let second = try hasher.hash("Correct-horse-7")
        #expect(first.hasPrefix("scrypt$10$8$1$") && first != second, "salted: two hashes of one password differ")
        #expect(!first.contains("Correct-horse-7"))
        #expect(hasher.verify("Correct-horse-7", against: first))
        #expect(!hasher.verify("correct-horse-7", against: first))
        #expect(!hasher.verify("Correct-horse-7", against: "scrypt$10$8$1$AAAA$BBBB"))
        #expect(!hasher.verify("Correct-horse-7", against: "md5$whatever"))
        #expect(!hasher.verify("Correct-horse-7", against: "scrypt$40$8$1$AAAA$BBBB"), "an absurd work factor is refused, not run")
    }

    @Test func weakPasswordsAreRefusedWithTheRule() {
        let policy = PasswordPolicy()
        #expect(policy.problem(with: "short", username: "alice") == "The password must have at least 8 characters.")
        #expect(policy.problem(with: "alice123", username: "alice123") == "The password must not be the username.")
        #expect(policy.problem(with: "Password1", username: "alice") == "This password is too common; choose another.")
        #expect(policy.problem(with: "aaaaaaaaaa", username: "alice") == "The password needs more different characters.")
        #expect(policy.problem(with: "Correct-horse-7", username: "alice") == nil)
    }

    @Test func createLogInChangeAndDelete() async throws {
        try await withTemporaryDirectory { folder in
            let service = try Self.service(in: folder)
            let created = try service.createAccount(site: "example.com", username: " Alice ", password: "Correct-horse-7", kind: .bearer)
            #expect(created.username == "alice")
            #expect(service.user(site: "example.com", token: created.token) == "alice")
            #expect(service.user(site: "other.example", token: created.token) == nil, "a session belongs to its site")
            #expect(throws: LoginError.usernameTaken) {
                try service.createAccount(site: "example.com", username: "alice", password: "Other-pass-9", kind: .bearer)
            }
            #expect(throws: LoginError.invalidUsername) {
                try service.createAccount(site: "example.com", username: "no spaces", password: "Other-pass-9", kind: .bearer)
            }
            // The same name on another site is another account.
            _ = try service.createAccount(site: "other.example", username: "alice", password: "Other-pass-9", kind: .bearer)

            let second = try service.logIn(site: "example.com", username: "alice", password: "Correct-horse-7", kind: .cookie)
            #expect(throws: LoginError.wrongPassword) {
                try service.changePassword(site: "example.com", token: second.token, current: "nope", new: "New-horse-8")
            }
            #expect(throws: LoginError.weakPassword("The password must have at least 8 characters.")) {
                try service.changePassword(site: "example.com", token: second.token, current: "Correct-horse-7", new: "short")
            }
            try service.changePassword(site: "example.com", token: second.token, current: "Correct-horse-7", new: "New-horse-8")
            #expect(service.user(site: "example.com", token: second.token) == "alice", "the session that changed it stays")
            #expect(service.user(site: "example.com", token: created.token) == nil, "every other session ends")
            #expect(throws: LoginError.invalidCredentials) {
                try service.logIn(site: "example.com", username: "alice", password: "Correct-horse-7", kind: .bearer)
            }
            let third = try service.logIn(site: "example.com", username: "alice", password: "New-horse-8", kind: .bearer)

            #expect(throws: LoginError.wrongPassword) { try service.deleteAccount(site: "example.com", token: third.token, password: "x") }
            try service.deleteAccount(site: "example.com", token: third.token, password: "New-horse-8")
            #expect(service.user(site: "example.com", token: third.token) == nil)
            #expect(throws: LoginError.invalidCredentials) {
                try service.logIn(site: "example.com", username: "alice", password: "New-horse-8", kind: .bearer)
            }
            #expect(
                service.user(
                    site: "other.example",
                    token: (try service.logIn(site: "other.example", username: "alice", password: "Other-pass-9", kind: .bearer)).token
                ) == "alice"
            )
        }
    }

    @Test func failedLoginsPauseTheAccountExistingOrNot() async throws {
        try await withTemporaryDirectory { folder in
            let clock = Clock()
            let service = try Self.service(in: folder, clock: clock)
            _ = try service.createAccount(site: "example.com", username: "alice", password: "Correct-horse-7", kind: .bearer)
            for name in ["alice", "nobody"] {
                for _ in 0..<5 {
                    #expect(throws: LoginError.invalidCredentials) {
                        try service.logIn(site: "example.com", username: name, password: "guess", kind: .bearer)
                    }
                }
                #expect(throws: LoginError.tooManyAttempts(retryAfterSeconds: 300)) {
                    try service.logIn(site: "example.com", username: name, password: "Correct-horse-7", kind: .bearer)
                }
            }
            clock.advance(301)
            #expect(try service.logIn(site: "example.com", username: "alice", password: "Correct-horse-7", kind: .bearer).username == "alice")
        }
    }

    /// Guesses made at the same moment get no more tries than guesses made one after another.
    @Test func parallelGuessesGetNoMoreTries() async throws {
        try await withTemporaryDirectory { folder in
            let service = try Self.service(in: folder)
            _ = try service.createAccount(site: "example.com", username: "alice", password: "Correct-horse-7", kind: .bearer)
            let outcomes = await withTaskGroup(of: LoginError?.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        do {
                            _ = try service.logIn(site: "example.com", username: "alice", password: "guess", kind: .bearer)
                            return nil
                        } catch {
                            return error as? LoginError ?? .unavailable
                        }
                    }
                }
                var all: [LoginError?] = []
                for await outcome in group { all.append(outcome) }
                return all
            }
            #expect(outcomes.filter { $0 == .invalidCredentials }.count == service.maximumFailures, "\(outcomes)")
            #expect(outcomes.filter { if case .tooManyAttempts = $0 { true } else { false } }.count == 40 - service.maximumFailures)
        }
    }

    @Test func theDatabaseHoldsNoPasswordAndNoToken() async throws {
        try await withTemporaryDirectory { folder in
            let service = try Self.service(in: folder)
            let session = try service.createAccount(site: "example.com", username: "alice", password: "Secret-sauce-42", kind: .bearer)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let data = try Data(contentsOf: folder.appending(path: name))
                #expect(data.range(of: Data("Secret-sauce-42".utf8)) == nil, "\(name)")
                #expect(data.range(of: Data(session.token.utf8)) == nil, "\(name)")
            }
        }
    }

    @Test func theWorldsHostsShareTheirDomainsAccounts() throws {
        let world = try World.parse(
            yaml:
                """
                name: sites
                websites:
                  - {domain: example.com, subdomains: [{name: www}], accounts: [{username: alice, password: Correct-horse-7}]}
                """,
            file: "sites.yaml"
        )
        let sites = SiteDirectory(world: world)
        #expect(sites.site(forHost: "www.example.com:8443") == "example.com")
        #expect(sites.site(forHost: "EXAMPLE.com") == "example.com")
        #expect(sites.site(forHost: "evil.example") == nil)
        #expect(world.websites.first?.accounts.first?.username == "alice")
    }
}
