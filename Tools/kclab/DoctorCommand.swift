import ArgumentParser
import Foundation
import LabControl

/// `kclab doctor [--json]`
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that this machine can run the lab, and say how to install what is missing.",
        discussion: """
            Checks kclab's own programs, nginx and openssl (needed), Swift for the packages kclab test \
            runs, Landlock for the apps' sandbox, and the temporary folder. Exits 1 when something \
            needed is missing; a warning alone exits 0.
            """
    )

    @Flag(help: "Print the findings as a JSON array of {level, subject, detail, fix}.")
    var json = false

    func run() throws {
        let findings = Doctor.examine()
        if json {
            say(try JSONOutput.pretty(findings))
        } else {
            for finding in findings {
                say("\(finding.level.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(finding.subject): \(finding.detail)")
                if let fix = finding.fix { say("         fix: \(fix)") }
            }
        }
        if findings.contains(where: { $0.level == .missing }) { throw ExitCode(1) }
    }
}
