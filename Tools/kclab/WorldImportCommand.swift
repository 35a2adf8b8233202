import AppIdentity
import ArgumentParser
import Foundation
import LabErrors
import WorldImport
import XcodeProject

extension WorldCommand {
    /// `kclab world import App.xcodeproj [--configuration Debug] [--team ID] [--out world.yaml]`
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn an Xcode project into a world: its team, apps, app extensions and their entitlements.",
            discussion: """
                Reads PROJECT.xcodeproj/project.pbxproj, finds the application and app-extension targets, \
                expands their PRODUCT_BUNDLE_IDENTIFIER, DEVELOPMENT_TEAM and CODE_SIGN_ENTITLEMENTS as \
                Xcode does (.xcconfig files, project-level settings, conditional settings, $(inherited), operators such as \
                :default= and :rfc1034identifier, $(AppIdentifierPrefix)…), reads each \
                .entitlements file, and writes a world with an iPhone and a Mac and a website for every \
                associated domain. What cannot be resolved is listed on standard error, never guessed. \
                Then: kclab world check FILE, kclab up --world FILE (docs/your-app.md).
                """
        )

        @Argument(help: "The project: PATH.xcodeproj (or its project.pbxproj).")
        var project: String?

        @Option(help: "One app instead of a project: its .entitlements file (with --bundle-id and --team, or --profile).")
        var entitlements: String?

        @Option(
            help:
                "One app signed under a real profile (.mobileprovision, .provisionprofile): its team, prefix, App ID, platform, kind, dates and grants."
        )
        var profile: String?

        @Option(help: "With --entitlements or a wildcard --profile: the app's bundle ID.")
        var bundleID: String?

        @Option(help: "With --entitlements: ios (default) or macos.")
        var platform: String?

        @Option(help: "The build configuration (default: the project's first, usually Debug).")
        var configuration: String?

        @Option(help: "The development team, over every target's DEVELOPMENT_TEAM (for an .xcconfig kept out of the checkout).")
        var team: String?

        @Option(name: .customLong("set"), help: "A build setting over the project's: NAME=VALUE (repeatable), as xcodebuild takes them.")
        var settings: [String] = []

        @Option(help: "Serve a site's real file: DOMAIN=FILE (repeatable), instead of one listing the apps.")
        var aasa: [String] = []

        @Option(help: "Where to write the world (default: standard output).")
        var out: String?

        func validate() throws {
            if project != nil, entitlements != nil || profile != nil {
                throw ValidationError("give a project, or one app's --entitlements and --profile, not both")
            }
            if project == nil, entitlements == nil, profile == nil {
                throw ValidationError("give a project (PATH.xcodeproj), --entitlements FILE --bundle-id ID --team ID, or --profile FILE")
            }
            if profile == nil, entitlements != nil, bundleID == nil || team == nil {
                throw ValidationError("--entitlements needs --bundle-id and --team (or --profile)")
            }
            if profile != nil, platform != nil { throw ValidationError("--profile says the platform: leave --platform out") }
            if let platform, Platform(rawValue: platform) == nil { throw ValidationError("--platform takes ios or macos, not '\(platform)'") }
        }

        func run() throws {
            let teamID: TeamID?
            do {
                teamID = try team.map { text throws(IdentityError) in try TeamID(text) }
            } catch {
                throw fail("--team: \(error.message)", code: 2)
            }
            var overrides: [String: String] = [:]
            for setting in settings {
                guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex else {
                    throw fail("--set takes NAME=VALUE, not '\(setting)'", code: 2)
                }
                overrides[String(setting[..<equals])] = String(setting[setting.index(after: equals)...])
            }
            var siteFiles: [String: String] = [:]
            for entry in aasa {
                guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex, entry.index(after: equals) != entry.endIndex else {
                    throw fail("--aasa takes DOMAIN=FILE, not '\(entry)'", code: 2)
                }
                let file = URL(fileURLWithPath: String(entry[entry.index(after: equals)...])).standardizedFileURL
                guard FileManager.default.isReadableFile(atPath: file.path) else { throw fail("--aasa: \(file.path) cannot be read", code: 2) }
                siteFiles[entry[..<equals].lowercased()] = file.path
            }
            let imported: ProjectImport
            let yaml: String
            let source = project ?? profile ?? entitlements ?? ""
            let id: BundleID?
            do {
                id = try bundleID.map { text throws(IdentityError) in try BundleID(text) }
            } catch {
                throw fail("--bundle-id: \(error.message)", code: 2)
            }
            do {
                if let profile {
                    imported = try provisioned(profile, bundleID: id, team: teamID)
                } else if let entitlements, let id, let teamID {
                    imported = try ProjectImport(
                        entitlements: URL(fileURLWithPath: entitlements),
                        bundleID: id,
                        team: teamID,
                        platform: platform.flatMap(Platform.init(rawValue:)) ?? .ios
                    )
                } else {
                    imported = try ProjectImport(
                        try XcodeProject(contentsOf: URL(fileURLWithPath: source)),
                        configuration: configuration,
                        team: teamID,
                        settings: overrides
                    )
                }
                yaml = try imported.worldYAML(siteFiles: siteFiles)
            } catch let error as XcodeProjectError {
                throw fail("\(source): \(error.message)")
            } catch let exit as ExitCode {
                throw exit
            } catch {
                throw fail("\(source): \(error)")
            }
            for note in imported.notes { warn("note: \(note)") }
            guard let out else {
                FileHandle.standardOutput.write(Data(yaml.utf8))
                return
            }
            do {
                try Data(yaml.utf8).write(to: URL(fileURLWithPath: out))
            } catch {
                throw fail("cannot write \(out): \(error.localizedDescription)")
            }
            say("wrote \(out): \(imported.apps.count) apps from \(imported.origin)")
            for app in imported.apps {
                say("  \(app.appID) (\(app.platform.rawValue), target \(app.target))\(app.entitlementsFile.map { ", \($0)" } ?? "")")
            }
        }

        /// One app from a real profile (its CMS signature checked against its content, not its
        /// chain: the world signs its own), with the entitlements file when given.
        private func provisioned(_ path: String, bundleID: BundleID?, team: TeamID?) throws -> ProjectImport {
            guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot read \(path)", code: 2) }
            let profile: ImportedProfile
            do {
                let inspection = try ProfileInspection(der: data, roots: nil, at: Date())
                // A device refuses a profile whose signature fails: it grants nothing to import.
                guard inspection.signatureValid else { throw fail("\(path): \(ProfileInspection.changedAfterSigning)", code: 1) }
                profile = try ImportedProfile(inspection.profile, bundleID: bundleID, at: Date())
            } catch let error as IdentityError {
                throw fail("\(path): \(error.message)", code: 2)
            }
            if let team, team != profile.team {
                throw fail("--team \(team) is not the profile's team \(profile.team): leave --team out", code: 2)
            }
            return try ProjectImport(profile: profile, entitlements: entitlements.map { URL(fileURLWithPath: $0) })
        }
    }
}
