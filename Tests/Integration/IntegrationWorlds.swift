/// The worlds the integration tests run: seed 000's family, another team, broken bundles, and an
/// older device, every app running the scriptable app.
enum IntegrationWorlds {
    static let phone = "phone"
    static let oldPad = "old-pad"
    static let mac = "mac"

    static let family = """
        name: family
        teams:
          - {id: ABCDE12345, name: Example Inc., appGroups: [group.com.example.AppSuite]}
          - {id: OTHER98765, name: Other Corp}
        apps:
          - bundleID: com.example.AppOne
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.SharedItems]
              com.apple.security.application-groups: [group.com.example.AppSuite]
          - bundleID: com.example.AppTwo
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.SharedItems]
            update:
              entitlements:
                keychain-access-groups: [OTHER98765.com.example.SharedItems]
          - bundleID: com.example.Legacy
            team: ABCDE12345
            bundleSeedID: Q7LEGACY42
            program: keychainlab-app
            update: {}
          - bundleID: com.example.AppOne.Suite
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              com.apple.security.application-groups: [group.com.example.AppSuite]
          - bundleID: com.other.Snooper
            team: OTHER98765
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.SharedItems]
          - bundleID: com.other.Thief
            team: OTHER98765
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [ABCDE12345.com.example.SharedItems]
          - bundleID: com.example.Tampered
            team: ABCDE12345
            program: keychainlab-app
            tamper: [edit-entitlements]
          - bundleID: com.example.Release
            team: ABCDE12345
            program: keychainlab-app
            profile: distribution
          - bundleID: com.example.MacApp
            team: ABCDE12345
            platform: macos
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.SharedItems]
        devices:
          - id: phone
            osVersion: "17.4"
            iCloudAccount: alice@example.com
            passcode: "123456"
            apps: [com.example.AppOne, com.example.AppTwo, com.example.AppOne.Suite, com.other.Snooper, com.other.Thief,
                   com.example.Tampered, com.example.Release, com.example.Legacy]
          - id: old-pad
            osVersion: "12.5"
            iCloudAccount: alice@example.com
            apps: [com.example.AppOne, com.other.Snooper]
          - id: mac
            platform: macos
            osVersion: "14.5"
            iCloudAccount: alice@example.com
            passcode: correct horse
            apps: [com.example.MacApp, com.example.AppOne]
        """

    /// Two App Clips: one holding only its own group, one claiming a shared keychain group too.
    static let appClips = """
        name: clips
        teams:
          - {id: ABCDE12345, name: Example Inc.}
        apps:
          - bundleID: com.example.AppOne.Clip
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              com.apple.developer.on-demand-install-capable: true
          - bundleID: com.example.Greedy.Clip
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              com.apple.developer.on-demand-install-capable: true
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.SharedItems]
        devices:
          - id: phone
            osVersion: "17.4"
            apps: [com.example.AppOne.Clip, com.example.Greedy.Clip]
        """

    /// The apps securityd's own tests use that a profile must grant (`profile: grants:`): associated
    /// application identifiers written as Apple's tests write them (no team prefix), a group list
    /// holding a number, and another team's app denied the keychain.
    static let securitydApps = """
        name: securityd-apps
        teams:
          - {id: ABCDE12345, name: Example Inc.}
          - {id: OTHER98765, name: Other Corp}
        apps:
          - bundleID: com.example.Associated
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.Shared]
              com.apple.developer.associated-application-identifier: [com.apple.security.test.assoc]
            profile:
              grants:
                com.apple.developer.associated-application-identifier: [com.apple.security.test.assoc]
          - bundleID: com.example.Ungranted
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              com.apple.developer.associated-application-identifier: [com.apple.security.test.assoc]
          - bundleID: com.example.Malformed
            team: ABCDE12345
            program: keychainlab-app
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.Shared, 42]
            profile:
              grants:
                keychain-access-groups: [42]
          - bundleID: com.other.Denied
            team: OTHER98765
            program: keychainlab-app
            entitlements:
              com.apple.private.keychain.deny: true
            profile:
              grants:
                com.apple.private.keychain.deny: true
        devices:
          - id: phone
            osVersion: "17.4"
            apps: [com.example.Associated, com.example.Ungranted, com.example.Malformed, com.other.Denied]
          - id: mac
            platform: macos
            osVersion: "14.5"
            apps: [com.example.Associated]
        """

    /// Clients holding the access group `*` on a Mac: Keychain Access (a platform binary on
    /// securityd's allow-list), a platform binary that is not on it, and a third-party app.
    static let platformBinaries = """
        name: platform-binaries
        teams:
          - {id: 0000000000, name: Apple}
          - {id: ABCDE12345, name: Example Inc.}
        apps:
          - bundleID: com.apple.keychainaccess
            team: 0000000000
            platform: macos
            program: keychainlab-app
            entitlements: {keychain-access-groups: ["*"]}
            profile: {grants: {keychain-access-groups: ["*"]}}
          - bundleID: com.apple.Notes
            team: 0000000000
            platform: macos
            program: keychainlab-app
            entitlements: {keychain-access-groups: ["*"]}
            profile: {grants: {keychain-access-groups: ["*"]}}
          - bundleID: com.example.Greedy
            team: ABCDE12345
            platform: macos
            program: keychainlab-app
            entitlements: {keychain-access-groups: ["*"]}
            profile: {grants: {keychain-access-groups: ["*"]}}
          - bundleID: com.example.MacApp
            team: ABCDE12345
            platform: macos
            program: keychainlab-app
            entitlements: {keychain-access-groups: [$(AppIdentifierPrefix)com.example.Shared]}
        devices:
          - id: mac
            platform: macos
            osVersion: "14.5"
            apps: [com.apple.keychainaccess, com.apple.Notes, com.example.Greedy, com.example.MacApp]
        """

    /// Apps signed without a provisioning profile (Developer ID): a Mac installs them with their
    /// entitlements unvalidated; an iPhone refuses them.
    static let developerID = """
        name: developer-id
        teams:
          - {id: ABCDE12345, name: Example Inc., appGroups: [group.com.example.Suite]}
        apps:
          - bundleID: com.example.Tool
            team: ABCDE12345
            platform: macos
            program: keychainlab-app
            profile: none
          - bundleID: com.example.DeveloperID
            team: ABCDE12345
            platform: macos
            program: keychainlab-app
            profile: none
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)com.example.Shared]
              com.apple.security.application-groups: [group.com.example.Suite]
          - bundleID: com.example.Stripped
            team: ABCDE12345
            platform: macos
            program: keychainlab-app
            profile: none
            entitlements:
              com.apple.application-identifier: $(AppIdentifierPrefix)com.example.Stripped
          - bundleID: com.example.PhoneTool
            team: ABCDE12345
            program: keychainlab-app
            profile: none
        devices:
          - id: mac
            platform: macos
            osVersion: "14.5"
            apps: [com.example.Tool, com.example.DeveloperID, com.example.Stripped]
          - id: phone
            osVersion: "17.4"
            apps: [com.example.PhoneTool]
        """
}
