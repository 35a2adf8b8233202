import Foundation

/// A failed `kclab test` run's logs, kept where CI can upload them: every log file of the lab,
/// copied into a folder (made if missing; a file of the same name is replaced).
enum TestLogs {
    static func keep(_ logs: URL, in folder: URL) throws {
        let files = FileManager.default
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: logs.path) {
            let target = folder.appending(path: name)
            try? files.removeItem(at: target)
            try files.copyItem(at: logs.appending(path: name), to: target)
        }
    }
}
