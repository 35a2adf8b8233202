import AppIdentity
import ArgumentParser
import CMSSupport
import Foundation
import LabErrors

/// `kclab profile show FILE`
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Read provisioning profiles: real ones Apple signed, or a world's.",
        subcommands: [Show.self]
    )

    /// `kclab profile show FILE [--json] [--trust PEM] [--date ISO]`
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a .mobileprovision or .provisionprofile: its fields, certificates, signer and a verdict.",
            discussion: """
                The CMS envelope's signature is checked against its content (as openssl cms -verify \
                -noverify does); the signer's chain only against the roots given with --trust (for a real \
                profile, Apple's root certificates, which Apple publishes); the dates at --date (default: \
                now). Reads and reports: exits 0 whenever the file was read, an expired, untrusted or \
                changed profile included (the verdict lines say so; kclab lint decides pass or fail), and \
                2 when the file is not a signed profile (the message says what it is instead).
                """
        )

        @Argument(help: "The profile: embedded.mobileprovision, NAME.mobileprovision or NAME.provisionprofile.")
        var file: String

        @Option(help: "A PEM file of the roots to trust for the signer's chain (nothing is trusted by default).")
        var trust: String?

        @Option(help: "Check the dates at this moment, ISO 8601 (such as 2026-01-31T12:00:00Z); default now.")
        var date: String?

        @Flag(help: "Print JSON (keys in lowerCamelCase of the profile's keys).")
        var json = false

        func run() throws {
            let moment = try checkMoment(date)
            guard let der = FileManager.default.contents(atPath: file) else { throw fail("cannot read \(file)", code: 2) }
            let roots: TrustStore?
            do {
                roots = try trust.map { path throws(CMSError) in
                    guard let pem = FileManager.default.contents(atPath: path) else { throw CMSError(.malformedCertificate, "cannot read \(path)") }
                    return try TrustStore(pem: pem)
                }
            } catch {
                throw fail("--trust: \(error.message)", code: 2)
            }
            let inspection: ProfileInspection
            do {
                inspection = try ProfileInspection(der: der, roots: roots, at: moment)
            } catch {
                throw fail("\(file): \(error.message)", code: 2)
            }
            if json {
                say(try ProfileJSON.text(inspection))
            } else {
                for line in ProfileText.lines(inspection) { say(line) }
            }
        }
    }
}

/// A `--date` option: the moment given in ISO 8601, else now; anything else is a usage error.
func checkMoment(_ text: String?) throws -> Date {
    guard let text else { return Date() }
    guard let parsed = try? Date(text, strategy: .iso8601) else { throw fail("--date takes ISO 8601, such as 2026-01-31T12:00:00Z", code: 2) }
    return parsed
}
