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

        let parsed = try DaemonOptions.parse(["--port", "0", "--advertise", "associationd", "--state", "/tmp/a"])
        #expect(parsed.listenPort(default: 7702) == 0 && parsed.advertisedHost == "associationd")
        #expect(parsed.stateFolder.path == "/tmp/a" && parsed.listenHost == "127.0.0.1")
        #expect(try DaemonOptions.parse([]).listenPort(default: 7702) == 7702)
        #expect(throws: (any Error).self) { try DaemonOptions.parse(["--port", "70000"]) }
    }
}
