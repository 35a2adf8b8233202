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
}
