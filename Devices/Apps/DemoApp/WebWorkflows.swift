import Foundation
import KeychainLab
import Security

/// Seed 002's four workflows, plus logging out, each printing its steps.
enum WebWorkflows {
    /// Logging in (Figure 3): the keychain, then shared web credentials, then the user; on success
    /// the credentials go to both the keychain and the shared web credentials.
    static func logIn(_ account: SiteAccount, typed: (user: String, password: String)?) async throws -> Int32 {
        let app = account.app
        var candidates: [(source: String, user: String, password: String)] = []
        if let own = account.ownCredentials() {
            candidates.append(("the keychain", own.user, own.password))
        } else {
            print("\(app): no credentials in its keychain; asking for shared web credentials")
            let (shared, error) = SharedCredentials.request()
            if let shared {
                candidates.append(("shared web credentials (\(shared.server))", shared.user, shared.password))
            } else {
                print("\(app): no shared credential\(error.map { ": \(SharedCredentials.describe($0))" } ?? " (the user declined, or none)")")
            }
        }
        if let typed { candidates.append(("the user", typed.user, typed.password)) }
        for candidate in candidates {
            print("\(app): trying \(candidate.user) from \(candidate.source)")
            if let token = try await account.logIn(user: candidate.user, password: candidate.password) {
                account.saveToken(token, user: candidate.user)
                print("\(app): signed in to \(account.site) as \(candidate.user)")
                saveToBoth(account, user: candidate.user, password: candidate.password)
                return 0
            }
        }
        print("\(app): please type a user name and password (--user U --password P): no credentials worked")
        return 1
    }

    /// Creating an account (Listing 4): the website, then both stores.
    static func signUp(_ account: SiteAccount, user: String, password: String) async throws -> Int32 {
        let answer = try await account.call("POST", "accounts", ["username": user, "password": password])
        guard answer.status == 201, let token = answer.fields["token"] else {
            print("\(account.app): the website did not create \(user): \(answer.fields["message"] ?? "HTTP \(answer.status)")")
            return 1
        }
        account.saveToken(token, user: user)
        print("\(account.app): created \(user) on \(account.site)")
        saveToBoth(account, user: user, password: password)
        return 0
    }

    /// Changing the password: the website, the keychain, then the shared web credentials (the user
    /// is asked, and may decline).
    static func changePassword(_ account: SiteAccount, to new: String) async throws -> Int32 {
        guard let token = account.token(), let own = account.ownCredentials() else {
            print("\(account.app): not signed in (run web-login first)")
            return 1
        }
        let answer = try await account.call("POST", "password", ["currentPassword": own.password, "newPassword": new], bearer: token)
        guard answer.status == 200 else {
            print("\(account.app): the website refused: \(answer.fields["message"] ?? "HTTP \(answer.status)")")
            return 1
        }
        print("\(account.app): the website changed the password of \(own.user)")
        saveToBoth(account, user: own.user, password: new)
        return 0
    }

    /// Deleting the account (Listing 5): the website, the keychain, and the shared web credentials
    /// with a NULL password (the user is asked).
    static func deleteAccount(_ account: SiteAccount) async throws -> Int32 {
        guard let token = account.token(), let own = account.ownCredentials() else {
            print("\(account.app): not signed in (run web-login first)")
            return 1
        }
        let answer = try await account.call("DELETE", "account", ["password": own.password], bearer: token)
        guard answer.status == 200 else {
            print("\(account.app): the website refused: \(answer.fields["message"] ?? "HTTP \(answer.status)")")
            return 1
        }
        print("\(account.app): the website deleted \(own.user)")
        account.forgetToken()
        print("\(account.app): removed from its keychain: \(account.deleteOwn() == errSecSuccess)")
        let error = SharedCredentials.add(domain: account.site, user: own.user, password: nil)
        print(
            "\(account.app): SecAddSharedWebCredential(\(account.site), \(own.user), NULL) -> \(error.map(SharedCredentials.describe) ?? "no error")"
        )
        return 0
    }

    /// Logging out: the session ends; the keychain and the shared web credentials keep the login
    /// ("Do not use this method when the user simply logs out").
    static func logOut(_ account: SiteAccount) async throws -> Int32 {
        if let token = account.token() {
            _ = try await account.call("DELETE", "sessions/current", nil, bearer: token)
        }
        account.forgetToken()
        print("\(account.app): signed out of \(account.site); the saved credentials stay")
        return 0
    }

    /// Who the website says the app is signed in as.
    static func whoami(_ account: SiteAccount) async throws -> Int32 {
        guard let token = account.token() else {
            print("\(account.app): not signed in")
            return 1
        }
        let answer = try await account.call("GET", "me", nil, bearer: token)
        print("\(account.app): \(answer.fields["username"].map { "signed in as \($0)" } ?? "not signed in (HTTP \(answer.status))")")
        return answer.status == 200 ? 0 : 1
    }

    private static func saveToBoth(_ account: SiteAccount, user: String, password: String) {
        let status = account.saveOwn(user: user, password: password)
        print("\(account.app): saved to its keychain: \(KeychainError.name(of: status) ?? "\(status)")")
        let error = SharedCredentials.add(domain: account.site, user: user, password: password)
        print("\(account.app): SecAddSharedWebCredential(\(account.site), \(user), •••) -> \(error.map(SharedCredentials.describe) ?? "no error")")
    }
}
