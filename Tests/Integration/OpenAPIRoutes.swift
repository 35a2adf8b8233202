import Foundation
import LabControl
import Testing
import WorldTestSupport
import Yams

/// Checks a service's routes against its OpenAPI document: every documented path and method answers
/// (a bad body or query is a 4xx, never 404 or 405), and `undocumented` ones are 404 or 405.
enum OpenAPIRoutes {
    /// The documented operations; a path parameter with an enum is expanded to each value, any other
    /// to `x`.
    static func operations(in document: String) throws -> [(method: String, path: String)] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: document)
        let openAPI = try #require(try Yams.load(yaml: String(contentsOf: file, encoding: .utf8)) as? [String: Any])
        let paths = try #require(openAPI["paths"] as? [String: [String: Any]])
        var operations: [(method: String, path: String)] = []
        for (path, methods) in paths {
            for (method, operation) in methods where ["get", "put", "post", "delete", "patch"].contains(method) {
                let parameters = ((operation as? [String: Any])?["parameters"] as? [[String: Any]]) ?? []
                var expanded = [path]
                for parameter in parameters where parameter["in"] as? String == "path" {
                    guard let name = parameter["name"] as? String else { continue }
                    let values = (parameter["schema"] as? [String: Any])?["enum"] as? [String] ?? ["x"]
                    expanded = expanded.flatMap { template in values.map { template.replacingOccurrences(of: "{\(name)}", with: $0) } }
                }
                operations += expanded.map { (method.uppercased(), $0) }
            }
        }
        return operations
    }

    /// Calls each operation at `endpoint` as device `device` of the lab's world.
    static func check(
        _ operations: [(method: String, path: String)],
        undocumented: [(String, String)],
        endpoint: String,
        lab: RunningLab,
        device: String
    ) throws {
        let world = lab.state.builtWorld.path
        let curl = [
            "-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", "\(world)/trust/web-root-ca.pem",
            "--cert", "\(world)/devices/\(device)/device-chain.pem", "--key", "\(world)/devices/\(device)/device.key",
        ]
        for (method, path) in operations {
            let answer = try runTool("curl", curl + ["-X", method, "-d", "{}", "\(endpoint)\(path)"])
            let code = Int(answer.stdout) ?? 0
            #expect((200..<500).contains(code) && code != 404 && code != 405, "\(method) \(path) answered \(code)")
        }
        for (method, path) in undocumented {
            let answer = try runTool("curl", curl + ["-X", method, "\(endpoint)\(path)"])
            #expect(["404", "405"].contains(answer.stdout), "\(method) \(path) is not documented, yet answered \(answer.stdout)")
        }
    }
}
