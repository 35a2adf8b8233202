import Foundation
import Testing

/// Every problem code keychaind's HTTP routes answer is in its OpenAPI document's enum, so a
/// client generated from the document can read every refusal.
@Suite struct ProblemCodeTests {
    @Test func everyCodeTheRoutesAnswerIsDocumented() throws {
        var used: Set<String> = []
        for file in [
            "Services/KeychainService/KeychainRoutes.swift", "Services/KeychainService/KeychainRoutes+Admin.swift",
            "Services/KeychainService/KeychainRoutes+Explain.swift", "Services/KeychainService/KeychainRoutes+LoginKeychain.swift",
            "Services/KeychainService/KeychainCalls.swift",
        ] {
            let source = try String(contentsOfFile: file, encoding: .utf8)
            for match in source.matches(of: /problem\(\s*\.[a-zA-Z]+,\s*"([a-zA-Z]+)"/) { used.insert(String(match.output.1)) }
            for match in source.matches(of: /Problem\(error: "([a-zA-Z]+)"/) { used.insert(String(match.output.1)) }
            for match in source.matches(of: /\.init\(error: "([a-zA-Z]+)"/) { used.insert(String(match.output.1)) }
        }
        #expect(used.count >= 6, "\(used)")
        let document = try String(contentsOfFile: "Services/KeychainAPI/openapi.yaml", encoding: .utf8)
        let problem = try #require(document.range(of: "    Problem:\n      type: object"))
        let line = try #require(document[problem.upperBound...].firstMatch(of: /enum: \[([^\]]*)\]/))
        let documented = Set(line.output.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(used.subtracting(documented).isEmpty, "undocumented: \(used.subtracting(documented).sorted())")
    }
}
