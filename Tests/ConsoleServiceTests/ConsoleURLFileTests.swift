import ConsoleService
import Foundation
import Testing

/// The URL file holds the token: it is its owner's alone, and replaced whole.
@Suite struct ConsoleURLFileTests {
    @Test func theFileIsTheOwnersAloneAndReplacedWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "console-url-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "console.url")
        try ConsoleURLFile.write("http://127.0.0.1:1/?token=first", to: file)
        try ConsoleURLFile.write("http://127.0.0.1:2/?token=second", to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "http://127.0.0.1:2/?token=second\n")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["console.url"], "no temporary file left")
    }
}
