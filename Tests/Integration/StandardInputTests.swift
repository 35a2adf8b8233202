import Foundation
import LabControl
import Testing
import WorldTestSupport

/// Secrets given to kclab on standard input, so they never show in `ps`.
@Suite(.serialized) struct StandardInputTests {
    typealias L = WebCredentialLabTests

    @Test func passwordsAndQueriesComeFromStandardInput() async throws {
        try await withLab(L.world) { (lab: RunningLab) async throws in
            let target = ["--state", lab.state.root.path, "--device", "phone", "--app", L.demo]
            let saved = try run(
                kclab,
                ["app", "add-web-credential"] + target + ["example.com", "alice", "--password-stdin"],
                input: Data("St4nd4rd-input\n".utf8)
            )
            #expect(saved.status == 0 && saved.stdout.contains("\"status\": 0"), "\(saved.stdout)\(saved.stderr)")
            let shared = try lab.runApp(L.admin, on: "phone", ["request-web-credential", "example.com", "alice"])
            #expect(shared.stdout.contains(#""spwd":"St4nd4rd-input""#), "\(shared.stdout)")

            let added = try run(
                kclab,
                ["app", "call"] + target + ["add", "-"],
                input: Data(#"{"class": "genp", "acct": "piped", "v_Data": "c2VjcmV0"}"#.utf8)
            )
            #expect(added.status == 0 && added.stdout.contains("errSecSuccess"), "\(added.stdout)\(added.stderr)")
            let found = try run(kclab, ["app", "call"] + target + ["copy", #"{"class": "genp", "acct": "piped", "r_Data": true}"#])
            #expect(found.stdout.contains("c2VjcmV0"), "\(found.stdout)")

            let both = try run(kclab, ["app", "add-web-credential"] + target + ["example.com", "alice", "--password-stdin", "--password", "x"])
            #expect(both.status == 2)
        }
    }
}
