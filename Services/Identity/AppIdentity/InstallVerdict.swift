/// The answer to "may this bundle be installed, and what may it do?": `kclab bundle verify`'s output.
///
/// An invalid bundle is granted nothing, so its access groups and associated domains are empty;
/// its `appID` and `teamID` are still reported, when readable, to help say which bundle it was.
public struct InstallVerdict: Hashable, Sendable, Codable {
    /// The application identifier the signature claims.
    public var appID: String?
    /// The profile's team.
    public var teamID: String?
    /// The access groups, in Apple's order; empty when invalid.
    public var accessGroups: [AccessGroup]
    /// The associated-domains entries; empty when invalid.
    public var associatedDomains: [String]
    /// Every rule that failed; empty when valid.
    public var reasons: [Refusal]
    /// The signed entitlements of a valid bundle (not part of the JSON form).
    public var entitlements: Entitlements?
    /// The platform a valid bundle was built for (``VerifiedApp/builtFor``; not part of the JSON form).
    public var builtFor: Platform?

    /// Whether every rule passed.
    public var valid: Bool { reasons.isEmpty }

    /// A verdict from its parts.
    public init(
        appID: String?,
        teamID: String?,
        accessGroups: [AccessGroup],
        associatedDomains: [String],
        reasons: [Refusal],
        entitlements: Entitlements? = nil,
        builtFor: Platform? = nil
    ) {
        self.appID = appID
        self.teamID = teamID
        self.accessGroups = reasons.isEmpty ? accessGroups : []
        self.associatedDomains = reasons.isEmpty ? associatedDomains : []
        self.reasons = reasons
        self.entitlements = reasons.isEmpty ? entitlements : nil
        self.builtFor = reasons.isEmpty ? builtFor : nil
    }

    private enum CodingKeys: String, CodingKey {
        case valid, appID, teamID, accessGroups, associatedDomains, reasons
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(valid, forKey: .valid)
        try container.encode(appID, forKey: .appID)
        try container.encode(teamID, forKey: .teamID)
        try container.encode(accessGroups, forKey: .accessGroups)
        try container.encode(associatedDomains, forKey: .associatedDomains)
        try container.encode(reasons, forKey: .reasons)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            appID: try container.decodeIfPresent(String.self, forKey: .appID),
            teamID: try container.decodeIfPresent(String.self, forKey: .teamID),
            accessGroups: try container.decode([AccessGroup].self, forKey: .accessGroups),
            associatedDomains: try container.decode([String].self, forKey: .associatedDomains),
            reasons: try container.decode([Refusal].self, forKey: .reasons)
        )
    }
}
