import AppIdentity
import ArgumentParser
import AssociationAPI
import CMSSupport
import Decisions
import DeviceProtocol
import Foundation
import KeychainAPI
import KeychainItems
import KeychainTypes
import LabControl
import NIOHTTP1
import ServiceSupport
import SiteAssociation
import WorldBuilder
import WorldFile

/// `kclab explain`: the answers people ask for, in one screen, from the decisions the lab's own
/// code takes (keychaind's engine, the bundle verifier, associationd's records).
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain why an app can or cannot see items, why a bundle is refused, what decided a domain's association, why a prompt was shown.",
        subcommands: [Item.self, Install.self, Domain.self, Prompt.self]
    )

    /// `kclab explain item --device D --app A QUERY`
    struct Item: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Why this app can or cannot see items matching this query: its groups in order, the answer, the groups that hold matches.",
            discussion: "Asked of keychaind's engine through its admin route: the same rules the app's calls meet. No data is shown."
        )

        @OptionGroup var lab: LabOptions

        @Option(help: "The device's ID.")
        var device: String

        @Option(help: "The app's bundle ID.")
        var app: String

        @Argument(help: "The query, as kclab app call takes it (JSON with Apple's constant strings).")
        var query: String

        @Flag(help: "Print JSON.")
        var json = false

        func run() async throws {
            let explanation: KeychainAPI.Explanation
            let declared: WorldFile.Device
            do {
                let world = try lab.load()
                guard let found = world.device(device) else { throw LabFailure("no device \(device) in the world") }
                declared = found
                let parsed = try ConventionalJSON.dictionary(from: Data(query.utf8))
                let bundle = lab.lab.builtWorld.appending(path: "apps/\(app).app")
                let registration = KeychainAPI.AppRegistration(
                    // A Mac app signed without a profile sends none, as its device does.
                    profile: (try? Data(contentsOf: bundle.appending(path: "embedded.mobileprovision"))) ?? Data(),
                    codeSignature: try Data(contentsOf: bundle.appending(path: "_CodeSignature/CodeSignature"))
                )
                explanation = try await lab.withAdministrator { client in
                    try await client.send(
                        .POST,
                        "/v1/admin/explain",
                        KeychainAPI.ExplainRequest(device: found.udid, app: registration, query: parsed),
                        as: KeychainAPI.Explanation.self
                    )
                }
            } catch {
                throw fail("\(error)")
            }
            if json {
                say(try JSONOutput.pretty(explanation))
                return
            }
            say(Self.text(explanation, device: declared, app: app, query: query))
            if let lines = syncLines(declared) { say("\n" + lines.joined(separator: "\n")) }
        }

        /// What the device's iCloud Keychain holds about items the query names: waiting to upload,
        /// held while locked, overwritten by the server's copy. Nil for a device that does not sync.
        private func syncLines(_ device: WorldFile.Device) -> [String]? {
            guard let account = device.iCloudAccount, let parsed = try? ConventionalJSON.dictionary(from: Data(query.utf8)),
                let status = try? deviceClient(state: lab.state, device: device.id).send(DeviceRequest(.sync(.status))).sync
            else { return nil }
            let link = !status.keychainSync ? "off" : status.views.contains(where: \.online) ? "on, online" : "on, offline"
            var lines = ["iCloud Keychain (\(account)) on \(device.id): \(link)."]
            let items = (status.items ?? []).filter { $0.matches(parsed) }
            if items.isEmpty {
                lines.append("Its sync engines hold nothing about items the query names: none waits to upload or for the unlock.")
            }
            for item in items {
                lines.append("  \(item.itemClass) \(item.account ?? item.server ?? "-") in \(item.group) (\(item.view) view, \(item.uuid)):")
                lines += item.states.map { "    - \($0)" }
            }
            return lines
        }

        static func text(_ explanation: KeychainAPI.Explanation, device: WorldFile.Device, app: String, query: String) -> String {
            var lines = ["\(app) on \(device.id) (\(explanation.platform) \(explanation.osVersion))"]
            guard explanation.refusals.isEmpty else {
                lines.append("Its signature is not valid, so it has no access group at all:")
                lines += explanation.refusals.map { "  - \($0)" }
                return lines.joined(separator: "\n")
            }
            lines.append("Its access groups, in securityd's order (the first is where SecItemAdd puts items):")
            for (index, group) in explanation.accessGroups.enumerated() { lines.append("  \(index + 1). \(group)") }
            lines.append("")
            lines.append("SecItemCopyMatching(\(query)) → \(explanation.name) (\(explanation.status))")
            if let reason = explanation.reason { lines.append("  because \(reason)") }
            lines.append("")
            if explanation.matchingByGroup.isEmpty {
                lines.append("No item of this device's keychains matches the query, in any group.")
            } else {
                lines.append("Items matching the query, by group (data not shown):")
                for (group, count) in explanation.matchingByGroup.sorted(by: { $0.key < $1.key }) {
                    let visible = explanation.accessGroups.contains { $0.rawValue == group } ? "one of its groups" : "NOT one of its groups"
                    lines.append("  \(group): \(count)  (\(visible))")
                }
            }
            if let synced = explanation.synchronizableMatches {
                lines.append(
                    "The query names no kSecAttrSynchronizable, so it reads local items only (sync=0): \(synced) synchronizable "
                        + "\(synced == 1 ? "item matches" : "items match") with kSecAttrSynchronizable: kSecAttrSynchronizableAny."
                )
            }
            lines.append("")
            let (refused, missing) = (SecStatus.missingEntitlement, SecStatus.itemNotFound)
            let rule = explanation.refusesForeignGroups ? refused : missing
            lines.append(
                "Naming a group the app does not belong to gets \(rule) on this device (\(refused.code) from iOS 13 and macOS 10.15, \(missing.code) before)."
            )
            let lock =
                explanation.isLocked
                ? "The device is locked: items protected when-unlocked answer \(SecStatus.interactionNotAllowed)."
                : "The device is unlocked: every protection class opens."
            lines.append(lock + (explanation.hasPasscode ? "" : " It has no passcode (when-passcode-set items cannot be added)."))
            if let login = explanation.loginKeychain {
                lines.append("")
                lines += loginKeychainText(login)
            }
            if let recent = explanation.recentCalls, !recent.isEmpty {
                lines.append("")
                lines.append("Its latest calls on this device (keychaind's audit log, kclab logs audit):")
                for entry in recent {
                    let status = entry.status.map { "\(entry.name) (\($0.code))" } ?? "refused: \(entry.name)"
                    let why = [entry.rule?.rawValue, entry.reason].compactMap { $0 }.joined(separator: ": ")
                    lines.append("  \(entry.time.formatted(.iso8601)) \(entry.call) → \(status)\(why.isEmpty ? "" : ": \(why)")")
                }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `kclab explain install BUNDLE`
    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every reason a device refuses to install a bundle, or the identity it would get.",
            discussion: "The device's own verifier: chain, profile, device list, dates, every entitlement against the profile."
        )

        @Argument(help: "The bundle (a built world's apps/BUNDLE.app).")
        var bundle: String

        @Option(help: "The built world, or its trust folder (default: the one beside the bundle).")
        var trust: String?

        @Option(help: "Check as this device does: a world device's ID (its platform too) or a UDID, for development profiles.")
        var device: String?

        @Option(help: "Check as a device of this platform (ios, macos) does; by default the bundle's own.")
        var platform: Platform?

        @Flag(help: "Print JSON (as kclab bundle verify does).")
        var json = false

        func run() throws {
            let url = URL(fileURLWithPath: bundle)
            let store: TrustStore
            do {
                store = try TrustAnchors.load(trust ?? url.deletingLastPathComponent().deletingLastPathComponent().path)
            } catch {
                throw fail("\(error)", code: 2)
            }
            let world = URL(fileURLWithPath: trust ?? url.deletingLastPathComponent().deletingLastPathComponent().path)
            let device = deviceToCheck(device, world: world)
            let platform = platformToCheck(platform ?? device.platform, bundleAt: url)
            let verdict = BundleVerifier(trust: store).verify(bundleAt: url, device: device.udid, platform: platform)
            let target = platform ?? verdict.builtFor ?? .ios
            let held = deviceAccessGroups(verdict, on: target)
            if json {
                say(
                    try JSONOutput.object([
                        ("valid", verdict.valid), ("appID", verdict.appID), ("teamID", verdict.teamID),
                        ("accessGroups", verdict.accessGroups.map(\.rawValue)), ("platform", target.rawValue), ("deviceAccessGroups", held),
                        ("associatedDomains", verdict.associatedDomains),
                        ("reasons", verdict.reasons),
                    ])
                )
                if !verdict.valid { throw ExitCode(1) }
                return
            }
            if verdict.valid {
                say("\(url.lastPathComponent) installs: app ID \(verdict.appID ?? "?"), team \(verdict.teamID ?? "?")")
                say("access groups, in order: \(verdict.accessGroups.map(\.rawValue).joined(separator: ", "))")
                say(
                    "as \(target.rawValue) holds them: \(held.isEmpty ? "none (every keychain call is errSecMissingEntitlement)" : held.joined(separator: ", "))"
                )
                if !verdict.associatedDomains.isEmpty { say("associated domains: \(verdict.associatedDomains.joined(separator: ", "))") }
                return
            }
            say("\(url.lastPathComponent) is refused at install, for \(verdict.reasons.count) reason\(verdict.reasons.count == 1 ? "" : "s"):")
            for reason in verdict.reasons { say("  - \(reason)") }
            throw ExitCode(1)
        }
    }

    /// `kclab explain domain DOMAIN --app APPID`
    struct Domain: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What associationd decided for a domain and an app: the record, where the file came from, when it is tried again."
        )

        @OptionGroup var lab: LabOptions

        @Argument(help: "The domain, such as example.com.")
        var domain: String

        @Option(help: "The app: its app ID (TEAMID.bundle) or bundle ID.")
        var app: String

        @Flag(help: "Print associationd's records as JSON.")
        var json = false

        func run() async throws {
            let records: [AssociationRecord]
            do {
                records = try await AssociationsCommand.records(lab, app: app, host: domain)
            } catch {
                throw fail("\(error)")
            }
            let names = AssociationsCommand.deviceNames(lab.lab, world: lab.world)
            guard !records.isEmpty else {
                throw fail("no association of \(app) with \(domain): the app's entitlement does not name it, or no device installed the app")
            }
            if json {
                let encoder = AssociationAPI.encoder()
                encoder.outputFormatting.insert(.prettyPrinted)
                say(String(decoding: try encoder.encode(records), as: UTF8.self))
                return
            }
            for record in records {
                let age = Int(Date().timeIntervalSince(record.lastChecked))
                let source = record.throughCDN ? "through the Apple-like CDN (iOS 14 and later)" : "from the site directly"
                let device = "\(names[record.device] ?? record.device) (\(record.platform) \(record.osVersion), iOS \(record.era)'s rules)"
                say("\(device): \(record.appID) \(record.entry)")
                say("  \(record.state.rawValue): \(record.reason)")
                say("  the file came \(source): \(record.url), checked \(age) s ago")
                if let next = record.nextRetry {
                    say("  tried again at \(next.formatted(.iso8601)) (failures so far: \(record.failures); every 3 hours, 8 times at most)")
                } else {
                    say(
                        "  not tried again\(record.state == .pending ? " (out of retries)" : ""): only a reinstall or the app's request checks it anew"
                    )
                }
            }
        }
    }
}

extension ExplainCommand.Item {
    /// The login-keychain part of `kclab explain item`: the lock, and each matching item's list.
    static func loginKeychainText(_ login: KeychainAPI.LoginKeychainExplanation) -> [String] {
        var lines = [
            "The Mac's login keychain is \(login.isLocked ? "LOCKED: a call that must open it asks for the user's password" : "unlocked").",
            "The app's partition there: \(login.partition).",
        ]
        if login.items.isEmpty {
            lines.append("No item of the login keychain matches the query.")
        }
        for item in login.items {
            let access =
                switch item.access {
                case .trusted: "trusted: its secret is used without a prompt"
                case .asks: "NOT on the item's list: the Mac asks its user (Always Allow, Deny, Allow)"
                case .asksWithPassword: "NOT on the list, nor its partition: the Mac asks for the keychain password"
                }
            lines.append("  “\(item.item)”: \(access)")
            // An item added with an empty SecAccess list trusts no app at all.
            let trusted = item.trustedApps.isEmpty ? "no app" : item.trustedApps.joined(separator: ", ")
            lines.append("    trusts \(trusted); partitions \(item.partitions.joined(separator: ", "))")
        }
        return lines
    }
}
