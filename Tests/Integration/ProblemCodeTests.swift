import AssociationAPI
import CloudAPI
import Foundation
import KeychainAPI
import LabErrors
import Testing
import WebCredentialAPI

/// Each service's problem codes are one table (``KeychainAPI/ProblemCode``,
/// ``AssociationAPI/ProblemCode``, ``WebCredentialAPI/ProblemCode``, ``CloudAPI/ProblemCode``): every code is in the service's
/// OpenAPI document's enum and every documented code is in the table, so a client generated from
/// the document reads every refusal, and the document states each code's HTTP status.
@Suite struct ProblemCodeTests {
    @Test func keychaindsTableAndDocumentNameTheSameCodes() throws {
        try expectDocumented(KeychainAPI.ProblemCode.self, in: "Services/Keychain/KeychainAPI/openapi.yaml")
    }

    @Test func associationdsTableAndDocumentNameTheSameCodes() throws {
        try expectDocumented(AssociationAPI.ProblemCode.self, in: "Services/Associations/AssociationAPI/openapi.yaml")
    }

    @Test func webcredentialdsTableAndDocumentNameTheSameCodes() throws {
        try expectDocumented(WebCredentialAPI.ProblemCode.self, in: "Services/WebCredentials/WebCredentialAPI/openapi.yaml")
    }

    @Test func clouddsTableAndDocumentNameTheSameCodes() throws {
        try expectDocumented(CloudAPI.ProblemCode.self, in: "Services/Cloud/CloudAPI/openapi.yaml")
    }

    /// A problem reads back from the wire with its code, and one of a newer build keeps its text.
    @Test func aProblemKeepsACodeThisBuildDoesNotKnow() throws {
        let known = try JSONDecoder().decode(AssociationAPI.Problem.self, from: Data(#"{"error":"refusedApp","message":"m","reasons":["r"]}"#.utf8))
        #expect(known.code == .refusedApp && known.httpStatus == 403 && known.reasons == ["r"])
        let newer = try JSONDecoder().decode(WebCredentialAPI.Problem.self, from: Data(#"{"error":"fromTheFuture","message":"m"}"#.utf8))
        #expect(newer.code == nil && newer.error == "fromTheFuture" && newer.httpStatus == 500)
    }

    /// A client reads a refusal's body as the service's problem, and anything else as none.
    @Test func aRefusalsBodyReadsAsItsProblem() {
        let problem = KeychainAPI.Problem(body: #"{"error":"notADevice","message":"m"}"#)
        #expect(problem?.code == .notADevice && problem?.message == "m")
        #expect(KeychainAPI.Problem(body: "<html>502 Bad Gateway</html>") == nil)
        #expect(KeychainAPI.Problem(body: "") == nil)
    }

    private func expectDocumented<Code: APIProblemCode>(_ codes: Code.Type, in path: String) throws {
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let problem = try #require(document.range(of: "    Problem:\n      type: object"))
        let schema = document[problem.upperBound...]
        let line = try #require(schema.firstMatch(of: /enum: \[([^\]]*)\]/))
        let documented = Set(line.output.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(documented == Set(Code.allCases.map(\.rawValue)), "\(path)")
        let description = try #require(schema.firstMatch(of: /description: >-\n((?:\s{12}.*\n)+)/)).output.1
        for code in Code.allCases {
            let stated = description.firstMatch(of: try Regex("\\b\(code.rawValue)\\b[^0-9]*?([0-9]{3})"))
            #expect(stated.flatMap { Int($0.output[1].substring ?? "") } == code.httpStatus, "\(path): \(code) answers \(code.httpStatus)")
        }
    }
}
