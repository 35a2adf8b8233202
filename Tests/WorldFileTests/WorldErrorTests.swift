import Foundation
import Testing
import WorldFile

/// Each kind of bad world file, with the file, line and key its error must name.
@Suite struct WorldErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let yaml: String
        let code: WorldError.Code
        let line: Int
        let key: String
        let mentions: String
        var testDescription: String { name }
    }

    static let team = "teams: [{id: ABCDE12345}]\n"

    static let cases: [Case] = [
        Case(name: "unknown top-level key", yaml: "teams: []\nappz: []\n", code: .unknownKey, line: 2, key: "", mentions: "'appz'"),
        Case(
            name: "unknown app key",
            yaml: team + "apps:\n  - bundleID: a.b\n    team: ABCDE12345\n    entitlement: {}\n",
            code: .unknownKey,
            line: 5,
            key: "apps[0]",
            mentions: "'entitlement'"
        ),
        Case(
            name: "unknown update key",
            yaml: team + "apps:\n  - bundleID: a.b\n    team: ABCDE12345\n    update:\n      prefix: X\n",
            code: .unknownKey,
            line: 6,
            key: "apps[0].update",
            mentions: "'prefix'"
        ),
        Case(name: "malformed team ID", yaml: "teams:\n  - id: abc\n", code: .malformedValue, line: 2, key: "teams[0].id", mentions: "not a team ID"),
        Case(
            name: "malformed bundle ID",
            yaml: team + "apps:\n  - {bundleID: 'a b', team: ABCDE12345}\n",
            code: .malformedValue,
            line: 3,
            key: "apps[0].bundleID",
            mentions: "not a bundle ID"
        ),
        Case(name: "missing team", yaml: team + "apps:\n  - bundleID: a.b\n", code: .missingKey, line: 3, key: "apps[0]", mentions: "'team'"),
        Case(
            name: "undeclared team",
            yaml: team + "apps:\n  - bundleID: a.b\n    team: ZZZZZ99999\n",
            code: .inconsistent,
            line: 4,
            key: "apps[0].team",
            mentions: "ZZZZZ99999"
        ),
        Case(
            name: "duplicate bundle ID",
            yaml: team + "apps:\n  - {bundleID: a.b, team: ABCDE12345}\n  - {bundleID: a.b, team: ABCDE12345}\n",
            code: .inconsistent,
            line: 4,
            key: "apps[1]",
            mentions: "declared twice"
        ),
        Case(
            name: "two builds of one bundle ID for one platform",
            yaml: team + "apps:\n  - {bundleID: a.b, team: ABCDE12345, platform: macos}\n  - {bundleID: a.b, team: ABCDE12345, platform: macos}\n",
            code: .inconsistent,
            line: 4,
            key: "apps[1]",
            mentions: "declared twice for macos"
        ),
        Case(
            name: "builds of one bundle ID by two teams",
            yaml: "teams: [{id: ABCDE12345}, {id: ZZZZZ99999}]\n"
                + "apps:\n  - {bundleID: a.b, team: ABCDE12345}\n  - {bundleID: a.b, team: ZZZZZ99999, platform: macos}\n",
            code: .inconsistent,
            line: 4,
            key: "apps[1].team",
            mentions: "one bundle ID belongs to one team"
        ),
        Case(
            name: "unknown build variable",
            yaml: team
                + "apps:\n  - bundleID: a.b\n    team: ABCDE12345\n    entitlements:\n      keychain-access-groups:\n        - $(TeamPrefix)x\n",
            code: .malformedValue,
            line: 7,
            key: "apps[0].entitlements.keychain-access-groups[0]",
            mentions: "$(TeamPrefix)"
        ),
        Case(
            name: "keychain groups not a list",
            yaml: team + "apps:\n  - bundleID: a.b\n    team: ABCDE12345\n    entitlements:\n      keychain-access-groups: ABCDE12345.x\n",
            code: .malformedValue,
            line: 6,
            key: "apps[0].entitlements.keychain-access-groups",
            mentions: "expected a list"
        ),
        Case(
            name: "get-task-allow not a Boolean",
            yaml: team + "apps:\n  - bundleID: a.b\n    team: ABCDE12345\n    entitlements: {get-task-allow: yes please}\n",
            code: .malformedValue,
            line: 5,
            key: "apps[0].entitlements.get-task-allow",
            mentions: "true or false"
        ),
        Case(
            name: "bad App ID kind",
            yaml: team + "apps:\n  - {bundleID: a.b, team: ABCDE12345, appID: partial}\n",
            code: .malformedValue,
            line: 3,
            key: "apps[0].appID",
            mentions: "'wildcard'"
        ),
        Case(
            name: "bad profile type",
            yaml: team + "apps:\n  - {bundleID: a.b, team: ABCDE12345, profile: adhoc}\n",
            code: .malformedValue,
            line: 3,
            key: "apps[0].profile",
            mentions: "'distribution'"
        ),
        Case(
            name: "validDays out of range",
            yaml: team + "apps:\n  - bundleID: a.b\n    team: ABCDE12345\n    profile: {validDays: 0}\n",
            code: .malformedValue,
            line: 5,
            key: "apps[0].profile.validDays",
            mentions: "between 1 and 3650"
        ),
        Case(
            name: "validDays not a number",
            yaml: team + "apps:\n  - bundleID: a.b\n    team: ABCDE12345\n    profile: {validDays: soon}\n",
            code: .malformedValue,
            line: 5,
            key: "apps[0].profile.validDays",
            mentions: "whole number"
        ),
        Case(
            name: "profile names an undeclared device",
            yaml: team + "apps:\n  - bundleID: a.b\n    team: ABCDE12345\n    profile: {devices: [nowhere]}\n",
            code: .inconsistent,
            line: 5,
            key: "apps[0].profile",
            mentions: "'nowhere'"
        ),
        Case(
            name: "unknown tampering",
            yaml: team + "apps:\n  - {bundleID: a.b, team: ABCDE12345, tamper: [explode]}\n",
            code: .malformedValue,
            line: 3,
            key: "apps[0].tamper[0]",
            mentions: "'explode'"
        ),
        Case(
            name: "bad OS version",
            yaml: "devices:\n  - {id: p, osVersion: seventeen}\n",
            code: .malformedValue,
            line: 2,
            key: "devices[0].osVersion",
            mentions: "not an OS version"
        ),
        Case(name: "missing OS version", yaml: "devices:\n  - {id: p}\n", code: .missingKey, line: 2, key: "devices[0]", mentions: "osVersion"),
        Case(
            name: "bad platform",
            yaml: "devices:\n  - {id: p, osVersion: 17, platform: android}\n",
            code: .malformedValue,
            line: 2,
            key: "devices[0].platform",
            mentions: "'ios'"
        ),
        Case(
            name: "bad UDID",
            yaml: "devices:\n  - {id: p, osVersion: 17, udid: 1234}\n",
            code: .malformedValue,
            line: 2,
            key: "devices[0].udid",
            mentions: "not a UDID"
        ),
        Case(
            name: "bad device ID",
            yaml: "devices:\n  - {id: Alice Phone, osVersion: 17}\n",
            code: .malformedValue,
            line: 2,
            key: "devices[0].id",
            mentions: "not a device ID"
        ),
        Case(
            name: "bad passcode",
            yaml: "devices:\n  - {id: p, osVersion: 17, passcode: abcd}\n",
            code: .malformedValue,
            line: 2,
            key: "devices[0].passcode",
            mentions: "digits"
        ),
        Case(
            name: "a Mac's password on two lines",
            yaml: "devices:\n  - id: m\n    platform: macos\n    osVersion: 14\n    passcode: \"a\\nb\"\n",
            code: .malformedValue,
            line: 5,
            key: "devices[0].passcode",
            mentions: "the user's password"
        ),
        Case(
            name: "device installs an undeclared app",
            yaml: "devices:\n  - id: p\n    osVersion: 17\n    apps: [a.b]\n",
            code: .inconsistent,
            line: 4,
            key: "devices[0].apps[0]",
            mentions: "a.b"
        ),
        Case(
            name: "macOS app on an iOS device",
            yaml: team + "apps: [{bundleID: a.b, team: ABCDE12345, platform: macos}]\ndevices:\n  - {id: p, osVersion: 17, apps: [a.b]}\n",
            code: .inconsistent,
            line: 4,
            key: "devices[0].apps[0]",
            mentions: "macOS app"
        ),
        Case(
            name: "an assetlinks file with neither content nor file",
            yaml: "websites:\n  - domain: example.com\n    assetlinks: {}\n",
            code: .malformedValue,
            line: 3,
            key: "websites[0].assetlinks",
            mentions: "content:"
        ),
        Case(
            name: "duplicate device",
            yaml: "devices:\n  - {id: p, osVersion: 17}\n  - {id: p, osVersion: 16}\n",
            code: .inconsistent,
            line: 3,
            key: "devices[1]",
            mentions: "declared twice"
        ),
        Case(
            name: "bad domain",
            yaml: "websites:\n  - domain: exa_mple.com\n",
            code: .malformedValue,
            line: 2,
            key: "websites[0].domain",
            mentions: "not a domain name"
        ),
        Case(
            name: "duplicate host",
            yaml: "websites:\n  - domain: example.com\n    subdomains: [{name: www}, {name: www}]\n",
            code: .inconsistent,
            line: 2,
            key: "websites[0]",
            mentions: "www.example.com"
        ),
        Case(
            name: "AASA with content and file",
            yaml: "websites:\n  - domain: example.com\n    aasa: {content: {a: 1}, file: x.json}\n",
            code: .malformedValue,
            line: 3,
            key: "websites[0].aasa",
            mentions: "exactly one"
        ),
        Case(
            name: "AASA content not a mapping",
            yaml: "websites:\n  - domain: example.com\n    aasa: {content: [1, 2]}\n",
            code: .malformedValue,
            line: 3,
            key: "websites[0].aasa.content",
            mentions: "mapping"
        ),
        Case(name: "teams not a list", yaml: "teams: {id: ABCDE12345}\n", code: .malformedValue, line: 1, key: "teams", mentions: "expected a list"),
        Case(name: "invalid YAML", yaml: "teams:\n  - id: [unclosed\n", code: .syntax, line: 3, key: "", mentions: "invalid YAML"),
        Case(name: "duplicate key", yaml: "teams: []\nteams: []\n", code: .syntax, line: 1, key: "", mentions: "duplicate key 'teams'"),
        Case(name: "empty file", yaml: "", code: .syntax, line: 1, key: "", mentions: "empty"),
        Case(name: "not a mapping", yaml: "- just\n- a list\n", code: .malformedValue, line: 1, key: "", mentions: "expected a mapping"),
    ]

    @Test(arguments: cases)
    func namesFileLineAndKey(_ testCase: Case) {
        do {
            let world = try World.parse(yaml: testCase.yaml, file: "bad.yaml")
            Issue.record("expected an error, loaded \(world)")
        } catch {
            #expect(error.code == testCase.code, "\(error)")
            #expect(error.file == "bad.yaml")
            #expect(error.line == testCase.line, "\(error)")
            #expect(error.key == testCase.key, "\(error)")
            #expect(error.description.contains(testCase.mentions), "\(error)")
            #expect(error.description.hasPrefix("bad.yaml:\(testCase.line):"), "\(error)")
        }
    }

    /// One run names every error: every entry that cannot be read, or, once every entry is
    /// read, every reference to something the file does not declare; in the order of the file.
    @Test func namesEveryErrorAtOnce() {
        let unreadable = """
            name: bad
            teams:
              - {id: ABCDE12345, name: A, color: red}
            apps:
              - {bundleID: com.example.One, team: ABCDE12345, bogus: 1}
            devices:
              - {id: phone, osVersion: "seventeen"}
            """
        let references = """
            name: bad
            teams:
              - {id: ABCDE12345, name: A}
            apps:
              - {bundleID: com.example.One, team: NOTEAM1234}
              - {bundleID: com.example.Two, team: ABCDE12345, profile: {devices: [ghost]}}
            devices:
              - {id: phone, osVersion: "17.4", apps: [com.example.Nope]}
            """
        for (yaml, lines) in [(unreadable, [3, 5, 7]), (references, [5, 6, 8])] {
            do {
                _ = try World.parse(yaml: yaml, file: "bad.yaml")
                Issue.record("expected errors")
            } catch {
                #expect(error.all.map(\.line) == lines, "\(error)")
                #expect(error.description.split(separator: "\n").count == lines.count)
            }
        }
    }

    @Test func namesAMissingFile() {
        #expect(throws: WorldError(.unreadable, file: "", line: 0, column: 0, key: "", message: "")) {
            try World.load(contentsOf: .init(fileURLWithPath: "/nonexistent/world.yaml"))
        }
    }

    /// A world file past the limit is refused before it is read into memory.
    @Test func refusesAnOversizedFile() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "huge-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(World.maximumFileSize + 1))
        try handle.close()
        do {
            _ = try World.load(contentsOf: file)
            Issue.record("an oversized world file was read")
        } catch {
            #expect(error.code == .unreadable && error.description.contains("more than"), "\(error)")
        }
    }
}
