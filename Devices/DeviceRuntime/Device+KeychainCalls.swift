import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainTypes
import LabErrors
import NIOHTTP1
import ServiceSupport

/// keychaind would not make a call: its problem (`unknownApp`, `unknownDevice`, …).
struct KeychainRefusal: Error, CustomStringConvertible {
    let problem: KeychainAPI.Problem
    var code: KeychainAPI.ProblemCode? { problem.code }
    var message: String { problem.message }
    var description: String { "\(problem.error): \(problem.message)" }
}

extension Device {
    /// Sends one SecItem call to keychaind: on the call channel when keychaind offers one, else
    /// as `POST /v1/items/{call}`. keychaind's refusals come back as ``KeychainRefusal``. Data
    /// larger than an item holds is errSecParam here, before sending, as securityd answers it.
    func send(_ call: SecItemCall, _ request: KeychainAPI.CallRequest) async throws -> KeychainAPI.CallResponse {
        if var refusal = request.oversizedData(function: call.function) {
            refusal.reason = refusal.reason.map { "\($0) (refused by the device, not sent)" }
            return refusal
        }
        if let calls {
            switch try await calls.call(call, request) {
            case .answer(let answer): return answer
            case .problem(let problem): throw KeychainRefusal(problem: problem)
            }
        }
        do {
            return try await keychain.send(.POST, call.route, request, as: KeychainAPI.CallResponse.self)
        } catch let failure as ServiceClient.Failure {
            guard let problem = KeychainAPI.Problem(body: failure.body) else { throw failure }
            throw KeychainRefusal(problem: problem)
        }
    }
}
