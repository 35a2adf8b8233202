public import Foundation
public import GRDB

extension DatabaseQueue {
    /// Opens (or creates) `file` in `directory` in WAL mode: how the lab's daemons open their
    /// SQLite databases (associationd, webcredentiald, cloudd, the login website).
    public static func wal(_ file: String, in directory: URL) throws -> DatabaseQueue {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        return try DatabaseQueue(path: directory.appending(path: file).path, configuration: configuration)
    }
}
