import DeviceProtocol
import Foundation
import LabControl
import Testing
import WorldTestSupport

/// security-tool, macOS's `security` for the login keychain, run as a Mac app: the real tool's
/// flags, output and exit statuses (an OSStatus's low byte: 44 not found, 45 duplicate; 2 usage).
@Suite(.serialized) struct SecurityToolTests {
    typealias W = IntegrationWorlds

    static func security(_ lab: RunningLab, _ arguments: [String], as app: String = "com.example.MacApp") throws -> (Int32?, String) {
        let program = productsDirectory.appending(path: "security-tool").path
        let response = try DeviceClient(state: lab.state, device: W.mac).send(DeviceRequest(.exec(program: program, arguments: arguments), app: app))
        return (response.exitCode, response.output ?? response.error ?? "")
    }

    @Test func genericPasswordsAsTheRealToolHandlesThem() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let add = ["add-generic-password", "-a", "alice", "-s", "mail", "-l", "Mail account", "-w", "first"]
            #expect(try Self.security(lab, add).0 == 0)
            let duplicate = try Self.security(lab, add)
            #expect(duplicate.0 == 45)
            #expect(
                duplicate.1.contains("security: SecKeychainItemCreateFromContent (<default>): The specified item already exists in the keychain.")
            )
            #expect(try Self.security(lab, ["add-generic-password", "-a", "alice", "-s", "mail", "-w", "second", "-U"]).0 == 0)

            let password = try Self.security(lab, ["find-generic-password", "-a", "alice", "-s", "mail", "-w"])
            #expect(password.0 == 0 && password.1 == "second\n", "\(password.1)")
            let attributes = try Self.security(lab, ["find-generic-password", "-s", "mail"])
            #expect(attributes.1.contains("keychain: \"login.keychain-db\"\nclass: \"genp\"\nattributes:"), "\(attributes.1)")
            #expect(attributes.1.contains("\"acct\"<blob>=\"alice\"") && attributes.1.contains("\"labl\"<blob>=\"Mail account\""))
            #expect(!attributes.1.contains("second"), "no password unless -w or -g")

            let dump = try Self.security(lab, ["dump-keychain"])
            #expect(dump.1.contains("\"svce\"<blob>=\"mail\"") && !dump.1.contains("second"), "\(dump.1)")
            let revealed = try Self.security(lab, ["dump-keychain", "-d"])
            #expect(revealed.1.contains("data:\n\"second\""), "\(revealed.1)")

            let deleted = try Self.security(lab, ["delete-generic-password", "-a", "alice", "-s", "mail"])
            #expect(deleted.0 == 0 && deleted.1.hasSuffix("password has been deleted.\n"), "\(deleted.1)")
            let gone = try Self.security(lab, ["find-generic-password", "-a", "alice", "-s", "mail"])
            #expect(gone.0 == 44)
            #expect(gone.1.contains("security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain."))
            #expect(try Self.security(lab, ["rotate-everything"]).0 == 2)
            #expect(try Self.security(lab, ["add-generic-password", "-a", "alice"]).0 == 2)
        }
    }

    @Test func internetPasswords() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let add = ["add-internet-password", "-a", "bob", "-s", "example.com", "-r", "htps", "-P", "443", "-w", "pw"]
            #expect(try Self.security(lab, add).0 == 0)
            let found = try Self.security(lab, ["find-internet-password", "-s", "example.com", "-r", "htps", "-w"])
            #expect(found.0 == 0 && found.1 == "pw\n", "\(found.1)")
            #expect(try Self.security(lab, ["find-internet-password", "-s", "example.org"]).0 == 44)
            #expect(try Self.security(lab, ["delete-internet-password", "-s", "example.com"]).0 == 0)
        }
    }
}
