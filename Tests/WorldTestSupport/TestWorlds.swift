/// World files the tests build, written in code like swift-certificates' test CAs.
public enum TestWorlds {
    /// The UDIDs of the refusal world's two devices.
    public static let deviceA = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1"
    public static let deviceB = "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB2"

    /// A world with one good app per kind and one broken bundle per refusal the foundation issue lists.
    public static let refusals = """
        name: refusals
        teams:
          - {id: AAAAA11111, name: Team One, appGroups: [group.one.shared]}
          - {id: BBBBB22222, name: Team Two}
        apps:
          - bundleID: one.good
            team: AAAAA11111
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)one.shared, "", $(TeamIdentifierPrefix)one.other]
              com.apple.security.application-groups: [group.one.shared]
              com.apple.developer.associated-domains: [webcredentials:example.com, applinks:example.com]
          - bundleID: one.seeded
            team: AAAAA11111
            bundleSeedID: CCCCC33333
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)family]
          - bundleID: one.wildcard
            team: AAAAA11111
            appID: wildcard
            profile: distribution
          - bundleID: one.editedEntitlements
            team: AAAAA11111
            tamper: [edit-entitlements]
          - bundleID: one.foreignGroup
            team: AAAAA11111
            entitlements:
              keychain-access-groups: [BBBBB22222.shared]
          - bundleID: one.unregisteredGroup
            team: AAAAA11111
            entitlements:
              com.apple.security.application-groups: [group.not.registered]
          - bundleID: one.expired
            team: AAAAA11111
            profile: {expired: true}
          - bundleID: one.otherDevice
            team: AAAAA11111
            profile: {devices: [dev-b]}
          - bundleID: one.untrustedProfile
            team: AAAAA11111
            tamper: [untrusted-profile]
          - bundleID: one.untrustedCertificate
            team: AAAAA11111
            tamper: [untrusted-certificate]
          - bundleID: one.signedByOther
            team: AAAAA11111
            signedBy: BBBBB22222
          - bundleID: one.replacedExecutable
            team: AAAAA11111
            tamper: [replace-executable]
          - bundleID: one.wildcardWithGroup
            team: AAAAA11111
            appID: wildcard
            entitlements:
              com.apple.security.application-groups: [group.one.shared]
          - bundleID: one.wildcardWithDomain
            team: AAAAA11111
            appID: wildcard
            entitlements:
              com.apple.developer.associated-domains: [webcredentials:example.com]
          - bundleID: one.forgedAppID
            team: AAAAA11111
            entitlements:
              application-identifier: AAAAA11111.one.good
          - bundleID: one.debuggableDistribution
            team: AAAAA11111
            profile: distribution
            entitlements:
              get-task-allow: true
          - bundleID: two.good
            team: BBBBB22222
            platform: macos
            entitlements:
              keychain-access-groups: [$(AppIdentifierPrefix)shared]
        devices:
          - {id: dev-a, udid: \(deviceA), osVersion: "17.4", iCloudAccount: alice@example.com, iCloudAccounts: [bob@example.com]}
          - {id: dev-b, udid: \(deviceB), osVersion: "12.5"}
        websites:
          - domain: example.com
            aasa:
              content: {webcredentials: {apps: [AAAAA11111.one.good]}}
            subdomains:
              - name: signed
                aasa:
                  signed: true
                  content: {webcredentials: {apps: [AAAAA11111.one.good]}}
        """
}
