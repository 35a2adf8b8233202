import DeviceNetwork
import Foundation
import KeychainLab
import Security
import SeedSnippets

/// demo-app: the program the demo world's apps run; each story is a subcommand, and what it may
/// touch comes from the signature of the app it runs as.
///
///     demo-app save-token VALUE | read-token | save-suite VALUE | read-suite   (VALUE - : standard input)
///              save-private VALUE | read-private | snoop TEAM-GROUP
///              discover-team | family-write VALUE | family-read | seed000 | groups
///              mac-save VALUE | mac-read | mac-lock | sync-save VALUE | sync-read | sync-delete
///              web-login | web-signup | web-change-password | web-delete | web-logout | web-whoami
///              web-passkey-signup --user U | web-passkey-login
@main
enum DemoApp {
    static let service = "com.example.token"

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let app = ProcessInfo.processInfo.environment["KEYCHAINLAB_APP"] ?? "this app"
        if let command = arguments.first, command.hasPrefix("web-") {
            exit(await web(command, Array(arguments.dropFirst()), app: app))
        }
        do {
            try run(arguments, app: app)
        } catch let error as KeychainError {
            print("\(app): \(error)")
            exit(1)
        } catch {
            print("\(app): \(error)")
            exit(1)
        }
    }

    static func run(_ given: [String], app: String) throws {
        let keychain = Keychain(service: service)
        // A value given as - is read from standard input, so it does not show in ps.
        var arguments = given
        if arguments.count == 2, arguments[0] != "snoop" { arguments[1] = SecretArgument.resolve(arguments[1]) }
        switch (arguments.first, arguments.count) {
        case ("groups", 1):
            print("\(app) belongs to: \(Keychain.entitledAccessGroups.joined(separator: ", "))")
            print("its default group is \(Keychain.defaultAccessGroup ?? "none")")
        case ("save-token", 2):
            try keychain.set(arguments[1], for: "alice")
            print("\(app) saved the token in its default group, \(Keychain.defaultAccessGroup ?? "?")")
        case ("read-token", 1):
            report(app, "the token", try keychain.string(for: "alice"))
        case ("mac-save", 2):
            // On a Mac, an add that does not ask for data protection goes to the login keychain.
            try keychain.set(arguments[1], for: "imap")
            print("\(app) saved the mail password in the login keychain; its access list trusts \(app) alone")
        case ("mac-read", 1):
            do throws(KeychainError) {
                report(app, "the mail password", try keychain.string(for: "imap"))
            } catch {
                print("\(app) may not use the mail password: \(error.name) (\(error.status))")
            }
        case ("mac-lock", 1):
            // Any Mac app may lock the login keychain (SecKeychainLock); only the user's password opens it.
            let status = SecKeychainLock(nil)
            guard status == errSecSuccess else { throw KeychainError(status: status) }
            print("\(app) locked the login keychain (SecKeychainLock)")
        case ("sync-save", 2):
            // A synchronizable item: this device's copy, which iCloud Keychain carries to the others.
            try keychain.synchronizable(true).set(arguments[1], for: "notes")
            print("\(app) saved the notes password in iCloud Keychain (synchronizable, \(Keychain.defaultAccessGroup ?? "?"))")
        case ("sync-read", 1):
            report(app, "the notes password", try keychain.synchronizable(true).string(for: "notes"))
        case ("sync-delete", 1):
            try keychain.synchronizable(true).remove("notes")
            print("\(app) deleted the notes password from iCloud Keychain")
        case ("save-suite", 2):
            try keychain.accessGroup(try .appGroup("com.example.AppSuite")).set(arguments[1], for: "suite")
            print("\(app) saved suite data in group.com.example.AppSuite")
        case ("read-suite", 1):
            report(app, "the suite data", try keychain.string(for: "suite"))
        case ("save-private", 2):
            let own = Keychain.entitledAccessGroups.first { !$0.hasPrefix("group.") && $0.hasSuffix(app) } ?? ""
            try keychain.accessGroup(try AccessGroupIdentifier(raw: own)).set(arguments[1], for: "private")
            print("\(app) saved a private item in its own group, \(own)")
        case ("read-private", 1):
            report(app, "the private item", try keychain.string(for: "private"))
        case ("snoop", 2):
            do throws(KeychainError) {
                report(
                    app,
                    "the token in \(arguments[1])",
                    try keychain.accessGroup(try AccessGroupIdentifier(raw: arguments[1])).string(for: "alice")
                )
            } catch {
                print("\(app) may not read \(arguments[1]): \(error.name) (\(error.status))")
            }
        case ("discover-team", 1):
            guard let info = KeyChainAccessGroupHelper.getAccessGroupInfo() else {
                print("\(app): the helper found no access group")
                exit(1)
            }
            print("KeyChainAccessGroupHelper: prefix \(info.prefix), default group \(info.rawValue)")
            let shared = keychain.accessGroup(try .keychainGroup(prefix: info.prefix, name: "com.bencoding.awesome-group"))
            try shared.set("github-token", for: "alice")
            print("\(app) then saved into \(info.prefix).com.bencoding.awesome-group without a magic string")
        case ("family-write", 2):
            let prefix = String((Keychain.defaultAccessGroup ?? "").prefix(10))
            try keychain.accessGroup(try .keychainGroup(prefix: prefix, name: "amazingAppFamily")).set(arguments[1], for: "family")
            print("\(app) saved into \(prefix).amazingAppFamily")
        case ("family-read", 1):
            report(app, "the family item", try keychain.string(for: "family"))
        case ("seed000", 1):
            let result = Seed000.run(service: "seed000", username: "alice", password: Data("pw".utf8))
            print("seed 000's snippet, unchanged: SecItemAdd -> \(result.addStatus), SecItemCopyMatching -> \(result.readStatus)")
        default:
            print(
                "usage: demo-app groups|save-token V|read-token|save-suite V|read-suite|save-private V|read-private|snoop GROUP|discover-team|family-write V|family-read|seed000|sync-save V|sync-read|sync-delete"
            )
            exit(2)
        }
    }

    /// Seed 002's workflows: `web-login [--user U --password P]`, `web-signup --user U --password P`,
    /// `web-change-password --new-password P`, `web-delete`, `web-logout`, `web-whoami`; each takes
    /// `--site DOMAIN` (default example.com).
    static func web(_ command: String, _ arguments: [String], app: String) async -> Int32 {
        var options: [String: String] = [:]
        var index = 0
        while index + 1 < arguments.count, arguments[index].hasPrefix("--") {
            let name = String(arguments[index].dropFirst(2))
            options[name] = ["password", "new-password"].contains(name) ? SecretArgument.resolve(arguments[index + 1]) : arguments[index + 1]
            index += 2
        }
        do {
            let account = try SiteAccount(site: options["site"] ?? "example.com", app: app)
            let typed = options["user"].flatMap { user in options["password"].map { (user: user, password: $0) } }
            switch command {
            case "web-login": return try await WebWorkflows.logIn(account, typed: typed)
            case "web-signup":
                guard let typed else { break }
                return try await WebWorkflows.signUp(account, user: typed.user, password: typed.password)
            case "web-change-password":
                guard let new = options["new-password"] else { break }
                return try await WebWorkflows.changePassword(account, to: new)
            case "web-delete": return try await WebWorkflows.deleteAccount(account)
            case "web-logout": return try await WebWorkflows.logOut(account)
            case "web-whoami": return try await WebWorkflows.whoami(account)
            case "web-passkey-signup":
                guard let user = options["user"] else { break }
                return try await PasskeyWorkflows.signUp(account, user: user)
            case "web-passkey-login": return try await PasskeyWorkflows.logIn(account)
            default: break
            }
        } catch {
            print("\(app): \(error)")
            return 1
        }
        print("usage: demo-app web-login [--user U --password P] | web-signup --user U --password P | web-change-password --new-password P")
        print("       | web-delete | web-logout | web-whoami | web-passkey-signup --user U | web-passkey-login")
        print("       (each takes --site DOMAIN, default example.com)")
        return 2
    }

    static func report(_ app: String, _ what: String, _ value: String?) {
        print(value.map { "\(app) read \(what): \($0)" } ?? "\(app) could not find \(what) (errSecItemNotFound)")
    }
}
