import AppIdentity

extension World {
    /// Checks what one entry cannot check alone: names declared once, references to things declared.
    func validate(_ top: YAMLMapping) throws(WorldError) {
        let teamValues = try top.optional("teams")?.sequence() ?? []
        let appValues = try top.optional("apps")?.sequence() ?? []
        let deviceValues = try top.optional("devices")?.sequence() ?? []
        let siteValues = try top.optional("websites")?.sequence() ?? []

        try unique(zip(teams.map(\.id.rawValue), teamValues), "team ID")
        try unique(zip(apps.map(\.bundleID.rawValue), appValues), "bundle ID")
        try unique(zip(devices.map(\.id), deviceValues), "device ID")
        try unique(zip(devices.map(\.udid), deviceValues), "UDID")
        try unique(zip(websites, siteValues).flatMap { site, value in site.hosts.map { ($0.host, value) } }, "host name")

        // Apple refuses to register one app group name to two teams ("it guards against the reuse
        // of app group names across teams", seed 000), which is what keeps app groups team-private.
        try unique(
            zip(teams, teamValues).flatMap { team, value in
                team.appGroups.map { ($0, value) }
            },
            "application group"
        )

        let teamIDs = Set(teams.map(\.id))
        let deviceNames = Set(devices.map(\.id) + devices.map(\.udid))
        for (app, value) in zip(apps, appValues) {
            let mapping = try value.mapping(known: App.keys)
            if !teamIDs.contains(app.team) {
                throw try mapping.required("team").error(.inconsistent, "no team \(app.team) is declared under 'teams'")
            }
            if let signer = app.signedBy, !teamIDs.contains(signer), let signedBy = mapping.optional("signedBy") {
                throw signedBy.error(.inconsistent, "no team \(signer) is declared under 'teams'")
            }
            for device in app.profile.devices ?? [] where !deviceNames.contains(device.uppercased()) && !deviceNames.contains(device) {
                throw (mapping.optional("profile") ?? value).error(
                    .inconsistent,
                    "the profile lists device '\(device)', which is not declared under 'devices'"
                )
            }
        }
        let bundleIDs = Set(apps.map(\.bundleID))
        for (device, value) in zip(devices, deviceValues) {
            let appList = try value.mapping(known: Device.keys).optional("apps")?.sequence() ?? []
            for (bundleID, element) in zip(device.apps, appList) {
                guard bundleIDs.contains(bundleID) else {
                    throw element.error(.inconsistent, "no app \(bundleID) is declared under 'apps'")
                }
                if let app = app(bundleID), app.platform == .macos, device.platform == .ios {
                    throw element.error(.inconsistent, "\(bundleID) is a macOS app and \(device.id) an iOS device")
                }
            }
        }
    }

    /// Fills what depends on the whole world: development profiles without a device list list every
    /// device, and devices named by UDID are named by ID.
    mutating func resolveDefaults() {
        let allDevices = devices.map(\.id)
        for index in apps.indices where apps[index].profile.kind == .development {
            let named = apps[index].profile.devices ?? allDevices
            apps[index].profile.devices = named.map { name in
                devices.first { $0.udid == name.uppercased() }?.id ?? name
            }
        }
    }

    private func unique(_ entries: some Sequence<(String, YAMLValue)>, _ what: String) throws(WorldError) {
        var seen: Set<String> = []
        for (name, value) in entries where !seen.insert(name).inserted {
            throw value.error(.inconsistent, "the \(what) '\(name)' is declared twice")
        }
    }
}
