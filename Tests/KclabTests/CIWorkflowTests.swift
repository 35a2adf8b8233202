import Foundation
import Testing
import WorldTestSupport
import Yams

/// docs/testing-your-package.md's GitHub Actions workflow, read as GitHub reads it: the commit it
/// pins is in this repository, the `make` targets it calls exist and install only what `kclab
/// test` needs, the build is cached on the pinned commit, and `kclab doctor` runs before the tests.
@Suite struct CIWorkflowTests {
    /// The workflow: the YAML block after its file name in the doc.
    static func workflow() throws -> [String: Any] {
        let doc = try String(contentsOfFile: "docs/testing-your-package.md", encoding: .utf8)
        let start = try #require(doc.range(of: "```yaml\n# .github/workflows/keychain-tests.yml\n"))
        let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
        return try #require(try Yams.load(yaml: String(doc[start.upperBound..<end.lowerBound])) as? [String: Any])
    }

    static func job() throws -> [String: Any] {
        let jobs = try #require(try workflow()["jobs"] as? [String: Any])
        return try #require(jobs["keychain"] as? [String: Any])
    }

    /// Every step's `run:` text, in order.
    static func scripts() throws -> [String] {
        let steps = try #require(try job()["steps"] as? [[String: Any]])
        return steps.compactMap { $0["run"] as? String }
    }

    @Test func thePinnedCommitIsInTheRepository() throws {
        let environment = try #require(try Self.job()["env"] as? [String: Any])
        let ref = try #require(environment["KEYCHAINLAB_REF"] as? String)
        #expect(ref.count == 40 && ref.allSatisfy(\.isHexDigit), "a full commit hash: \(ref)")
        let found = try runTool("git", ["cat-file", "-e", "\(ref)^{commit}"])
        #expect(found.status == 0, "KEYCHAINLAB_REF \(ref) is not a commit of this repository: \(found.stderr)")
        // The fetch step checks out exactly that commit.
        let fetch = try #require(try Self.scripts().first { $0.contains("fetch") })
        #expect(
            fetch.contains(#"fetch -q --depth 1 "$KEYCHAINLAB_GIT_URL" "$KEYCHAINLAB_REF""#) && fetch.contains("checkout -q FETCH_HEAD"),
            "\(fetch)"
        )
    }

    @Test func theBuildIsCachedOnThePinnedCommit() throws {
        let steps = try #require(try Self.job()["steps"] as? [[String: Any]])
        let cache = try #require(steps.first { ($0["uses"] as? String)?.hasPrefix("actions/cache@") == true })
        let with = try #require(cache["with"] as? [String: Any])
        #expect(with["path"] as? String == "/opt/keychainlab")
        #expect((with["key"] as? String)?.contains("${{ env.KEYCHAINLAB_REF }}") == true, "\(with)")
        let install = try #require(try Self.scripts().first { $0.contains("install-for-tests") })
        #expect(install.contains("test -x /opt/keychainlab/bin/kclab ||"), "built only when the cache missed: \(install)")
        #expect(install.contains("PREFIX=/opt/keychainlab"), "installed where the cache keeps it")
    }

    @Test func itInstallsWhatKclabTestNeedsAndChecksTheMachineFirst() throws {
        let scripts = try Self.scripts()
        for target in ["test-deps", "install-for-tests"] {
            #expect(scripts.contains { $0.contains("make -C ../keychainlab \(target)") }, "\(target) is not called")
            let dryRun = try runTool("make", ["-n", target, "PREFIX=/nonexistent"])
            #expect(dryRun.status == 0, "make \(target) does not exist: \(dryRun.stderr)")
            #expect(!dryRun.stdout.contains("postgresql") && !dryRun.stdout.contains("chromium"), "\(target) installs more than kclab test needs")
            #expect(!dryRun.stdout.contains("python3-venv") && !dryRun.stdout.contains(" jq"), "\(dryRun.stdout)")
        }
        let steps = try #require(try Self.job()["steps"] as? [[String: Any]])
        let upload = try #require(steps.first { ($0["uses"] as? String)?.hasPrefix("actions/upload-artifact@") == true })
        #expect(upload["if"] as? String == "failure()" && (upload["with"] as? [String: Any])?["path"] as? String == "kclab-logs", "\(upload)")
        let doctor = try #require(scripts.firstIndex { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "kclab doctor" })
        let test = try #require(scripts.firstIndex { $0.hasPrefix("kclab test ") })
        #expect(doctor < test, "kclab doctor runs before the tests")
    }
}
