import ArgumentParser
import Foundation
import Testing

@testable import ServiceSupport

/// Every daemon reads its common flags the same way: the flag, else its variable, else the default.
@Suite struct DaemonOptionsTests {
    @Test func aFlagBeatsTheEnvironmentWhichBeatsTheDefault() throws {
        let environment = ["ASSOCIATIOND_PORT": "9002", "KEYCHAIND_PORT": "9001"]
        #expect(DaemonOptions.value("7", "PORT", daemon: "associationd", environment: environment) == "7")
        #expect(DaemonOptions.value(nil, "PORT", daemon: "associationd", environment: environment) == "9002")
        #expect(DaemonOptions.value(nil, "HOST", daemon: "associationd", environment: environment) == nil)
        #expect(DaemonOptions.variable("STATE", daemon: "webcredentiald") == "WEBCREDENTIALD_STATE")

        let parsed = try DaemonOptions.parse(["--port", "0", "--advertise", "associationd", "--state", "/tmp/a", "--world", "/tmp/w"])
        #expect(parsed.listen.listenPort(default: 7702) == 0 && parsed.listen.advertisedHost == "associationd")
        #expect(parsed.listen.stateFolder.path == "/tmp/a" && parsed.listen.listenHost == "127.0.0.1")
        #expect(parsed.configuration(defaultPort: 7702).world.path == "/tmp/w")
        #expect(try DaemonOptions.parse([]).listen.listenPort(default: 7702) == 7702)
        #expect(throws: (any Error).self) { try DaemonOptions.parse(["--port", "70000"]) }
        #expect(throws: (any Error).self) { try ListenOptions.parse(["--port", "-1"]) }
        #expect(throws: (any Error).self, "the website's options take no built world") { try ListenOptions.parse(["--world", "/tmp/w"]) }
    }
}
