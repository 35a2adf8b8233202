import Foundation
import GRDBSQLite
import KeychainItems
import LabErrors

/// A value bound to a statement's `?`.
enum SQLValue {
    case integer(Int64)
    case text(String)
    case blob(Data)
    case null
}

/// SQLite's C interface on one connection, with its prepared statements kept by SQL text.
///
/// The item store's statements run here rather than through GRDB's `Database`: a lookup is one
/// indexed SELECT, and GRDB's per-access bookkeeping (its reader pool, a dispatch queue, a schema
/// version check, type-erased arguments and row objects) cost more than the SELECT itself.
/// GRDB still owns the database's schema, migrations and the writer connection; a write session
/// runs these statements on that connection, inside GRDB's transaction.
///
/// Not thread-safe: one thread at a time (a connection from ``LookupConnections``, or GRDB's
/// writer inside its own queue).
final class SQLiteStatements {
    let connection: OpaquePointer
    private let ownsConnection: Bool
    private var prepared: [String: OpaquePointer] = [:]

    /// Statements on `connection`, which stays GRDB's: ``finalize()`` must run before GRDB's
    /// transaction ends.
    init(borrowing connection: OpaquePointer) {
        self.connection = connection
        ownsConnection = false
    }

    /// Opens the database at `path` read-only, for lookups.
    init(readOnlyPath path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(code)"
            sqlite3_close_v2(handle)
            throw StoreError(Self.code(for: code), "cannot open the keychain database to read: \(message)")
        }
        connection = handle
        ownsConnection = true
        // A reader waits briefly rather than fail while another connection recovers the WAL.
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit {
        finalize()
        if ownsConnection { sqlite3_close_v2(connection) }
    }

    /// Whether a transaction is still open (a connection left so would keep an old snapshot).
    var isInTransaction: Bool {
        sqlite3_get_autocommit(connection) == 0
    }

    /// Finalizes every kept statement.
    func finalize() {
        for statement in prepared.values { sqlite3_finalize(statement) }
        prepared.removeAll()
    }

    /// Runs `sql` with `arguments`, calling `row` for each result row until it returns false.
    func select(_ sql: String, _ arguments: [SQLValue], row: (StatementRow) throws -> Bool) throws {
        let statement = try prepare(sql)
        defer { sqlite3_reset(statement) }
        try bind(arguments, to: statement)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code, sql) }
            guard try row(StatementRow(statement: statement)) else { return }
        }
    }

    /// Runs a statement that returns no rows; how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int {
        let statement = try prepare(sql)
        defer { sqlite3_reset(statement) }
        try bind(arguments, to: statement)
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW { code = sqlite3_step(statement) }
        guard code == SQLITE_DONE else { throw failure(code, sql) }
        return Int(sqlite3_changes(connection))
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        if let statement = prepared[sql] { return statement }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        prepared[sql] = statement
        return statement
    }

    private func bind(_ arguments: [SQLValue], to statement: OpaquePointer) throws {
        sqlite3_clear_bindings(statement)
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument {
            case .integer(let value):
                code = sqlite3_bind_int64(statement, index, value)
            case .text(let value):
                code = sqlite3_bind_text(statement, index, value, -1, Self.transient)
            case .blob(let value):
                code = value.withUnsafeBytes { bytes in
                    // An empty blob is still a blob, not NULL: give SQLite a non-nil pointer.
                    sqlite3_bind_blob(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), Self.transient)
                }
            case .null:
                code = sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw failure(code, "binding argument \(index)") }
        }
    }

    /// SQLite copies bound text and blobs at once (SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// A failure as the store reports it: SQLite's message and the statement, never a bound value.
    private func failure(_ code: Int32, _ context: String) -> StoreError {
        StoreError(Self.code(for: code), "SQLite: \(String(cString: sqlite3_errmsg(connection))) (\(context))")
    }

    /// securityd's reading of SQLite's result codes (spec keychain.md §2.9).
    static func code(for result: Int32) -> StoreError.Code {
        switch result & 0xff {
        case SQLITE_IOERR: .io
        case SQLITE_READONLY: .readOnly
        case SQLITE_NOMEM: .outOfMemory
        case SQLITE_CONSTRAINT: .duplicate
        default: .unavailable
        }
    }
}

/// The current row of a statement; valid only inside the ``SQLiteStatements/select`` callback.
struct StatementRow {
    let statement: OpaquePointer

    func integer(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: bytes)
    }

    /// The column's bytes; nil for NULL.
    func blob(_ column: Int32) -> Data? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
        // The pointer first, then its length (SQLite's documented order).
        let bytes = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
