public import AssociationAPI
public import SiteAssociation

/// Whether a device uses an entry with `?mode=developer`, `managed` or `developer+managed` at all
/// (spec associations.md a.1): developer entries only in Developer Mode and for development-signed
/// apps; managed entries only on MDM-managed devices, for domains the MDM authorised.
public enum AlternateMode {
    /// Why the device ignores `entry`, or nil when it uses it.
    public static func ignoredReason(_ entry: AssociatedDomain, settings: AssociationAPI.DeviceSettings, developmentSigned: Bool) -> String? {
        switch entry.mode {
        case nil: nil
        case .developer: developerReason(settings, developmentSigned)
        case .managed: managedReason(entry, settings)
        case .developerManaged: developerReason(settings, developmentSigned) ?? managedReason(entry, settings)
        }
    }

    /// Whether a used entry skips the CDN: developer entries always, managed ones when the MDM
    /// enabled direct downloads.
    public static func fetchesDirectly(_ entry: AssociatedDomain, settings: AssociationAPI.DeviceSettings) -> Bool {
        switch entry.mode {
        case nil: false
        case .developer, .developerManaged: true
        case .managed: settings.managedDirectDownloads
        }
    }

    private static func developerReason(_ settings: AssociationAPI.DeviceSettings, _ developmentSigned: Bool) -> String? {
        if !settings.developerMode {
            return "?mode=developer entries are used only on devices in Developer Mode with Associated Domains Development on; this device is not"
        }
        if !developmentSigned { return "?mode=developer entries are used only by development-signed apps (get-task-allow); this app is not" }
        return nil
    }

    private static func managedReason(_ entry: AssociatedDomain, _ settings: AssociationAPI.DeviceSettings) -> String? {
        guard let domains = settings.managedDomains else {
            return "?mode=managed entries are used only on devices an MDM manages; this device is not"
        }
        guard domains.contains(where: { $0.lowercased() == entry.host }) else {
            return "?mode=managed: the MDM has not authorised \(entry.host) for this device (it lists \(domains.joined(separator: ", ")))"
        }
        return nil
    }
}
