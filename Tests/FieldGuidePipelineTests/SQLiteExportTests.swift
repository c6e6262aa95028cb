import CSQLite
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// Rows of one query against an SQLite file, every value as text ("" for NULL).
func sqliteRows(_ path: String, _ sql: String) throws -> [[String]] {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw POSIXError(.EIO) }
    defer { sqlite3_close(db) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
        Issue.record("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        return []
    }
    defer { sqlite3_finalize(statement) }
    var rows: [[String]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        rows.append((0..<sqlite3_column_count(statement)).map { column in
            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
        })
    }
    return rows
}

@Suite("aircraft.sqlite for analysts")
struct SQLiteExportTests {
    @Test("make nightly SQLITE=1 publishes aircraft.sqlite: tables with code lookups, FTS5 over owners; without it the stage is dropped")
    func nightly() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let plain = try h.run()
        #expect(plain.status == 0)
        #expect(h.statuses(plain.summary)["export-sqlite"] == .dropped)
        #expect(!FileManager.default.fileExists(atPath: h.output + "/current/aircraft.sqlite"))

        let requested = try h.run(["--set", "SQLITE=1"])
        #expect(requested.status == 0, "\(requested.log)")
        #expect(requested.summary?.status == .published)
        let db = h.output + "/aircraft.sqlite"
        #expect(try sqliteRows(db, "SELECT count(*) FROM registrations") == [["20"]])
        #expect(try sqliteRows(db, "SELECT count(*) FROM models") == [["20"]])
        #expect(try sqliteRows(db, "SELECT count(*) FROM engines") == [["12"]])
        // DEREG and RESERVED of input/faa: 6 and 5 records, reservation types through their lookup table.
        #expect(try sqliteRows(db, "SELECT count(*) FROM deregistered") == [["6"]])
        #expect(try sqliteRows(db, "SELECT count(*) FROM reserved") == [["5"]])
        #expect(try sqliteRows(db, "SELECT count(*) FROM reserved r JOIN reservation_type t ON t.code = r.reservation_type") == [["5"]])
        // Codes with their names through the lookup tables.
        #expect(try sqliteRows(db, """
            SELECT r.n_number, m.manufacturer, t.name, s.name, e.model FROM registrations r
            JOIN models m ON m.code = r.model_code JOIN aircraft_type t ON t.code = r.aircraft_type
            JOIN status s ON s.code = r.status JOIN engines e ON e.code = r.engine_code WHERE r.n_number = 'N250JT'
            """) == [["N250JT", "BLUEHERON AIRCRAFT CO", "Fixed wing multi engine", "Valid Registration", "CJ-F7 FAN"]])
        // The owner search: FTS5, any word, prefix queries.
        #expect(try sqliteRows(db, "SELECT r.n_number FROM owners_fts f JOIN registrations r ON r.rowid = f.rowid WHERE owners_fts MATCH 'northw*'")
                == [["N250JT"]])
        // The manifest lists it with the aircraft artifact's sources and as-of date.
        let manifest = try Manifest.decode(from: Data(contentsOf: URL(fileURLWithPath: h.output + "/manifest.json")))
        let entry = try #require(manifest.artifact(named: "aircraft.sqlite"))
        #expect(entry.kind == "SQLT" && entry.asOf == "2026-02-09" && entry.counts["registrations"] == 20)
        #expect(entry.sha256 == (try FileDigest.sha256(ofFileAt: h.output + "/current/aircraft.sqlite").digest))

        // Not requested again: a build without it, and no name left pointing at nothing.
        let without = try h.run()
        #expect(without.summary?.status == .published)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: db)) == nil)
    }

    @Test("byte-stable: two exports of one artifact are identical; a damaged artifact is refused and the old file stays")
    func stable() throws {
        let h = try NightlyHarness.copyOfInput()
        defer { h.remove() }
        let artifacts = try h.emittedAircraft()
        let (a, b) = (h.root + "/a", h.root + "/b")
        for out in [a, b] {
            let result = try TestPaths.run("export-sqlite", [artifacts, "--output", out])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let first = try Data(contentsOf: URL(fileURLWithPath: a + "/aircraft.sqlite"))
        #expect(first == (try Data(contentsOf: URL(fileURLWithPath: b + "/aircraft.sqlite"))))
        #expect(first.count > 0)

        // A damaged artifact: exit 1 with the file named, the earlier database untouched, no temporary file left.
        let damaged = try h.damagedCopy(of: artifacts)
        let refused = try TestPaths.run("export-sqlite", [damaged, "--output", a])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("damaged/aircraft.fgb"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: a + "/aircraft.sqlite")) == first)
        #expect(try FileManager.default.contentsOfDirectory(atPath: a).sorted() == ["aircraft.sqlite", "manifest.json"])
    }
}
