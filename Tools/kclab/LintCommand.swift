import AppIdentity
import ArgumentParser
import CMSSupport
import Foundation
import LabErrors
import SiteAssociation

/// `kclab lint --entitlements FILE --profile FILE`
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check what an app's entitlements claim against what its provisioning profile grants, rule by rule.",
        discussion: """
            As a device's installer and App Store processing check a signature: the application \
            identifier (wildcard App IDs included), the team, keychain access groups, app groups and their \
            names on the platform, associated domains and their form, get-task-allow against the \
            profile's kind, aps-environment, the profile's dates and devices, and every other \
            entitlement, misspelled keys, and the envelope's signature (a profile changed after signing \
            fails rule signature). Build variables ($(AppIdentifierPrefix), $(TeamIdentifierPrefix), \
            $(PRODUCT_BUNDLE_IDENTIFIER)) are expanded as Xcode does with the profile's prefix and team. \
            Each failure names what was claimed, what the profile grants and what to change. Exits 1 when \
            a rule fails, 2 when a file cannot be read.
            """
    )

    @Argument(help: "A signed bundle (NAME.app, as kclab world build writes them): its signature's entitlements against its embedded profile.")
    var bundle: String?

    @Option(help: "The target's .entitlements file (a property list, as Xcode keeps it).")
    var entitlements: String?

    @Option(help: "The provisioning profile: NAME.mobileprovision or NAME.provisionprofile.")
    var profile: String?

    @Option(help: "The target's bundle ID (PRODUCT_BUNDLE_IDENTIFIER); default: the profile's explicit App ID.")
    var bundleID: String?

    @Option(help: "ios or macos; default: the profile's platform.")
    var platform: String?

    @Option(help: "debug or release: a release build must not claim get-task-allow.")
    var configuration: String?

    @Option(help: "Check the profile's dates at this moment, ISO 8601; default now.")
    var date: String?

    @Flag(help: "Print JSON: one object per rule (rule, result, detail, fix).")
    var json = false

    func validate() throws {
        if bundle != nil, entitlements != nil || profile != nil {
            throw ValidationError("give a bundle, or --entitlements and --profile, not both")
        }
        if bundle == nil, entitlements == nil || profile == nil {
            throw ValidationError("give a signed bundle, or --entitlements FILE and --profile FILE")
        }
    }

    func run() throws {
        let lint = try makeLint()
        let findings = lint.findings()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            say(String(decoding: try encoder.encode(findings), as: UTF8.self))
        } else {
            for finding in findings { say(finding.description) }
        }
        if findings.contains(where: { $0.result == .fail }) { throw ExitCode(1) }
    }

    private func makeLint() throws -> EntitlementLint {
        let moment = try checkMoment(date)
        var claimed: Entitlements
        let profileData: Data
        var bundle: BundleID?
        do {
            bundle = try bundleID.map { text throws(IdentityError) in try BundleID(text) }
        } catch {
            throw fail("--bundle-id: \(error.message)", code: 2)
        }
        if let path = self.bundle {
            (claimed, profileData, bundle) = try Self.signedClaims(path, bundle: bundle)
        } else {
            guard let entitlements, let profile else { throw fail("give --entitlements and --profile", code: 2) }
            guard let entitlementsData = FileManager.default.contents(atPath: entitlements) else {
                throw fail("cannot read \(entitlements)", code: 2)
            }
            if let problem = EntitlementsFileShape.problem(entitlementsData) { throw fail("\(entitlements): \(problem)", code: 2) }
            guard let data = FileManager.default.contents(atPath: profile) else { throw fail("cannot read \(profile)", code: 2) }
            do {
                claimed = try Entitlements(propertyList: entitlementsData)
            } catch {
                throw fail("\(entitlements): \(error.message)", code: 2)
            }
            profileData = data
        }
        let inspection: ProfileInspection
        do {
            inspection = try ProfileInspection(der: profileData, roots: nil, at: moment)
        } catch {
            throw fail("\(profile ?? "the bundle's embedded profile"): \(error.message)", code: 2)
        }
        let chosenPlatform = try platform.map { text in
            guard let parsed = Platform(rawValue: text) else { throw fail("--platform takes ios or macos", code: 2) }
            return parsed
        }
        let chosenConfiguration = try configuration.map { text in
            guard let parsed = EntitlementLint.Configuration(rawValue: text.lowercased()) else {
                throw fail("--configuration takes debug or release", code: 2)
            }
            return parsed
        }
        return EntitlementLint(
            claimed: claimed,
            profile: inspection.profile,
            signatureValid: inspection.signatureValid,
            bundleID: bundle,
            platform: chosenPlatform,
            configuration: chosenConfiguration,
            date: moment,
            entryProblem: { entry in
                switch Result(catching: { () throws(AssociatedDomainError) in try AssociatedDomain(entry) }) {
                case .success: nil
                case .failure(let error): error.reason
                }
            }
        )
    }

    /// What a signed bundle claims: its code signature's entitlements and identifier, and its
    /// embedded profile.
    static func signedClaims(_ path: String, bundle given: BundleID?) throws -> (Entitlements, Data, BundleID?) {
        let app: AppBundle
        do {
            app = try AppBundle(at: URL(fileURLWithPath: path))
        } catch {
            throw fail("\(path): \(error.message)", code: 2)
        }
        guard !app.signed.profile.isEmpty else {
            throw fail("\(path) embeds no provisioning profile (a Mac app signed without one): nothing to check its entitlements against", code: 1)
        }
        do {
            let directory = try CodeDirectory(propertyList: try SignedMessage(der: app.signed.codeSignature).content)
            return (directory.entitlements, app.signed.profile, given ?? directory.identifier)
        } catch let error as CMSError {
            throw fail("\(path): the code signature does not open: \(error.message)", code: 2)
        } catch let error as IdentityError {
            throw fail("\(path): the code signature cannot be read: \(error.message)", code: 2)
        }
    }
}
