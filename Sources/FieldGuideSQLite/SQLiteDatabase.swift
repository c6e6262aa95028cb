import CSQLite
import FieldGuideDiagnostics
import Foundation

/// A thin handle on the system SQLite (libsqlite3) for writing one database file: statements
/// run in order, values bound by position. Every failure is a `LocatedError` naming the file.
///
/// ```swift
/// let db = try SQLiteDatabase(path: "out/aircraft.sqlite.tmp")
/// try db.execute("CREATE TABLE t (code TEXT PRIMARY KEY, name TEXT)")
/// try db.insert(into: "t", columns: 2, rows: [[.text("1"), .text("Glider")]])
/// try db.close()
/// ```
final class SQLiteDatabase {
    /// One column value.
    enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int)
        case null
    }

    let path: String
    private var handle: OpaquePointer?

    /// Opens (creating) the database at `path`.
    init(path: String) throws(LocatedError) {
        self.path = path
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            handle = nil
            throw LocatedError(.unwritable, file: path, message: "cannot create the SQLite database: \(reason)")
        }
    }

    deinit { if handle != nil { sqlite3_close(handle) } }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(LocatedError) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error("executing \(sql.prefix(60))") }
    }

    /// Inserts `rows` (each `columns` values) into `table` through one prepared statement.
    func insert<S: Sequence>(into table: String, columns: Int, rows: S) throws(LocatedError) where S.Element == [Value] {
        let sql = "INSERT INTO \(table) VALUES (" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw error("preparing \(sql)") }
        defer { sqlite3_finalize(statement) }
        for row in rows {
            for (index, value) in row.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case .text(let text): sqlite3_bind_text(statement, position, text, -1, Self.transient)
                case .integer(let number): sqlite3_bind_int64(statement, position, Int64(number))
                case .null: sqlite3_bind_null(statement, position)
                }
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw error("inserting into \(table)") }
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
    }

    /// Closes the database; its file is complete after this.
    func close() throws(LocatedError) {
        guard sqlite3_close(handle) == SQLITE_OK else { throw error("closing") }
        handle = nil
    }

    private func error(_ doing: String) -> LocatedError {
        let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
        return LocatedError(.unwritable, file: path, message: "SQLite failed \(doing): \(reason)")
    }

    /// SQLite copies bound text (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
