import AppIdentity

extension World {
    /// Checks what one entry cannot check alone: names declared once, references to things
    /// declared. Every problem is returned, not only the first.
    func validate(_ top: YAMLMapping) -> [WorldError] {
        var errors: [WorldError] = []
        func check(_ body: () throws(WorldError) -> Void) {
            do { try body() } catch { errors.append(error) }
        }
        let teamValues = (try? top.optional("teams")?.sequence()) ?? []
        let appValues = (try? top.optional("apps")?.sequence()) ?? []
        let deviceValues = (try? top.optional("devices")?.sequence()) ?? []
        let siteValues = (try? top.optional("websites")?.sequence()) ?? []

        errors += unique(zip(teams.map(\.id.rawValue), teamValues), "team ID")
        errors += unique(zip(apps.map(\.bundleID.rawValue), appValues), "bundle ID")
        errors += unique(zip(devices.map(\.id), deviceValues), "device ID")
        errors += unique(zip(devices.map(\.udid), deviceValues), "UDID")
        errors += unique(zip(websites, siteValues).flatMap { site, value in site.hosts.map { ($0.host, value) } }, "host name")

        // Apple refuses to register one app group name to two teams ("it guards against the reuse
        // of app group names across teams", seed 000), which is what keeps app groups team-private.
        errors += unique(
            zip(teams, teamValues).flatMap { team, value in
                team.appGroups.map { ($0, value) }
            },
            "application group"
        )

        let teamIDs = Set(teams.map(\.id))
        let deviceNames = Set(devices.map(\.id) + devices.map(\.udid))
        for (app, value) in zip(apps, appValues) {
            check { () throws(WorldError) in
                let mapping = try value.mapping(known: App.keys)
                if !teamIDs.contains(app.team) {
                    errors.append(try mapping.required("team").error(.inconsistent, "no team \(app.team) is declared under 'teams'"))
                }
                if let signer = app.signedBy, !teamIDs.contains(signer), let signedBy = mapping.optional("signedBy") {
                    errors.append(signedBy.error(.inconsistent, "no team \(signer) is declared under 'teams'"))
                }
                for device in app.profile.devices ?? [] where !deviceNames.contains(device.uppercased()) && !deviceNames.contains(device) {
                    errors.append(
                        (mapping.optional("profile") ?? value).error(
                            .inconsistent,
                            "the profile lists device '\(device)', which is not declared under 'devices'"
                        )
                    )
                }
            }
        }
        // Platforms by bundle ID, looked up once per device's app (not by a search of every app).
        let platforms = Dictionary(apps.map { ($0.bundleID, $0.platform) }, uniquingKeysWith: { first, _ in first })
        for (device, value) in zip(devices, deviceValues) {
            check { () throws(WorldError) in
                let appList = try value.mapping(known: Device.keys).optional("apps")?.sequence() ?? []
                for (bundleID, element) in zip(device.apps, appList) {
                    guard let platform = platforms[bundleID] else {
                        errors.append(element.error(.inconsistent, "no app \(bundleID) is declared under 'apps'"))
                        continue
                    }
                    if platform == .macos, device.platform == .ios {
                        errors.append(element.error(.inconsistent, "\(bundleID) is a macOS app and \(device.id) an iOS device"))
                    }
                }
            }
        }
        return errors
    }

    /// The app groups `app` claims that its team did not register (`appGroups`), each with the
    /// team that did, if any: the profile the world builds allows only its team's groups, so the
    /// app is refused at install (entitlement-not-allowed). An app without a profile (a Mac app,
    /// `profile: none`) has no grants to be checked against, and the installer checks none.
    public func unregisteredAppGroups(of app: App) -> [(group: String, owner: String?)] {
        guard app.profile.exists else { return [] }
        let registered = teams.first { $0.id == app.team }?.appGroups ?? []
        return (app.entitlements.applicationGroups ?? []).filter { !registered.contains($0) }.map { group in
            (group, teams.first { $0.appGroups.contains(group) }?.id.rawValue)
        }
    }

    /// Fills what depends on the whole world: development profiles without a device list list every
    /// device, and devices named by UDID are named by ID.
    mutating func resolveDefaults() {
        let allDevices = devices.map(\.id)
        let byUDID = Dictionary(devices.map { ($0.udid, $0.id) }, uniquingKeysWith: { first, _ in first })
        for index in apps.indices where apps[index].profile.kind == .development {
            let named = apps[index].profile.devices ?? allDevices
            apps[index].profile.devices = named.map { name in byUDID[name.uppercased()] ?? name }
        }
    }

    private func unique(_ entries: some Sequence<(String, YAMLValue)>, _ what: String) -> [WorldError] {
        var seen: Set<String> = []
        var errors: [WorldError] = []
        for (name, value) in entries where !seen.insert(name).inserted {
            errors.append(value.error(.inconsistent, "the \(what) '\(name)' is declared twice"))
        }
        return errors
    }
}
