import Foundation
import KeychainAPI
import Testing

/// keychaind's problem codes are one table (``KeychainAPI/ProblemCode``): every code is in the
/// OpenAPI document's enum and every documented code is in the table, so a client generated from
/// the document reads every refusal, and the document states each code's HTTP status.
@Suite struct ProblemCodeTests {
    @Test func theTableAndTheDocumentNameTheSameCodes() throws {
        let document = try String(contentsOfFile: "Services/Keychain/KeychainAPI/openapi.yaml", encoding: .utf8)
        let problem = try #require(document.range(of: "    Problem:\n      type: object"))
        let schema = document[problem.upperBound...]
        let line = try #require(schema.firstMatch(of: /enum: \[([^\]]*)\]/))
        let documented = Set(line.output.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(documented == Set(KeychainAPI.ProblemCode.allCases.map(\.rawValue)))
        let description = try #require(schema.firstMatch(of: /description: >-\n((?:\s{12}.*\n)+)/)).output.1
        for code in KeychainAPI.ProblemCode.allCases {
            let stated = description.firstMatch(of: try Regex("\\b\(code.rawValue)\\b[^0-9]*?([0-9]{3})"))
            #expect(stated.flatMap { Int($0.output[1].substring ?? "") } == code.httpStatus, "\(code) answers \(code.httpStatus)")
        }
    }
}
