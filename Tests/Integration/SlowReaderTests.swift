import Foundation
import KeychainAPI
import KeychainCallChannel
import KeychainTypes
import LabControl
import NIOCore
import NIOPosix
import NIOSSL
import ServiceSupport
import Testing
import WorldTestSupport

/// A device that sends calls and never reads their answers (issue 24, point 6): keychaind stops
/// reading its calls once a few megabytes of answers wait, closes it once the largest answer could
/// not fit twice, and never holds gigabytes for it; other calls go on being answered.
@Suite(.serialized) struct SlowReaderTests {
    typealias W = IntegrationWorlds

    /// keychaind's peak resident memory, in MiB (VmHWM: the most it ever held).
    static func peakMemory(_ lab: RunningLab) throws -> Int {
        let record = try #require(LabRecord.read(lab.state))
        let pid = try #require(record.processes.first { $0.name == "keychaind" }?.pid)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes / 1024
    }

    @Test func aDeviceThatTakesNoAnswersIsCutOffNotHoarded() async throws {
        try await CallChannelTests.withDoors { lab, doors in
            let app = try await doors.register("com.example.AppOne", lab: lab)
            let item: [String: SecValue] = ["class": .string("genp"), "acct": .string("big"), "v_Data": .data(Data(repeating: 7, count: 900 * 1024))]
            guard case .answer(let added) = try await doors.calls.call(.add, .init(app: app, query: item)) else {
                Issue.record("the add was refused")
                return
            }
            #expect(added.status == 0)
            let before = try Self.peakMemory(lab)

            // 1,000 reads of 900 KB each: 900 MB of answers, if keychaind kept them all.
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: lab.state.keychaindEndpoint)) as? [String: Any]
            let address = try #require((object?["calls"] as? String)?.split(separator: ":"))
            let context = try NIOSSLContext(configuration: try TLSIdentities.deviceClient(world: lab.state.builtWorld, device: W.phone))
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(.autoRead, value: false)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: nil))
                    }
                }
                .connect(host: String(address[0]), port: try #require(Int(address[1])))
                .get()
            // The handshake needs the client to read; afterwards it never reads again.
            channel.read()
            let read = CallMessage(
                id: 0,
                call: .copyMatching,
                request: .init(app: app, query: ["class": .string("genp"), "acct": .string("big"), "r_Data": .bool(true)])
            )
            for id in 1...1000 {
                var message = read
                message.id = UInt32(id)
                channel.write(CallFrame.buffer(message.encoded(), allocator: channel.allocator), promise: nil)
            }
            channel.flush()
            try await Task.sleep(for: .seconds(10))

            let peak = try Self.peakMemory(lab)
            #expect(peak - before < 150, "keychaind grew from \(before) MiB to \(peak) MiB for a device that reads nothing")
            // Everyone else is still answered.
            let query: [String: SecValue] = ["class": .string("genp"), "acct": .string("big")]
            guard case .answer(let again) = try await doors.calls.call(.copyMatching, .init(app: app, query: query)) else {
                Issue.record("a later call was refused")
                return
            }
            #expect(again.status == 0)
            try? await channel.close()
        }
    }
}
