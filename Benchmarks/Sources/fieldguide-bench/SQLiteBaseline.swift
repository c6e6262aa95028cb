import BenchSupport
import CSQLiteBench
import Foundation
import FieldGuide
import FieldGuideArtifact

/// The six fields the lookup comparison reads: serial number, model code, owner name, city,
/// state and Mode S hex, as SQLite columns and through the query library.
enum SixFields {
    static let columns = ["serial_number", "model_code", "owner_name", "city", "state", "mode_s_hex"]

    /// The six fields of `record`, each decoded into a `String` (what an app shows).
    @inline(__always)
    static func read(_ record: RegistrationRecord) -> Int {
        // The summed lengths keep the optimizer from dropping any of the strings.
        record.serialNumber.utf8.count &+ record.modelCode.utf8.count &+ record.name.utf8.count
            &+ record.city.utf8.count &+ record.state.utf8.count &+ (record.modeSHex?.utf8.count ?? 0)
    }
}

/// The registrations' six fields in SQLite (the system libsqlite3 through its C API): one
/// `WITHOUT ROWID` table keyed by N-number, in memory, looked up with one prepared statement
/// reused for every key. The rows come from the artifact itself, so both sides answer the
/// same question from the same data.
final class SQLiteRegistrations {
    private var database: OpaquePointer?
    private var lookup: OpaquePointer?

    /// Loads the six fields of every registration in `keys` (found through `bundle`).
    init(bundle: AircraftBundle, keys: [String]) throws {
        try check(sqlite3_open(":memory:", &database), "open")
        let columns = SixFields.columns.map { "\($0) TEXT NOT NULL" }.joined(separator: ", ")
        try execute("CREATE TABLE registrations (n_number TEXT PRIMARY KEY NOT NULL, \(columns)) WITHOUT ROWID")
        try execute("BEGIN")
        let insert = try prepare("INSERT OR IGNORE INTO registrations VALUES (?, ?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(insert) }
        for key in keys {
            guard let r = bundle.aircraft(registration: key) else { continue }
            for (index, value) in [r.nNumber, r.serialNumber, r.modelCode, r.name, r.city, r.state, r.modeSHex ?? ""].enumerated() {
                var value = value
                try value.withUTF8 { text in
                    try text.withMemoryRebound(to: CChar.self) { text in
                        try check(fieldguide_bench_bind_transient(insert, Int32(index + 1), text.baseAddress, Int32(text.count)), "bind")
                    }
                }
            }
            guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchError("sqlite: insert: \(message)") }
            sqlite3_reset(insert)
        }
        try execute("COMMIT")
        lookup = try prepare("SELECT \(SixFields.columns.joined(separator: ", ")) FROM registrations WHERE n_number = ?")
    }

    deinit {
        sqlite3_finalize(lookup)
        sqlite3_close(database)
    }

    /// Looks `key` up and decodes the six columns into `String`s, as `SixFields.read` does;
    /// 0 when not found, else the summed lengths.
    func sixFields(_ key: String) -> Int {
        var key = key
        return key.withUTF8 { text in
            text.withMemoryRebound(to: CChar.self) { text in
                _ = fieldguide_bench_bind_static(lookup, 1, text.baseAddress, Int32(text.count))
                defer { sqlite3_reset(lookup) }
                guard sqlite3_step(lookup) == SQLITE_ROW else { return 0 }
                var total = 0
                for column in Int32(0)..<6 {
                    let bytes = UnsafeRawBufferPointer(start: sqlite3_column_text(lookup, column), count: Int(sqlite3_column_bytes(lookup, column)))
                    total &+= String(decoding: bytes, as: UTF8.self).utf8.count
                }
                return total
            }
        }
    }

    private var message: String { String(cString: sqlite3_errmsg(database)) }

    private func check(_ status: Int32, _ what: String) throws {
        guard status == SQLITE_OK else { throw BenchError("sqlite: \(what): \(message)") }
    }

    private func execute(_ sql: String) throws {
        try check(sqlite3_exec(database, sql, nil, nil, nil), sql)
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(database, sql, -1, &statement, nil), "prepare \(sql)")
        return statement
    }
}

extension SixFields {
    static let ours = "aircraft(registration:) + 6 fields"
    static let theirs = "  SQLite: SELECT 6 fields WHERE n_number = ?"
    static let floor = "  floor: one load from a random RSMB line"

    /// Rounds the comparison alternates: enough that each side meets the machine in every state
    /// the run passes through, few enough that each round's median stands on 10,000 calls.
    static let rounds = 10

    /// One side of the comparison: its operation on call `i` (the side keeps its own inputs,
    /// indexed alike), and after the rounds its pooled samples' summary and the calls that found
    /// something.
    struct Side {
        let operation: (Int) -> Int
        var samples: [Double] = []
        var found = 0
        init(_ operation: @escaping (Int) -> Int) { self.operation = operation }
    }

    /// Every side timed on calls `0..<count` in `rounds` alternating rounds, each over its own
    /// slice of the calls (the side that goes first turns with each round), the samples pooled
    /// per side. Every round is warmed up again, the other sides' rounds having evicted the
    /// caches, with `probe.warmUp` calls of the next slice: warm structures, not the timed
    /// calls' own lines. Returns the sides and each round's ratio of the first side's median to
    /// the second's.
    ///
    /// Why alternate: this machine's speed drifts from second to second. Timed one after the
    /// other (100,000 calls of ours, then SQLite's), the ratio moved between 0.07× and 0.11×
    /// from run to run on the same artifact; alternating, every side meets the same drift, as
    /// in `Benchmarks/faa-build`.
    static func alternating(_ count: Int, probe: LatencyProbe, _ sides: [Side]) -> (sides: [Side], ratios: [Double]) {
        let timing = LatencyProbe(batch: probe.batch, timerOverhead: probe.timerOverhead, warmUp: 0)
        var sides = sides, ratios: [Double] = []
        let size = max(1, (count + rounds - 1) / rounds)
        let starts = Array(stride(from: 0, to: count, by: size))
        for (index, start) in starts.enumerated() {
            let slice = Array(start..<min(start + size, count))
            let next = starts[(index + 1) % starts.count]
            let warmUp = next..<min(next + min(size, probe.warmUp), count)
            var medians = [Double](repeating: 0, count: sides.count)
            for turn in 0..<sides.count {
                let s = (index + turn) % sides.count
                for i in warmUp { _ = sides[s].operation(i) }
                let (samples, total) = timing.samples(slice[...], sides[s].operation)
                sides[s].samples += samples
                sides[s].found += total
                medians[s] = Summary(samples).median
            }
            if sides.count > 1 { ratios.append(medians[0] / medians[1]) }
        }
        return (sides, ratios)
    }

    /// Our lookup, SQLite's and the floor under both, timed on `keys` (SQLite loaded with the
    /// registrations of `loading`) in alternating rounds: their rows and the rounds' ratios.
    static func compare(_ bundle: AircraftBundle, loading: [String], timing keys: [String], probe: LatencyProbe,
                        seed: UInt64) throws -> (rows: [Row], ratios: [Double]) {
        guard !keys.isEmpty else {
            print("skipped \(ours): no keys")
            return ([], [])
        }
        let sqlite = try SQLiteRegistrations(bundle: bundle, keys: loading)
        var sides: [Side] = [
            .init { i in bundle.aircraft(registration: keys[i]).map { min(1, 1 &+ read($0)) } ?? 0 },
            .init { i in min(1, sqlite.sixFields(keys[i])) },
        ]
        // No floor for an artifact without summaries (format 1.0 and 1.1).
        if let summaries = try? bundle.artifact.section(AircraftSchema.Section.bucketedSummaries), !summaries.isEmpty {
            var rng = SplitMix64(seed: seed ^ 0xF100_F100_F100_F100)
            let offsets = keys.indices.map { _ in rng.below(summaries.count) }
            // The byte is returned (and summed) so that the load is not optimized away.
            sides.append(.init { i in Int(summaries[offsets[i]]) })
        }
        let measured = alternating(keys.count, probe: probe, sides)
        let rows = zip([ours, theirs, floor], measured.sides).map { name, side in
            let found = name == floor ? "-" : String(format: "%.1f%%", 100 * Double(side.found) / Double(keys.count))
            return Row(name: name, calls: keys.count, summary: Summary(side.samples), found: found, target: nil)
        }
        return (rows, measured.ratios)
    }

    /// Prints our median against SQLite's, with the verdict against `target` (a ratio), the
    /// spread of the rounds' ratios, and the floor's median when it was measured.
    static func printRatio(_ rows: [Row], ratios: [Double], target: Double) {
        guard let a = rows.first(where: { $0.name == ours }), let b = rows.first(where: { $0.name == theirs }) else { return }
        let ratio = a.summary.median / b.summary.median
        let spread = ratios.isEmpty ? "" : "; rounds \(String(format: "%.3f", ratios.min()!))-\(String(format: "%.3f", ratios.max()!))×"
        print("\nlookup + 6 fields: \(duration(nanoseconds: a.summary.median)) here, \(duration(nanoseconds: b.summary.median)) in SQLite "
            + "(medians, same keys, same run, \(ratios.count) alternating rounds\(spread)): \(String(format: "%.3f", ratio))× "
            + "(target ≤ \(String(format: "%.2f", target))×: " + (ratio <= target ? "met" : "MISSED") + ")")
        if let f = rows.first(where: { $0.name == floor }) {
            print("floor: one load from a random line of the summaries (RSMB) takes \(duration(nanoseconds: f.summary.median)) "
                + "in the same rounds, the wait for memory a lookup cannot avoid; SQLite's median at a tenth is "
                + "\(duration(nanoseconds: b.summary.median / 10))")
        }
    }
}
