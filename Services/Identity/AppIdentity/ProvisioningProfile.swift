public import Foundation
public import LabErrors

/// A provisioning profile: the property list inside an `embedded.mobileprovision`, in which Apple
/// states which App ID, entitlements, signing certificates and devices a team may use.
public struct ProvisioningProfile: Hashable, Sendable {
    /// A development profile (`get-task-allow`, a device list) or a distribution profile.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case development
        case distribution
    }

    /// The profile's name, as the developer portal shows it.
    public var name: String
    /// The App ID's description (`AppIDName`).
    public var appIDName: String
    /// The app ID prefixes the profile allows: the team ID or a legacy bundle seed ID.
    public var applicationIdentifierPrefixes: [TeamID]
    /// The team the profile belongs to (Apple writes a one-element array).
    public var teamIdentifiers: [TeamID]
    /// The team's name.
    public var teamName: String
    /// `iOS` or `OSX`.
    public var platforms: [String]
    /// The entitlements the app may claim: exact values, `TEAMID.*` wildcards, or `*`.
    public var entitlements: Entitlements
    /// The certificates that may sign the app, DER.
    public var developerCertificates: [Data]
    /// The devices a development profile may run on (UDIDs); `nil` for distribution profiles.
    public var provisionedDevices: [String]?
    /// An enterprise (in-house) profile's `ProvisionsAllDevices`: it runs on any device.
    public var provisionsAllDevices = false
    /// When the profile was made.
    public var creationDate: Date
    /// When the profile stops being valid.
    public var expirationDate: Date
    /// The profile's UUID, as the profile writes it: real ones are lower case, and Xcode names the
    /// installed file after this exact string.
    public var uuid: String
    /// The profile's other keys as it holds them (`TimeToLive`, `Version`, `IsXcodeManaged`,
    /// `PPQCheck`, `DER-Encoded-Profile`, …), for a reader to show; none decides anything.
    public var otherValues: [String: PlistValue] = [:]

    /// Makes a profile from its parts.
    public init(
        name: String,
        appIDName: String,
        applicationIdentifierPrefixes: [TeamID],
        teamIdentifiers: [TeamID],
        teamName: String,
        platforms: [String],
        entitlements: Entitlements,
        developerCertificates: [Data],
        provisionedDevices: [String]?,
        creationDate: Date,
        expirationDate: Date,
        uuid: String
    ) {
        self.name = name
        self.appIDName = appIDName
        self.applicationIdentifierPrefixes = applicationIdentifierPrefixes
        self.teamIdentifiers = teamIdentifiers
        self.teamName = teamName
        self.platforms = platforms
        self.entitlements = entitlements
        self.developerCertificates = developerCertificates
        self.provisionedDevices = provisionedDevices
        self.creationDate = creationDate
        self.expirationDate = expirationDate
        self.uuid = uuid
    }

    /// Development when the profile allows `get-task-allow`, as Apple's are; otherwise distribution.
    public var kind: Kind {
        entitlements.getTaskAllow ? .development : .distribution
    }

    /// Whether the profile is for macOS (`OSX` among its platforms).
    public var isForMac: Bool { platforms.contains("OSX") }

    /// The team the profile belongs to.
    public var teamID: TeamID? {
        teamIdentifiers.first
    }

    /// The profile's App ID: its `application-identifier` entitlement, explicit or wildcard.
    public var appIDPattern: AppIDPattern? {
        entitlements.applicationIdentifier.flatMap { try? AppIDPattern($0) }
    }

    /// Whether the profile is valid at `date`.
    public func isCurrent(at date: Date) -> Bool {
        creationDate <= date && date <= expirationDate
    }

    /// Whether a development profile lists `udid`; a distribution profile runs on every device.
    public func provisions(device udid: String) -> Bool {
        guard let provisionedDevices else { return true }
        return provisionedDevices.contains { $0.caseInsensitiveCompare(udid) == .orderedSame }
    }
}

extension ProvisioningProfile {
    private enum Key {
        static let name = "Name"
        static let appIDName = "AppIDName"
        static let prefixes = "ApplicationIdentifierPrefix"
        static let teamIdentifier = "TeamIdentifier"
        static let teamName = "TeamName"
        static let platform = "Platform"
        static let entitlements = "Entitlements"
        static let certificates = "DeveloperCertificates"
        static let devices = "ProvisionedDevices"
        static let allDevices = "ProvisionsAllDevices"
        static let creationDate = "CreationDate"
        static let expirationDate = "ExpirationDate"
        static let uuid = "UUID"
        static let timeToLive = "TimeToLive"
        static let version = "Version"
        static let xcodeManaged = "IsXcodeManaged"
        /// The keys read into the profile's own properties.
        static let modeled: Set<String> = [
            name, appIDName, prefixes, teamIdentifier, teamName, platform, entitlements, certificates, devices, allDevices,
            creationDate, expirationDate, uuid,
        ]
    }

    /// Reads the property list found inside an `embedded.mobileprovision`.
    public init(propertyList data: Data) throws(IdentityError) {
        let plist = try PlistValue.dictionary(fromPropertyList: data)
        func required<T>(_ key: String, _ read: (PlistValue) -> T?) throws(IdentityError) -> T {
            guard let value = plist[key], let typed = read(value) else {
                throw IdentityError(.malformedPropertyList, "the profile lacks a valid \(key)")
            }
            return typed
        }
        func teams(_ key: String) throws(IdentityError) -> [TeamID] {
            var result: [TeamID] = []
            for text in try required(key, \.strings) { result.append(try TeamID(text)) }
            return result
        }
        name = try required(Key.name, \.string)
        // Profiles made before 2013 have no AppIDName, and before 2014 no Platform (they were
        // for iOS only); some have no TeamName. Everything else is required.
        appIDName = plist[Key.appIDName]?.string ?? ""
        applicationIdentifierPrefixes = try teams(Key.prefixes)
        teamIdentifiers = try teams(Key.teamIdentifier)
        teamName = plist[Key.teamName]?.string ?? ""
        platforms = plist[Key.platform]?.strings ?? ["iOS"]
        entitlements = Entitlements(try required(Key.entitlements, \.dictionary))
        developerCertificates = try required(Key.certificates) { value in
            value.array?.compactMap { element -> Data? in
                if case .data(let data) = element { return data }
                return nil
            }
        }
        provisionedDevices = plist[Key.devices]?.strings
        provisionsAllDevices = plist[Key.allDevices]?.bool ?? false
        creationDate = try required(Key.creationDate) { if case .date(let date) = $0 { date } else { nil } }
        expirationDate = try required(Key.expirationDate) { if case .date(let date) = $0 { date } else { nil } }
        uuid = try required(Key.uuid) { value in value.string.flatMap { UUID(uuidString: $0) == nil ? nil : $0 } }
        otherValues = plist.filter { !Key.modeled.contains($0.key) }
    }

    /// The profile as an XML property list, as Apple writes it inside the CMS envelope.
    public var propertyList: Data {
        var plist: [String: PlistValue] = [
            Key.name: .string(name),
            Key.appIDName: .string(appIDName),
            Key.prefixes: .array(applicationIdentifierPrefixes.map { .string($0.rawValue) }),
            Key.teamIdentifier: .array(teamIdentifiers.map { .string($0.rawValue) }),
            Key.teamName: .string(teamName),
            Key.platform: .array(platforms.map(PlistValue.string)),
            Key.entitlements: .dictionary(entitlements.values),
            Key.certificates: .array(developerCertificates.map(PlistValue.data)),
            Key.creationDate: .date(creationDate),
            Key.expirationDate: .date(expirationDate),
            Key.uuid: .string(uuid),
            Key.timeToLive: .integer(Int(expirationDate.timeIntervalSince(creationDate) / 86_400)),
            Key.version: .integer(1),
            Key.xcodeManaged: .bool(false),
        ]
        if let provisionedDevices {
            plist[Key.devices] = .array(provisionedDevices.map(PlistValue.string))
        }
        if provisionsAllDevices { plist[Key.allDevices] = .bool(true) }
        return PlistValue.xmlPropertyList(plist)
    }
}
