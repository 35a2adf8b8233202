import KeychainAPI
import KeychainCallChannel
import NIOHTTP1
import ServiceSupport

/// keychaind would not make a call: its problem code (`unknownApp`, `unknownDevice`, …).
struct KeychainRefusal: Error, CustomStringConvertible {
    let code: String
    let message: String
    var description: String { "\(code): \(message)" }
}

extension Device {
    /// Sends one SecItem call to keychaind: on the call channel when keychaind offers one, else
    /// as `POST /v1/items/{call}`. keychaind's refusals come back as ``KeychainRefusal``. Data
    /// larger than an item holds is errSecParam here, before sending, as securityd answers it.
    func send(_ call: CallMessage.Call, _ request: KeychainAPI.CallRequest) async throws -> KeychainAPI.CallResponse {
        if var refusal = request.oversizedData(function: call.function) {
            refusal.reason = refusal.reason.map { "\($0) (refused by the device, not sent)" }
            return refusal
        }
        if let calls {
            switch try await calls.call(call, request) {
            case .answer(let answer): return answer
            case .problem(let problem): throw KeychainRefusal(code: problem.error, message: problem.message)
            }
        }
        do {
            return try await keychain.send(.POST, "/v1/items/\(call.name)", request, as: KeychainAPI.CallResponse.self)
        } catch let failure as ServiceClient.Failure where failure.status == 412 || failure.status == 409 {
            throw KeychainRefusal(code: failure.status == 412 ? "unknownApp" : "unknownDevice", message: failure.body)
        }
    }
}
