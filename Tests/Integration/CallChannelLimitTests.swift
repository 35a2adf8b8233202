import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// Answers larger than a call may send arrive, and one app's large read never fails another
/// app's calls on the device's shared connection to keychaind.
@Suite(.serialized) struct CallChannelLimitTests {
    typealias W = IntegrationWorlds

    @Test func aReadOfSeveralMegabytesArrivesWhileOtherAppsCall() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let big = "com.example.AppOne"
            for index in 0..<5 {
                let item: [String: SecValue] = [
                    "class": .string("genp"), "acct": .string("big-\(index)"), "v_Data": .data(Data(repeating: UInt8(index), count: 1000 * 1024)),
                ]
                #expect(try lab.status(.add, on: W.phone, as: big, item) == 0)
            }
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppTwo", ["class": .string("genp"), "acct": .string("small")]) == 0)
            let state = lab.state
            let outcome = try await withThrowingTaskGroup(of: (Bool, Int32?).self) { group in
                group.addTask {
                    let all = try DeviceClient(state: state, device: W.phone).send(
                        DeviceRequest(
                            .secItem(.copyMatching, query: ["class": .string("genp"), "m_Limit": .string("m_LimitAll"), "r_Data": .bool(true)]),
                            app: big
                        )
                    )
                    guard case .array(let items) = all.result else { return (true, all.status) }
                    return (true, items.count == 5 ? all.status : -1)
                }
                for _ in 0..<20 {
                    group.addTask {
                        let small = try DeviceClient(state: state, device: W.phone).send(
                            DeviceRequest(
                                .secItem(.copyMatching, query: ["class": .string("genp"), "acct": .string("small")]),
                                app: "com.example.AppTwo"
                            )
                        )
                        return (false, small.status)
                    }
                }
                var results: [(Bool, Int32?)] = []
                for try await result in group { results.append(result) }
                return results
            }
            #expect(outcome.first { $0.0 }?.1 == 0, "the 5 MB read arrives whole")
            #expect(outcome.filter { !$0.0 }.allSatisfy { $0.1 == 0 }, "\(outcome.filter { !$0.0 }.map(\.1))")
        }
    }

    /// A value nested deeper than the call channel reads is the caller's error (errSecParam),
    /// not keychaind being unavailable.
    @Test func aValueNestedTooDeepIsAParameterError() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            var value = SecValue.string("deep")
            for _ in 0..<70 { value = .array([value]) }
            let call = try lab.call(.add, on: W.phone, as: "com.example.AppOne", ["class": .string("genp"), "acct": .string("deep"), "labl": value])
            #expect(call.status == -50, "\(call.status.map(String.init) ?? "nil") \(call.reason ?? call.error ?? "")")
            #expect(try lab.status(.add, on: W.phone, as: "com.example.AppOne", ["class": .string("genp"), "acct": .string("after")]) == 0)
        }
    }
}
