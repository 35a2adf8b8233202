import DeviceProtocol
import Foundation
import LabControl
import Testing
import WorldTestSupport

/// `kclab app exec` and `kclab test` print a program's output as it runs, not when it ends: the
/// device sends each part as it is printed, then the exit status.
@Suite(.serialized) struct StreamedOutputTests {
    typealias W = IntegrationWorlds

    @Test func theOutputComesWhileTheProgramRuns() async throws {
        try await withLab(W.family) { (lab: RunningLab) async throws in
            // Outside the lab's state, which no app may read.
            let folder = lab.state.root.deletingLastPathComponent().appending(path: "streamed")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let script = folder.appending(path: "two-parts.sh")
            // It prints its second line only once the first has reached the caller, who then
            // writes `go`: without streaming it would wait 10 s and say so.
            let text = """
                #!/bin/sh
                echo first
                i=0
                while [ ! -e go ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
                if [ -e go ]; then echo second; else echo 'no go'; fi
                exit 3

                """
            try Data(text.utf8).write(to: script)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            let request = DeviceRequest(
                .exec(program: script.path, arguments: [], workingDirectory: folder.path),
                app: "com.example.AppOne"
            )
            var parts: [String] = []
            let answer = try DeviceClient(state: lab.state, device: W.phone).send(request) { part in
                parts.append(part)
                if part.contains("first") { _ = FileManager.default.createFile(atPath: folder.appending(path: "go").path, contents: nil) }
            }
            #expect(parts.joined() == "first\nsecond\n", "\(parts)")
            #expect(parts.first == "first\n")
            #expect(answer.exitCode == 3 && answer.output == nil && answer.partial == nil, "\(answer)")

            // Asked once (`go` is there now), the same program answers once, with all it printed.
            let whole = try DeviceClient(state: lab.state, device: W.phone).send(request)
            #expect(whole.output == "first\nsecond\n" && whole.exitCode == 3 && whole.partial == nil, "\(whole)")
        }
    }
}
