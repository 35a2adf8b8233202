import DeviceProtocol
import Foundation
import KeychainTypes
import LabControl
import Testing
import WorldTestSupport

/// A device's sockets read bounded lines: a client sending more without a newline gets an error
/// answer and is disconnected, and the device goes on serving everyone else.
@Suite(.serialized) struct DeviceSocketLimitTests {
    typealias W = IntegrationWorlds

    /// Sends `bytes` bytes without a newline to the Unix socket at `path` and returns the line
    /// the other end answers, if any (python3, so the client is independent of ours).
    static func sendUnterminated(_ bytes: Int, to path: String) throws -> String {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            s.settimeout(20)
            chunk = b"a" * 65536
            sent = 0
            try:
                while sent < int(sys.argv[2]):
                    s.sendall(chunk)
                    sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError, socket.timeout):
                pass
            answer = b""
            try:
                while not answer.endswith(b"\\n"):
                    part = s.recv(4096)
                    if not part:
                        break
                    answer += part
            except (ConnectionResetError, socket.timeout):
                pass
            print(answer.decode(errors="replace").strip())
            """
        return try runTool("python3", ["-c", script, path, "\(bytes)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func anOverlongLineIsRefusedAndTheDeviceGoesOn() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            let answer = try Self.sendUnterminated(6 << 20, to: lab.state.controlSocket(W.phone).path)
            #expect(answer.contains("longer than 4194304 bytes"), "\(answer)")
            #expect(lab.device(W.phone) != nil, "the device still answers on its control socket")
            let added = try lab.status(.add, on: W.phone, as: "com.example.AppOne", ["class": .string("genp"), "acct": .string("after")])
            #expect(added == 0)
        }
    }
}
