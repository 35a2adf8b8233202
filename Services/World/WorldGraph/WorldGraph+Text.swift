import AppIdentity

extension WorldGraph {
    /// The graph as text for a terminal (`kclab world graph WORLD --text`): each team, each of its
    /// builds with its groups in Apple's order (numbered, with where each comes from, the default
    /// marked and the shared ones labelled as in the picture), then the regions of overlap and
    /// the builds that share nothing. Names are shown, never obeyed (``OverlapLayout/visible(_:)``).
    public var text: String {
        let show = OverlapLayout.visible
        let labels = Dictionary(uniqueKeysWithValues: regions.enumerated().map { ($1.group, Self.label(ofRegion: $0)) })
        var lines = [
            "World '\(show(name))': \(count(builds.count, "app build")) of \(count(teams.count, "team")); \(count(regions.count, "group")) shared.",
            "Each app's access groups in Apple's order: keychain-access-groups, then the application identifier,",
            "then app groups. The default is where SecItemAdd puts an item whose call names no group.",
        ]
        for team in teams {
            lines.append("")
            lines.append("\(show(team.name)) (\(team.id))" + (team.builds.isEmpty ? ": no apps" : ""))
            for build in team.builds {
                lines += buildLines(build, labels: labels)
            }
        }
        lines.append("")
        if regions.isEmpty {
            lines.append("No group is held by two apps: each app keeps its items to itself.")
        } else {
            lines.append("Regions of overlap, the groups two or more apps hold:")
            for region in regions {
                let holders = region.members.compactMap { self.build($0) }.map { "\(show($0.name)) (\($0.id.bundleID), \($0.id.platform))" }
                lines.append("  [\(labels[region.group] ?? "")] \(show(region.group.rawValue)): \(holders.joined(separator: ", "))")
            }
        }
        let alone = sharingNothing.compactMap { self.build($0) }
        if !alone.isEmpty {
            lines.append("")
            lines.append("Sharing nothing:")
            lines += alone.map { "  \(show($0.name)) (\($0.id.bundleID), \($0.id.platform))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A build's lines: its name, then a line per group, or why it holds none.
    private func buildLines(_ build: Build, labels: [AccessGroup: String]) -> [String] {
        let show = OverlapLayout.visible
        let head = "  \(show(build.name)) (\(build.id.bundleID), \(build.id.platform))"
        if build.isRefused {
            return [head + ": refused at install, so it holds no group"] + build.refusals.map { "    \(show($0.description))" }
        }
        if build.groups.isEmpty {
            return [head + ": holds no access group"]
        }
        var lines = [head + (regions(of: build.id).isEmpty ? ": shares nothing" : "")]
        let names = build.groups.map { show($0.group.rawValue) }
        let nameWidth = names.map(\.count).max() ?? 0
        let sourceWidth = build.groups.map(\.source.rawValue.count).max() ?? 0
        for (index, held) in build.groups.enumerated() {
            var marks: [String] = []
            if held.isDefault { marks.append("default") }
            if let label = labels[held.group] { marks.append("shared [\(label)]") }
            if held.source == .token { marks.append("read-only") }
            var line = "    \(index + 1). " + Self.padded(names[index], to: nameWidth) + "  "
            line += marks.isEmpty ? held.source.rawValue : Self.padded(held.source.rawValue, to: sourceWidth) + "  " + marks.joined(separator: ", ")
            lines.append(line)
        }
        return lines
    }

    /// `text` with spaces after it up to `width` characters.
    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// `1 team`, `2 teams`.
    private func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
