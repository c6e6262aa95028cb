import FieldGuide
import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// The aircraft artifact as an SQLite database for analysts (`aircraft.sqlite`): models,
/// engines and registrations with the FAA's codes, one lookup table per code table
/// (code → name), and an FTS5 index over owner names; ready for Datasette or sqlite-utils.
///
/// Each table is one `SQLiteTable` definition (`tables`): its name, its columns and how a
/// bundle gives its rows. The registry history (`history.fgb`, its own artifact) adds the
/// `history` and `history_kind` tables (`AircraftSQLiteExport+History`).
///
/// Byte-stable: rows go in key order through one transaction with fixed pragmas and no
/// clock, so identical artifacts give identical files (with the same SQLite library). The file
/// is written beside its destination and renamed over it.
///
/// ```swift
/// try AircraftSQLiteExport.write(bundle: try AircraftBundle(path: "output/aircraft.fgb"), to: "output/aircraft.sqlite")
/// // sqlite3 output/aircraft.sqlite "SELECT n_number FROM registrations JOIN owners_fts ON owners_fts.rowid = registrations.rowid WHERE owners_fts MATCH 'northwind'"
/// ```
public enum AircraftSQLiteExport {
    public static let fileName = "aircraft.sqlite"

    /// Every table the export writes from the aircraft artifact, in order (the history's
    /// follow). Extension point: a new section of the artifact adds its `SQLiteTable` here.
    static let tables: [SQLiteTable] = [models, engines, registrations, deregistered, reserved] + AircraftSchema.CodeTable.allCases.map(codeTable)

    /// How many code lookup tables the export writes (`aircraft_type`, `status`, …).
    public static var codeTableCount: Int { AircraftSchema.CodeTable.allCases.count }

    /// Writes the database for `bundle` (and the registry history `history`, when given) to
    /// `path`, atomically. Returns the rows per table.
    @discardableResult
    public static func write(bundle: AircraftBundle, history events: RegistrationHistory? = nil, to path: String) throws(LocatedError) -> [String: Int] {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        var counts: [String: Int] = [:]
        do throws(LocatedError) {
            let db = try SQLiteDatabase(path: temporary)
            // Fixed page size and encoding, no journal, no clock: the same rows give the same bytes.
            try db.execute("PRAGMA page_size = 4096; PRAGMA encoding = 'UTF-8'; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN")
            for table in tables {
                try db.execute(table.createStatement)
                let count = table.count(bundle)
                try db.insert(into: table.name, columns: table.columns.count, rows: (0..<count).lazy.map { table.row(bundle, $0) })
                counts[table.name] = count
            }
            counts[history.name] = try writeHistory(events, bundle: bundle, into: db)
            try db.execute(ownerSearch)
            try db.execute("COMMIT")
            try db.close()
            try Self.sync(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw LocatedError(.unwritable, file: path, message: "cannot move the database into place: \(reason)")
        }
        return counts
    }

    /// FTS5 over the owner names (and co-owners) of `registrations`, an external-content index:
    /// `SELECT * FROM registrations WHERE rowid IN (SELECT rowid FROM owners_fts WHERE owners_fts MATCH 'delta')`.
    static let ownerSearch = """
        CREATE VIRTUAL TABLE owners_fts USING fts5(name, other_names, content='registrations', content_rowid='rowid');
        INSERT INTO owners_fts(owners_fts) VALUES ('rebuild');
        """

    // MARK: Tables

    static let models = SQLiteTable(
        name: "models", primaryKey: "code",
        columns: ["code", "manufacturer", "model", "aircraft_type", "engine_type", "category", "builder_certification",
                  "engine_count:INTEGER", "seat_count:INTEGER", "weight_class", "cruise_speed_mph:INTEGER",
                  "type_certificate_data_sheet", "type_certificate_holder"],
        foreignKeys: ["aircraft_type": "aircraft_type", "engine_type": "engine_type", "category": "aircraft_category",
                      "builder_certification": "builder_certification", "weight_class": "weight_class"]
    ) { $0.modelCount } row: { bundle, row in
            let m = ModelRecord(bundle: bundle, row: row)
            return [.text(m.code), .text(m.manufacturer), .text(m.model), code(m.aircraftType), code(m.engineType), code(m.category),
                    code(m.builderCertification), number(m.engineCount), number(m.seatCount), code(m.weightClass),
                    number(m.cruiseSpeedMPH), text(m.typeCertificateDataSheet), text(m.typeCertificateHolder)]
    }

    static let engines = SQLiteTable(
        name: "engines", primaryKey: "code",
        columns: ["code", "manufacturer", "model", "engine_type", "horsepower:INTEGER", "thrust_pounds:INTEGER"],
        foreignKeys: ["engine_type": "engine_type"]
    ) { $0.engineCount } row: { bundle, row in
            let e = EngineRecord(bundle: bundle, row: row)
            return [.text(e.code), .text(e.manufacturer), .text(e.model), code(e.engineType), number(e.horsepower), number(e.thrustPounds)]
    }

    static let registrations = SQLiteTable(
        name: "registrations", primaryKey: "n_number",
        columns: ["n_number", "serial_number", "model_code", "engine_code", "year_manufactured:INTEGER", "registrant_type", "name",
                  "other_names", "street", "street2", "city", "state", "zip", "region", "county", "country", "last_action_date",
                  "certificate_issue_date", "certification", "airworthiness_class", "approved_operations", "aircraft_type",
                  "engine_type", "status", "mode_s_hex", "fractional_owner:INTEGER", "airworthiness_date", "expiration_date",
                  "unique_id", "kit_manufacturer", "kit_model"],
        foreignKeys: ["model_code": "models", "engine_code": "engines", "registrant_type": "registrant_type", "region": "region",
                      "airworthiness_class": "airworthiness_class", "aircraft_type": "aircraft_type", "engine_type": "engine_type",
                      "status": "status"]
    ) { $0.registrationCount } row: { bundle, row in
            let r = RegistrationRecord(bundle: bundle, row: row)
            return [.text(r.nNumber), text(r.serialNumber), text(r.modelCode), text(r.engineCode), number(r.yearManufactured),
                    code(r.registrantType), text(r.name), text(r.otherNames.joined(separator: "; ")), text(r.street), text(r.street2),
                    text(r.city), text(r.state), text(r.zip), code(r.region), text(r.county), text(r.country), date(r.lastActionDate),
                    date(r.certificateIssueDate), text(r.certification), code(r.airworthinessClass),
                    text(r.approvedOperations.joined(separator: "; ")), code(r.aircraftType), code(r.engineType), code(r.status),
                    r.modeSHex.map { .text($0) } ?? .null, .integer(r.fractionalOwner ? 1 : 0), date(r.airworthinessDate),
                    date(r.expirationDate), text(r.uniqueID), text(r.kitManufacturer), text(r.kitModel)]
    }

    /// A code table's lookup: `aircraft_type(code, name)`.
    /// DEREG: several records an N-number (no primary key), in the artifact's order (N-number,
    /// then cancel date, newest first). Empty when the build had no DEREG.txt.
    static let deregistered = SQLiteTable(
        name: "deregistered", primaryKey: "",
        columns: ["n_number", "serial_number", "model_code", "status", "reason", "registrant_type", "name", "city", "state", "country",
                  "export_country", "cancel_date", "airworthiness_date", "last_action_date", "certificate_issue_date",
                  "year_manufactured:INTEGER", "mode_s_hex"],
        foreignKeys: ["registrant_type": "registrant_type", "status": "status"]
    ) { $0.deregisteredCount } row: { bundle, row in
            let d = bundle.deregisteredRecords[row].decoded(withModel: false)
            return [.text(d.nNumber), text(d.serialNumber), text(d.modelCode), code(d.status), text(d.reason), code(d.registrantType),
                    text(d.name), text(d.city), text(d.state), text(d.country), text(d.exportCountry), date(d.cancelDate),
                    date(d.airworthinessDate), date(d.lastActionDate), date(d.certificateIssueDate), number(d.yearManufactured),
                    text(d.modeSHex ?? "")]
    }

    /// RESERVED: one record an N-number. Empty when the build had no RESERVED.txt.
    static let reserved = SQLiteTable(
        name: "reserved", primaryKey: "n_number",
        columns: ["n_number", "registrant", "street", "street2", "city", "state", "zip", "reservation_type", "change_n_number",
                  "reserve_date", "expiration_date", "purge_date"],
        foreignKeys: ["reservation_type": "reservation_type"]
    ) { $0.reservedCount } row: { bundle, row in
            let r = bundle.reservedRecords[row].info
            return [.text(r.nNumber), text(r.registrant), text(r.street), text(r.street2), text(r.city), text(r.state), text(r.zip),
                    code(r.reservationType), text(r.changeNNumber ?? ""), date(r.reserveDate), date(r.expirationDate), date(r.purgeDate)]
    }

    static func codeTable(_ table: AircraftSchema.CodeTable) -> SQLiteTable {
        SQLiteTable(name: table.rawValue.replacingOccurrences(of: "-", with: "_"), primaryKey: "code", columns: ["code", "name"],
                    foreignKeys: [:]) { $0.codeTable(table).count } row: { bundle, row in
            let value = bundle.codeTable(table)[row]
            return [.text(value.code), value.name.map { .text($0) } ?? .null]
        }
    }

    /// Flushes the finished file to disk before it is renamed into place.
    static func sync(_ path: String) throws(LocatedError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw LocatedError(.unwritable, file: path, message: "cannot flush the database to disk: \(reason)")
        }
        close(fd)
    }

    private static func text(_ value: String) -> SQLiteDatabase.Value { value.isEmpty ? .null : .text(value) }
    private static func code(_ value: CodeValue?) -> SQLiteDatabase.Value { value.map { .text($0.code) } ?? .null }
    private static func number(_ value: Int?) -> SQLiteDatabase.Value { value.map { .integer($0) } ?? .null }
    private static func date(_ value: FieldDate?) -> SQLiteDatabase.Value { value.map { .text($0.description) } ?? .null }
}

/// One table of the export: its name, columns (`name` is TEXT, `name:INTEGER` an integer),
/// primary key, the lookup tables its code columns point at, and its rows from a bundle.
struct SQLiteTable: Sendable {
    let name: String
    let primaryKey: String
    let columns: [String]
    /// Column → the table its values are keys of (a lookup table, `models`, `engines`).
    let foreignKeys: [String: String]
    /// How many rows a bundle gives, and each one by number (streamed into the database).
    let count: @Sendable (AircraftBundle) -> Int
    let row: @Sendable (AircraftBundle, Int) -> [SQLiteDatabase.Value]

    /// `CREATE TABLE …` with types, the primary key and the references Datasette follows.
    var createStatement: String {
        let definitions = columns.map { column -> String in
            let parts = column.split(separator: ":")
            let columnName = String(parts[0]), type = parts.count > 1 ? String(parts[1]) : "TEXT"
            var text = "\(columnName) \(type)"
            if columnName == primaryKey { text += " PRIMARY KEY" }
            if let target = foreignKeys[columnName] {
                text += " REFERENCES \(target)(code)"
            }
            return text
        }
        return "CREATE TABLE \(name) (\n  " + definitions.joined(separator: ",\n  ") + "\n)"
    }
}
