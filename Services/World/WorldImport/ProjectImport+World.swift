import AppIdentity
import Foundation
import Yams

extension ProjectImport {
    /// The world file: the team, every app, an iPhone and a Mac holding the apps of their
    /// platform, and one website per associated domain whose generated file lists the apps that
    /// claim it (`webcredentials` and `applinks`), or serves the file `siteFiles` names for it
    /// (a path the world file reads, such as the site's real apple-app-site-association).
    public func worldYAML(siteFiles: [String: String] = [:]) throws -> String {
        let name = projectName.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }.prefix(40)
        var root: [(Node, Node)] = [
            (Self.text("name"), Self.text(name.isEmpty ? "imported" : String(name))),
            (Self.text("teams"), Node(teams)),
            (Self.text("apps"), Node(apps.map(Self.app))),
            (Self.text("devices"), Node(devices)),
        ]
        let sites = websites(siteFiles: siteFiles)
        if !sites.isEmpty { root.append((Self.text("websites"), Node(sites))) }
        let header = """
            # Imported from \(origin) by kclab world import.
            # The format is docs/world.md's; check it with kclab world check, then kclab up.

            """
        return header + (try Yams.serialize(node: Node(root), sortKeys: false))
    }

    /// Each team, with the app groups its apps claim registered (as the portal registers them).
    private var teams: [Node] {
        Set(apps.map(\.team)).sorted().map { team in
            let groups = Set(
                apps.filter { $0.team == team }.flatMap {
                    ($0.entitlements["com.apple.security.application-groups"]?.strings ?? []) + ($0.profile?.appGroups ?? [])
                }
            )
            var pairs: [(Node, Node)] = [(Self.text("id"), Self.text(team.rawValue))]
            if !groups.isEmpty { pairs.append((Self.text("appGroups"), Node(groups.sorted().map(Self.text)))) }
            return Node(pairs)
        }
    }

    private static func app(_ app: ImportedApp) -> Node {
        var pairs: [(Node, Node)] = [
            (text("bundleID"), text(app.bundleID.rawValue)),
            (text("name"), text(app.target)),
            (text("team"), text(app.team.rawValue)),
            (text("platform"), text(app.platform.rawValue)),
            (text("program"), text("keychainlab-app")),
        ]
        if app.profile == nil, !app.capabilities.isEmpty {
            // As Xcode's automatic signing does: the App ID gets the target's capabilities.
            pairs.append((text("profile"), Node([(text("grants"), node(.dictionary(app.capabilities)))])))
        }
        if let profile = app.profile {
            if let seed = profile.bundleSeedID { pairs.insert((text("bundleSeedID"), text(seed.rawValue)), at: 3) }
            if profile.isWildcard { pairs.append((text("appID"), text("wildcard"))) }
            var spec: [(Node, Node)] = [
                (text("type"), text(profile.kind.rawValue)),
                (text("validDays"), Node(String(profile.validDays))),
            ]
            if profile.expired { spec.append((text("expired"), Node("true"))) }
            if !profile.grants.isEmpty { spec.append((text("grants"), node(.dictionary(profile.grants)))) }
            pairs.append((text("profile"), Node(spec)))
        }
        if !app.entitlements.isEmpty { pairs.append((text("entitlements"), node(.dictionary(app.entitlements)))) }
        return Node(pairs)
    }

    /// An iPhone for the iOS apps, a Mac for the macOS ones (and the iOS ones, with
    /// ``macRunsIOSApps``).
    private var devices: [Node] {
        var devices: [Node] = []
        for (id, platform, version) in [("iphone", Platform.ios, "17.4"), ("mac", Platform.macos, "14.5")] {
            // A Mac installs an app's Mac build, or with macRunsIOSApps its iOS build when it has no other.
            var seen: Set<BundleID> = []
            let installed =
                apps.filter { $0.platform == platform }.map(\.bundleID)
                + (macRunsIOSApps && platform == .macos ? apps.map(\.bundleID) : [])
            let names = installed.filter { seen.insert($0).inserted }.map { Self.text($0.rawValue) }
            guard !names.isEmpty else { continue }
            devices.append(
                Node([
                    (Self.text("id"), Self.text(id)), (Self.text("platform"), Self.text(platform.rawValue)),
                    (Self.text("osVersion"), Node(version, .implicit, .doubleQuoted)), (Self.text("apps"), Node(names)),
                ])
            )
        }
        return devices
    }

    /// One website per domain the apps' associated domains name (wildcards and other services
    /// aside), listing the apps that claim it, or serving the file given for it; and one for
    /// every other domain a file is given for.
    private func websites(siteFiles: [String: String]) -> [Node] {
        var claims: [String: [String: [String]]] = [:]
        var order: [String] = []
        var listed: Set<String> = []
        for host in siteFiles.keys.sorted() where claims[host] == nil {
            claims[host] = [:]
            order.append(host)
        }
        for app in apps {
            for entry in app.entitlements["com.apple.developer.associated-domains"]?.strings ?? [] {
                guard let colon = entry.firstIndex(of: ":") else { continue }
                let service = String(entry[..<colon])
                guard service == "webcredentials" || service == "applinks" else { continue }
                var host = String(entry[entry.index(after: colon)...])
                if let mode = host.firstIndex(of: "?") { host = String(host[..<mode]) }
                if let port = host.firstIndex(of: ":") { host = String(host[..<port]) }
                host = host.lowercased()
                guard !host.hasPrefix("*."), !host.isEmpty else { continue }
                if claims[host] == nil { order.append(host) }
                // The builds of one app share its app ID: list it once.
                if listed.insert("\(host) \(service) \(app.appID)").inserted {
                    claims[host, default: [:]][service, default: []].append(app.appID.rawValue)
                }
            }
        }
        return order.map { host in
            if let file = siteFiles[host] {
                return Node([(Self.text("domain"), Self.text(host)), (Self.text("aasa"), Node([(Self.text("file"), Self.text(file))]))])
            }
            var content: [(Node, Node)] = []
            if let ids = claims[host]?["webcredentials"] {
                content.append((Self.text("webcredentials"), Node([(Self.text("apps"), Node(ids.map(Self.text)))])))
            }
            if let ids = claims[host]?["applinks"] {
                let detail = Node([
                    (Self.text("appIDs"), Node(ids.map(Self.text))),
                    (Self.text("components"), Node([Node([(Self.text("/"), Self.text("*"))])])),
                ])
                content.append((Self.text("applinks"), Node([(Self.text("details"), Node([detail]))])))
            }
            return Node([(Self.text("domain"), Self.text(host)), (Self.text("aasa"), Node([(Self.text("content"), Node(content))]))])
        }
    }

    /// A string, quoted whenever YAML would read it as something else.
    private static func text(_ value: String) -> Node {
        Node(value, .implicit, Self.isPlain(value) ? .plain : .doubleQuoted)
    }

    private static func isPlain(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, first.properties.isAlphabetic || first == "$" || first == "/" else { return false }
        let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"]
        return !reserved.contains(value.lowercased()) && !value.contains(": ") && !value.contains(" #") && !value.hasSuffix(":")
    }

    private static func node(_ value: PlistValue) -> Node {
        switch value {
        case .string(let string): text(string)
        case .bool(let flag): Node(flag ? "true" : "false")
        case .integer(let number): Node(String(number))
        case .real(let number): Node(String(number))
        case .date(let date): text(date.ISO8601Format())
        case .data(let data): text(data.base64EncodedString())
        case .array(let items): Node(items.map(node))
        case .dictionary(let entries): Node(entries.sorted { $0.key < $1.key }.map { (text($0.key), node($0.value)) })
        }
    }
}
