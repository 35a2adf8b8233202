import DeviceNetwork
import Foundation
import KeychainLab
import Security

/// The browser on one website, as one user: its pages, its forms, and the passwords saved for it.
struct Site {
    let base: URL
    let host: String
    let user: String
    let web: WebClient

    init(_ address: String, user: String) throws {
        base = try WebClient.url(address)
        host = base.host ?? ""
        self.user = user
        web = try WebClient()
    }

    private func page(_ path: String) -> URL {
        URL(string: path, relativeTo: base)!.absoluteURL
    }

    /// Fills the sign-in form: with the typed password, else the saved one (AutoFill).
    func logIn(typed: String?, save: String) async throws -> Int32 {
        let password: String
        if let typed {
            password = typed
        } else {
            let saved = SavedPasswords.list(host: host, account: user).1.first { $0.account == user }
            guard let saved else {
                print("no saved password for \(user) at \(host): type one with --password")
                return 1
            }
            print("AutoFill: \(user) at \(host) filled in from saved passwords")
            password = saved.password
        }
        guard try await submitSignIn(password: password) else { return 1 }
        if typed != nil { offerToSave(password, answer: save) }
        return 0
    }

    /// Creates an account on the site's form, then offers to save it.
    func signUp(password: String, save: String) async throws -> Int32 {
        let form = try await form("/signup", id: "signup")
        var fields = form.hidden
        fields.append((form.usernameField?.name ?? "username", user))
        fields.append((form.passwordField("new-password")?.name ?? "password", password))
        let answer = try await web.postForm(page(form.action), fields)
        guard signedIn(answer) else { return refused("account not created", answer) }
        print("account created: signed in to \(host) as \(user)")
        offerToSave(password, answer: save)
        return 0
    }

    /// Signs in (AutoFill), changes the password on the form, and updates the saved one.
    func changePassword(to new: String, save: String) async throws -> Int32 {
        guard let current = SavedPasswords.list(host: host, account: user).1.first(where: { $0.account == user })?.password else {
            print("no saved password for \(user) at \(host)")
            return 1
        }
        guard try await submitSignIn(password: current) else { return 1 }
        let form = try await form("/password", id: "password")
        var fields = form.hidden
        fields.append((form.passwordField("current-password")?.name ?? "current_password", current))
        fields.append((form.passwordField("new-password")?.name ?? "new_password", new))
        let answer = try await web.postForm(page(form.action), fields)
        guard answer.status == 200, answer.body.contains("Your password was changed.") else { return refused("password not changed", answer) }
        print("password changed for \(user) at \(host)")
        offerToSave(new, answer: save)
        return 0
    }

    /// Signs in (AutoFill), deletes the account on the form, and forgets the saved password.
    func deleteAccount() async throws -> Int32 {
        guard let current = SavedPasswords.list(host: host, account: user).1.first(where: { $0.account == user })?.password else {
            print("no saved password for \(user) at \(host)")
            return 1
        }
        guard try await submitSignIn(password: current) else { return 1 }
        let form = try await form("/delete", id: "delete")
        var fields = form.hidden
        fields.append((form.passwordField("current-password")?.name ?? "password", current))
        let answer = try await web.postForm(page(form.action), fields)
        guard answer.body.contains("Your account was deleted.") else { return refused("account not deleted", answer) }
        print("account deleted: \(user) at \(host)")
        let status = SavedPasswords.remove(host: host, account: user)
        print(status == errSecSuccess ? "saved password removed" : "no saved password to remove (\(status))")
        return 0
    }

    // MARK: Steps

    private func form(_ path: String, id: String) async throws -> HTMLForm {
        let answer = try await web.get(page(path))
        guard let form = HTMLForm.named(id, in: answer.body) else {
            throw WebClient.Failure(description: "\(page(path)) has no '\(id)' form (HTTP \(answer.status))")
        }
        return form
    }

    private func submitSignIn(password: String) async throws -> Bool {
        let form = try await form("/login", id: "login")
        var fields = form.hidden
        fields.append((form.usernameField?.name ?? "username", user))
        fields.append((form.passwordField("current-password")?.name ?? "password", password))
        let answer = try await web.postForm(page(form.action), fields)
        guard signedIn(answer) else {
            _ = refused("sign-in failed", answer)
            return false
        }
        print("signed in to \(host) as \(user)")
        return true
    }

    private func signedIn(_ page: WebClient.Page) -> Bool {
        page.status == 200 && page.body.contains("id=\"signed-in-as\"")
    }

    private func refused(_ what: String, _ page: WebClient.Page) -> Int32 {
        let message = page.body.components(separatedBy: "role=\"alert\">").dropFirst().first?.components(separatedBy: "</p>").first
        print("\(what) (HTTP \(page.status)): \(message.map(HTMLForm.unescape) ?? "no message")")
        return 1
    }

    /// Safari's "Save this password?" sheet: the user's choice is `answer` (yes, no, never).
    private func offerToSave(_ password: String, answer: String) {
        let saved = SavedPasswords.list(host: host, account: user).1.first { $0.account == user }
        if saved?.password == password {
            print("the saved password for \(user) at \(host) is already this one")
            return
        }
        print("offer: save the password for \(user) at \(host) in iCloud Keychain? → \(answer)")
        switch answer {
        case "yes":
            let status = SavedPasswords.save(host: host, account: user, password: password)
            print(status == errSecSuccess ? "password saved" : "not saved: \(KeychainError.name(of: status) ?? "") (\(status))")
        case "never":
            let status = SavedPasswords.save(host: host, account: SavedPasswords.neverSavedAccount, password: "")
            print(status == errSecSuccess ? "never saving passwords for \(host)" : "not recorded (\(status))")
        default:
            print("not saved")
        }
    }
}
