import Foundation
import Testing
import WorldTestSupport

/// The Python packages the interop tests use, from PyPI, pinned, in a virtual environment of
/// their own under `.build/` (made once; `make test` reuses it).
enum PythonEnvironment {
    static let packages = ["soft-webauthn==0.1.4", "fido2==1.2.0", "webauthn==2.7.1"]

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: ".build/python-webauthn")

    /// The environment's `python`, made (and its packages installed) when missing.
    static func python() throws -> URL {
        let python = folder.appending(path: "bin/python")
        let marker = folder.appending(path: "installed.txt")
        let wanted = packages.joined(separator: "\n")
        if (try? String(contentsOf: marker, encoding: .utf8)) == wanted { return python }
        let made = try runTool("python3", ["-m", "venv", "--clear", folder.path])
        try #require(made.status == 0, "python3 -m venv: \(made.stderr)")
        let installed = try run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages)
        try #require(installed.status == 0, "pip install \(packages.joined(separator: " ")): \(installed.stderr)")
        try wanted.write(to: marker, atomically: true, encoding: .utf8)
        return python
    }

    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures/\(name)").path
    }
}
