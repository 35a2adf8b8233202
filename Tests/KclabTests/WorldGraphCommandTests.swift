import Foundation
import Testing
import WorldTestSupport

/// `kclab world graph`: the built binary draws a world file as SVG and prints it as text.
@Suite struct WorldGraphCommandTests {
    static let demo = KclabCommandTests.repository.appending(path: "Tools/worlds/demo.yaml").path

    @Test func drawsTheDemoWorldAsSVGAndAsText() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appending(path: "overlap.svg")
            var result = try run(kclab, ["world", "graph", Self.demo, "--svg", file.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("wrote \(file.path): "), "\(result.stdout)")
            let svg = try String(contentsOf: file, encoding: .utf8)
            #expect(svg.contains(#"data-group="ABCDE12345.com.example.SharedItems" data-members="com.example.AppOne com.example.AppTwo""#))

            result = try run(kclab, ["world", "graph", Self.demo, "--svg", "-"])
            #expect(result.status == 0 && result.stdout == svg, "the same world, the same bytes")

            result = try run(kclab, ["world", "graph", Self.demo, "--text"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("    1. ABCDE12345.com.example.SharedItems  keychain-access-groups  default, shared [B]"))
            let plain = try run(kclab, ["world", "graph", Self.demo])
            #expect(plain.stdout == result.stdout, "text is the default")

            result = try run(kclab, ["world", "graph", Self.demo, "--svg", file.path, "--text"])
            #expect(result.status == 0 && result.stdout == plain.stdout, "the summary goes to standard error then")
            #expect(result.stderr.hasPrefix("wrote \(file.path): "), "\(result.stderr)")
        }
    }

    @Test func saysWhatIsWrong() async throws {
        try await withTemporaryDirectory { folder in
            var result = try run(kclab, ["world", "graph", folder.appending(path: "missing.yaml").path])
            #expect(result.status == 1 && result.stderr.contains("error: "), "\(result.stderr)")
            #expect(result.stderr.contains("cannot read the world file"), "\(result.stderr)")
            result = try run(kclab, ["world", "graph", Self.demo, "--svg", folder.appending(path: "no/such/folder/x.svg").path])
            #expect(result.status == 1 && result.stderr.contains("error: cannot write"), "\(result.stderr)")
            result = try run(kclab, ["world", "graph", Self.demo, "--svg", "-", "--text"])
            #expect(result.status == 2 && result.stderr.contains("both write to standard output"), "\(result.stderr)")
            result = try run(kclab, ["world", "graph", "--help"])
            #expect(result.status == 0 && result.stdout.contains("overlap"), "\(result.stdout)")
        }
    }

    /// The README shows docs/overlap-demo.svg: it is what the command draws now (make overlap).
    @Test func theREADMEsPictureIsTheDemoWorldsToday() throws {
        let drawn = try run(kclab, ["world", "graph", Self.demo, "--svg", "-"])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let committed = try String(contentsOf: KclabCommandTests.repository.appending(path: "docs/overlap-demo.svg"), encoding: .utf8)
        #expect(drawn.stdout == committed, "docs/overlap-demo.svg differs from what kclab world graph draws now: run make overlap")
    }
}
