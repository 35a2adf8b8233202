import DeviceNetwork
import Foundation
import KeychainLab
import Security

/// One browser session, from the command line.
struct BrowserCommand {
    struct UsageError: Error {
        let message: String
    }

    static let usage = """
        usage: browser login URL --user NAME [--password P|-] [--save yes|no|never]
               browser signup URL --user NAME --password P|- [--save yes|no]
               browser change-password URL --user NAME --new-password P|- [--save yes|no]
        (a password given as - is read from standard input, so it does not show in ps)
               browser delete-account URL --user NAME
               browser passwords [HOST] [--show]
               browser passkey-signup URL --user NAME
               browser passkey-login URL
        """

    let verb: String
    let target: String?
    var options: [String: String] = [:]
    var show = false

    init(_ arguments: [String]) throws {
        guard let verb = arguments.first else { throw UsageError(message: "say what to do") }
        self.verb = verb
        var positional: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--show" {
                show = true
            } else if argument.hasPrefix("--") {
                guard index + 1 < arguments.count else { throw UsageError(message: "\(argument) needs a value") }
                options[String(argument.dropFirst(2))] = arguments[index + 1]
                index += 1
            } else {
                positional.append(argument)
            }
            index += 1
        }
        target = positional.first
        let known: Set<String> = ["user", "password", "new-password", "save"]
        if let unknown = options.keys.first(where: { !known.contains($0) }) { throw UsageError(message: "unknown option --\(unknown)") }
        if let save = options["save"], !["yes", "no", "never"].contains(save) { throw UsageError(message: "--save is yes, no or never") }
    }

    func run() async throws -> Int32 {
        if verb == "passwords" { return listPasswords() }
        guard let target else { throw UsageError(message: "\(verb) needs a URL") }
        if verb == "passkey-login" { return try await Site(target, user: "").passkeyLogIn() }
        guard let user = options["user"] else { throw UsageError(message: "\(verb) needs --user NAME") }
        let site = try Site(target, user: user)
        switch verb {
        case "login": return try await site.logIn(typed: options["password"].map(SecretArgument.resolve), save: options["save"] ?? "yes")
        case "signup":
            guard let password = options["password"] else { throw UsageError(message: "signup needs --password P") }
            return try await site.signUp(password: SecretArgument.resolve(password), save: options["save"] ?? "yes")
        case "change-password":
            guard let new = options["new-password"] else { throw UsageError(message: "change-password needs --new-password P") }
            return try await site.changePassword(to: SecretArgument.resolve(new), save: options["save"] ?? "yes")
        case "delete-account": return try await site.deleteAccount()
        case "passkey-signup": return try await site.passkeySignUp()
        default: throw UsageError(message: "unknown command '\(verb)'")
        }
    }

    /// `browser passwords`: what is saved, passwords masked unless `--show`.
    private func listPasswords() -> Int32 {
        let (status, entries) = SavedPasswords.list(host: target)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            print("cannot read saved passwords: \(KeychainError.name(of: status) ?? "") (\(status))")
            return 1
        }
        if entries.isEmpty { print("no saved passwords\(target.map { " for \($0)" } ?? "")") }
        for entry in entries {
            let password = entry.account == SavedPasswords.neverSavedAccount ? "(never save)" : show ? entry.password : "••••••••"
            print("\(entry.host)  \(entry.account)  \(password)")
        }
        return 0
    }
}
