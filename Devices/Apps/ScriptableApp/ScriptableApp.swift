import Foundation
import KeychainLab
import Security

/// keychainlab-app: an app that makes any SecItem call given as JSON, through the Security module,
/// and prints `{"status", "name", "result"}`. Install it as any app of a world (`program:
/// keychainlab-app`) and drive it with `kclab app run … -- add '{"class": "genp", …}'`.
///
///     keychainlab-app add JSON | copy JSON | update QUERY CHANGES | delete JSON | message STATUS
///     keychainlab-app groups | stress THREADS ROUNDS
///     keychainlab-app add-web-credential FQDN ACCOUNT [PASSWORD] | request-web-credential [FQDN|-] [ACCOUNT]
@main
enum ScriptableApp {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else {
            fail("usage: keychainlab-app add|copy|update|delete JSON [JSON], or message STATUS")
        }
        if command == "message", arguments.count == 2, let status = Int32(arguments[1]) {
            print(SecCopyErrorMessageString(status, nil).map { String(describing: $0) } ?? "unknown status")
            return
        }
        if SharedCredentials.run(command, Array(arguments.dropFirst())) {
            return
        }
        if command == "groups" {
            print(Keychain.entitledAccessGroups.joined(separator: "\n"))
            return
        }
        if command == "stress", arguments.count == 3, let threads = Int(arguments[1]), let rounds = Int(arguments[2]) {
            let failures = Stress.run(threads: threads, rounds: rounds)
            print("stress: \(threads * rounds) rounds, \(failures.count) failures")
            for failure in failures.prefix(5) { print(failure) }
            exit(failures.isEmpty ? 0 : 1)
        }
        let dictionaries = arguments.dropFirst().map { text -> NSDictionary in
            guard let dictionary = Conversion.dictionary(text) else { fail("not a JSON object: \(text)") }
            return dictionary
        }
        var result: CFTypeRef?
        let status: OSStatus
        switch (command, dictionaries.count) {
        case ("add", 1): status = SecItemAdd(dictionaries[0], &result)
        case ("copy", 1), ("copy-matching", 1): status = SecItemCopyMatching(dictionaries[0], &result)
        case ("update", 2): status = SecItemUpdate(dictionaries[0], dictionaries[1])
        case ("delete", 1): status = SecItemDelete(dictionaries[0])
        default: fail("usage: keychainlab-app add|copy|update|delete JSON [JSON]")
        }
        print(Conversion.report(status: status, result: result))
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("keychainlab-app: \(message)\n".utf8))
        exit(2)
    }
}
