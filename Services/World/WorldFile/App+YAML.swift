import AppIdentity
import Foundation

extension App {
    static let keys = [
        "bundleID", "name", "team", "bundleSeedID", "platform", "appID", "profile", "entitlements",
        "executable", "program", "signedBy", "tamper", "update",
    ]
    static let updateKeys = ["bundleSeedID", "entitlements"]

    init(yaml value: YAMLValue, context: LoadingContext) throws(WorldError) {
        let mapping = try value.mapping(known: Self.keys)
        let bundleID = try mapping.required("bundleID").parse { text throws(IdentityError) in try BundleID(text) }
        let team = try mapping.required("team").parse { text throws(IdentityError) in try TeamID(text) }
        let seed = try mapping.optional("bundleSeedID")?.parse { text throws(IdentityError) in try TeamID(text) }
        let platform = try mapping.optional("platform").map { value throws(WorldError) in try value.choice(Platform.self) } ?? .ios
        let variables = BuildVariables(appIDPrefix: seed ?? team, team: team, bundleID: bundleID)
        self.init(
            bundleID: bundleID,
            name: try mapping.optional("name")?.string() ?? String(bundleID.rawValue.split(separator: ".").last!),
            team: team,
            bundleSeedID: seed,
            platform: platform,
            appIDKind: try mapping.optional("appID").map { value throws(WorldError) in try value.choice(AppIDKind.self) } ?? .explicit,
            profile: try mapping.optional("profile").map { value throws(WorldError) in try ProfileSpec(yaml: value, variables: variables) }
                ?? ProfileSpec(),
            executable: try mapping.optional("executable").map { value throws(WorldError) in context.resolve(try value.string()) },
            program: try mapping.optional("program").map { value throws(WorldError) in try Self.program(value) },
            signedBy: try mapping.optional("signedBy")?.parse { text throws(IdentityError) in try TeamID(text) },
            tampering: Set(try mapping.optional("tamper")?.sequence().map { value throws(WorldError) in try value.choice(Tampering.self) } ?? [])
        )
        if mapping.optional("executable") != nil, let program = mapping.optional("program") {
            throw program.error(.malformedValue, "give 'executable' (a file) or 'program' (a KeychainLab app), not both")
        }
        if let declared = mapping.optional("entitlements") {
            entitlements = try Self.entitlements(declared, variables: buildVariables)
        }
        if let declared = mapping.optional("update") {
            update = try updateDeclaration(declared, entitlements: mapping.optional("entitlements"))
        }
    }

    /// `update:`: the later version's prefix and entitlements. Entitlements it does not give are
    /// the app's, expanded again with the update's prefix, as Xcode would when the prefix changes.
    private func updateDeclaration(_ value: YAMLValue, entitlements original: YAMLValue?) throws(WorldError) -> AppUpdate {
        let mapping = try value.mapping(known: Self.updateKeys)
        let seed = try mapping.optional("bundleSeedID")?.parse { text throws(IdentityError) in try TeamID(text) }
        let variables = BuildVariables(appIDPrefix: seed ?? team, team: team, bundleID: bundleID)
        guard let written = mapping.optional("entitlements") ?? original else {
            return AppUpdate(bundleSeedID: seed)
        }
        return AppUpdate(bundleSeedID: seed, entitlements: try Self.entitlements(written, variables: variables))
    }

    /// A program name: a file name, no folders.
    private static func program(_ value: YAMLValue) throws(WorldError) -> String {
        let name = try value.string()
        guard !name.isEmpty, !name.contains("/"), name != "..", name != "." else {
            throw value.error(.malformedValue, "'\(name)' is not a program name (such as keychainlab-app)")
        }
        return name
    }

    /// Reads entitlements as written in an `.entitlements` file and expands Xcode's build variables.
    private static func entitlements(_ value: YAMLValue, variables: BuildVariables) throws(WorldError) -> Entitlements {
        // Group lists may hold a non-string element, as a real signature can: securityd then ignores
        // the whole entitlement (spec keychain.md §1.1), which a world may mean to show.
        let groupLists = [EntitlementKey.keychainAccessGroups, EntitlementKey.applicationGroups]
        var result = Entitlements()
        for (key, element) in try value.openMapping() {
            if groupLists.contains(key) {
                _ = try element.sequence()
            } else if key == EntitlementKey.associatedDomains {
                _ = try element.strings()
            } else if key == EntitlementKey.getTaskAllow {
                _ = try element.bool()
            }
            result[key] = try element.plistValue(expanding: variables)
        }
        return result
    }
}

extension ProfileSpec {
    static let keys = ["type", "devices", "validDays", "expired", "grants"]

    /// `development`, `distribution`, `none`, or a mapping with the details; `grants` expands Xcode's build
    /// variables as the app's entitlements do.
    init(yaml value: YAMLValue, variables: BuildVariables) throws(WorldError) {
        if value.isScalar, (try? value.string()) == "none" {
            self.init(kind: .distribution, exists: false)
            return
        }
        if value.isScalar {
            self.init(kind: try value.choice(ProvisioningProfile.Kind.self))
            return
        }
        let mapping = try value.mapping(known: Self.keys)
        let days = try mapping.optional("validDays")?.int() ?? 365
        if let daysValue = mapping.optional("validDays"), !(1...3650).contains(days) {
            throw daysValue.error(.malformedValue, "validDays must be between 1 and 3650, found \(days)")
        }
        self.init(
            kind: try mapping.optional("type")?.choice(ProvisioningProfile.Kind.self) ?? .development,
            devices: try mapping.optional("devices")?.strings(),
            validDays: days,
            expired: try mapping.optional("expired")?.bool() ?? false,
            grants: try mapping.optional("grants").map { value throws(WorldError) in
                var grants = Entitlements()
                for (key, element) in try value.openMapping() { grants[key] = try element.plistValue(expanding: variables) }
                return grants
            } ?? Entitlements()
        )
    }
}

extension YAMLValue {
    /// The node as one of an enumeration's raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws(WorldError) -> T where T.RawValue == String {
        let text = try string()
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw error(.malformedValue, "'\(text)' is not one of \(allowed)")
        }
        return value
    }
}
