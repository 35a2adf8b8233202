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
        // One bundle ID may have a build per platform (a multiplatform target), not two of one.
        var builds: Set<String> = []
        for (app, value) in zip(apps, appValues) where !builds.insert("\(app.bundleID) \(app.platform)").inserted {
            errors.append(value.error(.inconsistent, "the bundle ID '\(app.bundleID)' is declared twice for \(app.platform.rawValue)"))
        }
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

        // The portal registers a bundle ID to one team, so every build of it is that team's.
        var firstTeam: [BundleID: TeamID] = [:]
        for (app, value) in zip(apps, appValues) {
            guard let team = firstTeam[app.bundleID] else {
                firstTeam[app.bundleID] = app.team
                continue
            }
            if team != app.team, let teamValue = try? value.mapping(known: App.keys).required("team") {
                errors.append(
                    teamValue.error(.inconsistent, "\(app.bundleID) is team \(team)'s in its other build: one bundle ID belongs to one team")
                )
            }
        }
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
        let platforms = Dictionary(apps.map { ($0.bundleID, Set([$0.platform])) }, uniquingKeysWith: { $0.union($1) })
        for (device, value) in zip(devices, deviceValues) {
            check { () throws(WorldError) in
                let appList = try value.mapping(known: Device.keys).optional("apps")?.sequence() ?? []
                for (bundleID, element) in zip(device.apps, appList) {
                    guard let built = platforms[bundleID] else {
                        errors.append(element.error(.inconsistent, "no app \(bundleID) is declared under 'apps'"))
                        continue
                    }
                    if !built.contains(.ios), device.platform == .ios {
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
        let iOSBuilds = Set(apps.filter { $0.platform == .ios }.map(\.bundleID))
        for index in apps.indices where apps[index].platform == .macos {
            apps[index].isMacBuild = iOSBuilds.contains(apps[index].bundleID)
        }
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
