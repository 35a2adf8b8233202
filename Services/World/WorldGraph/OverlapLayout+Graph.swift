import AppIdentity

extension OverlapLayout {
    /// The sizes of the picture, in pixels. Text is set in a monospaced 12-pixel face, whose
    /// characters are 0.6 em wide (7.2 pixels; ``width(of:)`` counts 7.3, in integers).
    enum Metrics {
        static let margin = 24
        static let bandsTop = 112
        static let bandHeader = 30
        static let bandGap = 12
        static let bandPadding = 6
        static let rowHeight = 40
        static let chipHeight = 22
        static let chipGap = 8
        static let columnWidth = 32
        static let legendLine = 22
        /// The regions' colours, in turn (Tableau 10, readable on white and on a projector).
        static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]

        /// How wide `text` is drawn, rounded up to a whole pixel.
        static func width(of text: String) -> Int {
            (text.count * 73 + 9) / 10
        }
    }

    /// The layout of `graph`: bands top to bottom in the graph's order of teams, rows in its
    /// order of builds, columns in its order of regions.
    public init(_ graph: WorldGraph) {
        typealias M = Metrics
        let colors = Dictionary(uniqueKeysWithValues: graph.regions.enumerated().map { ($1.group, M.palette[$0 % M.palette.count]) })
        let labels = Dictionary(uniqueKeysWithValues: graph.regions.enumerated().map { ($1.group, WorldGraph.label(ofRegion: $0)) })
        let builds = graph.builds
        let labelWidth = max(200, builds.map { max(M.width(of: Self.visible($0.name)), M.width(of: Self.detail(of: $0))) + 24 }.max() ?? 0)
        let chipsX = M.margin + 12 + labelWidth

        // Rows first, band by band, to know how wide the chips run.
        var bands: [Band] = []
        var rows: [Row] = []
        var rowY: [WorldGraph.Build.ID: Int] = [:]
        var y = M.bandsTop
        for team in graph.teams {
            let height = M.bandHeader + team.builds.count * M.rowHeight + M.bandPadding
            let title = "\(Self.visible(team.name)) (\(team.id))" + (team.builds.isEmpty ? ": no apps" : "")
            let titleLabel = Label(x: M.margin + 12, y: y + 20, text: title)
            bands.append(Band(x: M.margin, y: y, width: 0, height: height, title: titleLabel, team: team.id.rawValue))
            var top = y + M.bandHeader
            for build in team.builds {
                rowY[build.id] = top
                rows.append(Self.row(build, top: top, chipsX: chipsX, colors: colors, labels: labels, shares: !graph.regions(of: build.id).isEmpty))
                top += M.rowHeight
            }
            y += height + M.bandGap
        }
        let chipsEnd = rows.map { row -> Int in
            if let note = row.notes.last { return note.label.x + M.width(of: note.label.text) }
            return row.chips.last.map { $0.x + $0.width } ?? chipsX
        }
        let matrixX = (chipsEnd.max() ?? chipsX) + 16

        var columns: [Column] = []
        for (index, region) in graph.regions.enumerated() {
            let x = matrixX + M.columnWidth / 2 + index * M.columnWidth
            let placed = region.members.compactMap { id in rowY[id].map { (id: id, top: $0) } }
            let first = placed.map(\.top).min() ?? M.bandsTop
            let last = placed.map(\.top).max() ?? M.bandsTop
            let color = colors[region.group] ?? M.palette[0]
            columns.append(
                Column(
                    label: labels[region.group] ?? "",
                    group: Self.visible(region.group.rawValue),
                    members: region.members.map { $0.bundleID.rawValue }.joined(separator: " "),
                    color: color,
                    x: x,
                    badgeY: M.bandsTop - 16,
                    barX: x - 9,
                    barY: first + 6,
                    barWidth: 18,
                    barHeight: last - first + M.rowHeight - 12,
                    dots: placed.map { Dot(x: x, y: $0.top + M.rowHeight / 2, bundleID: $0.id.bundleID.rawValue, color: color) }
                )
            )
        }
        let contentRight = matrixX + graph.regions.count * M.columnWidth + 8

        // The legend under the bands: a line per region, then what the marks mean.
        var legend: [LegendEntry] = []
        var legendY = y + 24
        let legendTitle = Label(
            x: M.margin,
            y: legendY,
            text: graph.regions.isEmpty
                ? "No group is held by two apps: each app keeps its items to itself."
                : "Regions of overlap: the groups two or more apps hold, where they share items"
        )
        for region in graph.regions {
            legendY += M.legendLine
            let holders = region.members.compactMap { graph.build($0) }.map { Self.displayName(of: $0, in: builds) }
            let text = "\(Self.visible(region.group.rawValue)): \(holders.joined(separator: ", "))"
            legend.append(
                LegendEntry(
                    label: labels[region.group] ?? "",
                    color: colors[region.group] ?? M.palette[0],
                    badgeX: M.margin + 10,
                    badgeY: legendY - 4,
                    text: Label(x: M.margin + 28, y: legendY, text: text)
                )
            )
        }
        var notes = ["(default) marks the group SecItemAdd puts an item in when the call names no kSecAttrAccessGroup."]
        if builds.contains(where: { $0.groups.contains { $0.source == .token } }) {
            notes.append("com.apple.token (dashed) is read-only, added by a Mac for every app: nothing is shared through it.")
        }
        var legendNotes: [Label] = []
        for text in notes {
            legendY += M.legendLine
            legendNotes.append(Label(x: M.margin, y: legendY, text: text))
        }

        let title = Label(x: M.margin, y: 36, text: "Access groups of the world '\(Self.visible(graph.name))'")
        let subtitles = [
            "Each app's groups in Apple's order: keychain-access-groups, then the application identifier, then app groups.",
            "A group two apps hold is a region of overlap (a coloured column); an app in another band is another team's.",
        ].enumerated().map { Label(x: M.margin, y: 60 + $0 * 18, text: $1) }
        let texts = [title, legendTitle] + subtitles + legend.map(\.text) + legendNotes + bands.map(\.title)
        let width = max(contentRight, texts.map { $0.x + M.width(of: $0.text) }.max() ?? 0) + M.margin
        for index in bands.indices { bands[index].width = width - 2 * M.margin }
        self.init(
            width: width,
            height: legendY + M.margin,
            title: title,
            subtitles: subtitles,
            bands: bands,
            columns: columns,
            rows: rows,
            legendTitle: legendTitle,
            legend: legend,
            legendNotes: legendNotes
        )
    }

    /// A build's row at `top`: its name, its chips from `chipsX`, and its note.
    private static func row(
        _ build: WorldGraph.Build,
        top: Int,
        chipsX: Int,
        colors: [AccessGroup: String],
        labels: [AccessGroup: String],
        shares: Bool
    ) -> Row {
        typealias M = Metrics
        var x = chipsX
        var chips: [Chip] = []
        for (index, held) in build.groups.enumerated() {
            let label = labels[held.group]
            let text = "\(index + 1). \(visible(held.group.rawValue))" + (held.isDefault ? " (default)" : "") + (label.map { " [\($0)]" } ?? "")
            let width = M.width(of: text) + 16
            chips.append(
                Chip(
                    x: x,
                    y: top + 9,
                    width: width,
                    height: M.chipHeight,
                    label: Label(x: x + 8, y: top + 24, text: text),
                    group: visible(held.group.rawValue),
                    source: held.source.rawValue,
                    color: colors[held.group] ?? "",
                    shared: label != nil,
                    isDefault: held.isDefault,
                    isToken: held.source == .token
                )
            )
            x += width + M.chipGap
        }
        var notes: [Note] = []
        func note(_ text: String, _ tooltip: String, _ kind: String) {
            notes.append(Note(label: Label(x: x, y: top + 24, text: text), tooltip: tooltip, kind: kind))
        }
        if build.isRefused {
            let rules = build.refusals.map(\.rule.rawValue).joined(separator: ", ")
            note("refused at install: \(rules)", visible(build.refusals.map(\.description).joined(separator: "; ")), "refused")
        } else if build.groups.isEmpty {
            note("holds no access group", "its signature grants no group", "none")
        } else if !shares {
            note("shares nothing", "no other app holds any of its groups", "alone")
        }
        return Row(
            bundleID: build.id.bundleID.rawValue,
            platform: build.id.platform.rawValue,
            team: build.team.rawValue,
            name: Label(x: M.margin + 12, y: top + 17, text: visible(build.name)),
            detail: Label(x: M.margin + 12, y: top + 32, text: detail(of: build)),
            chips: chips,
            notes: notes,
            refused: build.isRefused
        )
    }

    /// `com.example.AppOne · iOS`.
    static func detail(of build: WorldGraph.Build) -> String {
        "\(build.id.bundleID) · \(build.id.platform)"
    }

    /// The build's name, with its platform when another build of the bundle ID is in `builds`.
    static func displayName(of build: WorldGraph.Build, in builds: [WorldGraph.Build]) -> String {
        let twin = builds.contains { $0.id.bundleID == build.id.bundleID && $0.id.platform != build.id.platform }
        return visible(build.name) + (twin ? " (\(build.id.platform))" : "")
    }
}
