public import AppIdentity
public import ArgumentParser
import CMSSupport
import Foundation

/// `kclab bundle …`
struct BundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Inspect signed app bundles.",
        subcommands: [Verify.self]
    )
}

extension BundleCommand {
    /// `kclab bundle verify BUNDLE --trust DIR [--device UDID]`
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a bundle as a device does at install, and print its identity as JSON.",
            discussion: """
                Prints {"valid", "appID", "teamID", "accessGroups", "platform", "deviceAccessGroups", \
                "associatedDomains", "reasons"}. accessGroups are in the signature's order: \
                keychain-access-groups, associated application identifiers, the application identifier, \
                then application groups. deviceAccessGroups is the list as a device of --platform holds \
                it: the token group moved last, and on macOS added when not listed. Exits 1 when the \
                bundle is invalid.
                """
        )

        @Argument(help: "The app bundle folder (NAME.app).")
        var bundle: String

        @Option(name: .long, help: "The trusted roots: a built world's folder, its trust/ folder, or a PEM file.")
        var trust: String

        @Option(
            name: .long,
            help: "The device to install on: a world device's ID (with --trust a built world) or a UDID; development profiles must list it."
        )
        var device: String?

        @Option(name: .long, help: "The platform of that device (ios, macos); by default the bundle's own.")
        var platform: Platform?

        func run() throws {
            let store: TrustStore
            do {
                store = try TrustAnchors.load(trust)
            } catch {
                throw fail("\(error)", code: 2)
            }
            let url = URL(fileURLWithPath: bundle)
            let target = deviceToCheck(device, world: URL(fileURLWithPath: trust))
            let platform = platformToCheck(platform ?? target.platform, bundleAt: url)
            let verdict = BundleVerifier(trust: store).verify(bundleAt: url, device: target.udid, platform: platform)
            let held = deviceAccessGroups(verdict, on: platform ?? verdict.builtFor ?? .ios)
            say(
                try JSONOutput.object([
                    ("valid", verdict.valid),
                    ("appID", verdict.appID),
                    ("teamID", verdict.teamID),
                    ("accessGroups", verdict.accessGroups),
                    ("platform", (platform ?? verdict.builtFor ?? .ios).rawValue),
                    ("deviceAccessGroups", held),
                    ("associatedDomains", verdict.associatedDomains),
                    ("reasons", verdict.reasons),
                ])
            )
            if !verdict.valid {
                throw ExitCode(1)
            }
        }
    }
}

/// Finds the root certificates a verifier trusts.
enum TrustAnchors {
    struct NotFound: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "no trusted root at \(path): give a built world's folder, its trust/ folder, or a PEM file"
        }
    }

    /// `path` may be a PEM file, a folder holding `root-ca.pem`, or a built world holding `trust/root-ca.pem`.
    static func load(_ path: String) throws -> TrustStore {
        let url = URL(fileURLWithPath: path)
        let candidates = [url.appending(path: "root-ca.pem"), url.appending(path: "trust/root-ca.pem"), url]
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let pem = try? Data(contentsOf: candidate)
            else { continue }
            return try TrustStore(pem: pem)
        }
        throw NotFound(path: path)
    }
}

extension Platform: ExpressibleByArgument {}
