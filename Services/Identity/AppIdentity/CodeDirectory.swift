public import Foundation
public import LabErrors

/// What a code signature signs: the app's identifier, its team, its expanded entitlements and
/// the digests of the files that make it up.
///
/// A real code directory holds a hash per page of the executable and a hash of every resource; a
/// KeychainLab bundle holds one SHA-256 per file, which keeps the same property: change any
/// signed byte and the signature no longer covers the bundle.
public struct CodeDirectory: Hashable, Sendable {
    /// The bundle ID the app was signed as.
    public var identifier: BundleID
    /// The team whose certificate signed it.
    public var teamIdentifier: TeamID
    /// The entitlements, with `$(AppIdentifierPrefix)` and friends expanded.
    public var entitlements: Entitlements
    /// SHA-256 of the executable.
    public var executableDigest: Data
    /// SHA-256 of `Info.plist`.
    public var infoPlistDigest: Data
    /// SHA-256 of `embedded.mobileprovision`.
    public var profileDigest: Data

    /// Makes a code directory from its parts.
    public init(
        identifier: BundleID,
        teamIdentifier: TeamID,
        entitlements: Entitlements,
        executableDigest: Data,
        infoPlistDigest: Data,
        profileDigest: Data
    ) {
        self.identifier = identifier
        self.teamIdentifier = teamIdentifier
        self.entitlements = entitlements
        self.executableDigest = executableDigest
        self.infoPlistDigest = infoPlistDigest
        self.profileDigest = profileDigest
    }
}

extension CodeDirectory {
    private enum Key {
        static let version = "Version"
        static let identifier = "Identifier"
        static let teamIdentifier = "TeamIdentifier"
        static let entitlements = "Entitlements"
        static let executable = "ExecutableSHA256"
        static let infoPlist = "InfoPlistSHA256"
        static let profile = "ProfileSHA256"
    }

    /// Reads a code directory property list (the content of a code signature).
    public init(propertyList data: Data) throws(IdentityError) {
        let plist = try PlistValue.dictionary(fromPropertyList: data)
        func digest(_ key: String) throws(IdentityError) -> Data {
            guard case .data(let value)? = plist[key], value.count == 32 else {
                throw IdentityError(.malformedPropertyList, "the code directory lacks a valid \(key)")
            }
            return value
        }
        guard let identifier = plist[Key.identifier]?.string, let team = plist[Key.teamIdentifier]?.string else {
            throw IdentityError(.malformedPropertyList, "the code directory lacks an Identifier or TeamIdentifier")
        }
        guard let entitlements = plist[Key.entitlements]?.dictionary else {
            throw IdentityError(.malformedPropertyList, "the code directory lacks its Entitlements")
        }
        self.identifier = try BundleID(identifier)
        self.teamIdentifier = try TeamID(team)
        self.entitlements = Entitlements(entitlements)
        executableDigest = try digest(Key.executable)
        infoPlistDigest = try digest(Key.infoPlist)
        profileDigest = try digest(Key.profile)
    }

    /// The code directory as an XML property list: the bytes the team's certificate signs.
    public var propertyList: Data {
        PlistValue.xmlPropertyList([
            Key.version: .integer(1),
            Key.identifier: .string(identifier.rawValue),
            Key.teamIdentifier: .string(teamIdentifier.rawValue),
            Key.entitlements: .dictionary(entitlements.values),
            Key.executable: .data(executableDigest),
            Key.infoPlist: .data(infoPlistDigest),
            Key.profile: .data(profileDigest),
        ])
    }
}
