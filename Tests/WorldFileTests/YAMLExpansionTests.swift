import Foundation
import Testing
import WorldFile

/// Anchors and aliases may repeat a part of a world, not multiply it (issue 24, point 2): the
/// expansion is weighed before the document is composed, and the alias that goes past the bound
/// is named with its line and column.
@Suite struct YAMLExpansionTests {
    /// Seven levels of nine aliases each: 600 bytes that stand for 9^7 × 4 values.
    static let bomb = zip("abcdefg", "-abcdef").map { name, previous -> String in
        let items = Array(repeating: previous == "-" ? "lol" : "*\(previous)", count: 9)
        return "\(name): &\(name) [\(items.joined(separator: ", "))]"
    }.joined(separator: "\n")

    static func failure(_ yaml: String) -> WorldError? {
        do {
            _ = try World.parse(yaml: yaml, file: "bomb.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test func anAliasBombIsRefusedAtTheAlias() throws {
        let error = try #require(Self.failure(Self.bomb))
        #expect(error.code == .syntax)
        // Line 5 (`e: &e [*d, *d, *d, …]`): its third alias takes the total past 100 × 1,000.
        #expect(error.line == 5 && error.column == 16, "\(error)")
        #expect(error.message.contains("alias"), "\(error)")
    }

    @Test func anAliasUsedAsAKeyIsWeighedToo() throws {
        let yaml = Self.bomb.split(separator: "\n").prefix(6).joined(separator: "\n") + "\n? *f\n: 1\n"
        let error = try #require(Self.failure(yaml))
        #expect(error.code == .syntax && error.message.contains("alias"), "\(error)")
    }

    @Test func nestingIsBounded() throws {
        let yaml = "name: " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "\n"
        let error = try #require(Self.failure(yaml))
        #expect(error.line == 1 && error.message.contains("nested deeper"), "\(error)")
    }

    @Test func aFewAliasesStillWork() throws {
        let yaml = """
            name: &n aliased
            teams:
              - id: ABCDE12345
                name: *n
            """
        let world = try World.parse(yaml: yaml, file: "ok.yaml")
        #expect(world.name == "aliased")
        #expect(world.teams.first?.name == "aliased")
    }
}
