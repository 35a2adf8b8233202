import DeviceProtocol
import KeychainTypes
import Testing

/// The Security module's calls reach the device as the device protocol's operations: the same four,
/// both ways, and no other operation is a SecItem call.
@Suite struct SecItemCallTests {
    @Test func everyCallIsOneOperationAndBack() {
        #expect(SecItemCall.allCases.allSatisfy { DeviceRequest.Operation($0).secItemCall == $0 })
        #expect(DeviceRequest.Operation.allCases.compactMap(\.secItemCall) == SecItemCall.allCases)
        #expect(SecItemCall.allCases.map { DeviceRequest.Operation($0).rawValue } == SecItemCall.allCases.map(\.rawValue))
    }
}
