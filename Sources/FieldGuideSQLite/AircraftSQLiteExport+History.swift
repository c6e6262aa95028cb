import FieldGuide
import FieldGuideArtifact
import FieldGuideDiagnostics

/// The registry history as a table of `aircraft.sqlite`: one row per event of `history.fgb`
/// (the `record-history` stage's, written before `export-sqlite` runs), in its order (N-number,
/// then build, oldest first), with the FAA's codes and their names.
///
/// ```sql
/// SELECT date, kind, before, before_name, after, after_name FROM history WHERE n_number = 'N250JT'
/// -- 2026-11-23|status|V|Valid Registration|7|Sale Reported
/// ```
extension AircraftSQLiteExport {
    /// `history(n_number, build, date, kind, before, after, before_name, after_name)`: `kind`
    /// through `history_kind(code, name)`; for a `status` event the names are the status codes'
    /// (the `status` table's), for a `model` event the ACFTREF model's (`CESSNA 172S`), else NULL.
    /// Empty when the export has no history (`export-sqlite` without `--history`).
    static let history = SQLiteTable(
        name: "history", primaryKey: "",
        columns: ["n_number", "build", "date", "kind", "before", "after", "before_name", "after_name"],
        foreignKeys: ["kind": "history_kind"]
    ) { _ in 0 } row: { _, _ in [] }

    /// What each event kind means: `history_kind(code, name)`.
    static let historyKinds = SQLiteTable(name: "history_kind", primaryKey: "code", columns: ["code", "name"], foreignKeys: [:]) {
        _ in HistorySchema.EventKind.allCases.count
    } row: { _, row in
        let kind = HistorySchema.EventKind.allCases[row]
        return [.text(kind.name), .text(describe(kind))]
    }

    /// Writes the `history_kind` and `history` tables (and an index by N-number) into `db`;
    /// returns the history's row count.
    static func writeHistory(_ events: RegistrationHistory?, bundle: AircraftBundle, into db: SQLiteDatabase) throws(LocatedError) -> Int {
        try db.execute(historyKinds.createStatement)
        try db.insert(into: historyKinds.name, columns: 2, rows: (0..<historyKinds.count(bundle)).lazy.map { historyKinds.row(bundle, $0) })
        try db.execute(history.createStatement)
        let count = events?.eventCount ?? 0
        if let events {
            try db.insert(into: history.name, columns: history.columns.count, rows: events.allEvents.lazy.map { historyRow($0, bundle) })
        }
        try db.execute("CREATE INDEX history_n_number ON history(n_number)")
        return count
    }

    /// One event as a row; a code's name from `bundle` (the build's own tables).
    static func historyRow(_ event: HistoryEvent, _ bundle: AircraftBundle) -> [SQLiteDatabase.Value] {
        func name(_ value: String) -> SQLiteDatabase.Value {
            guard !value.isEmpty else { return .null }
            switch event.kind {
            case .status: return bundle.displayName(.status, value).map { .text($0) } ?? .null
            case .model:
                guard let model = bundle.model(code: value) else { return .null }
                return .text([model.manufacturer, model.model].filter { !$0.isEmpty }.joined(separator: " "))
            default: return .null
            }
        }
        func text(_ value: String) -> SQLiteDatabase.Value { value.isEmpty ? .null : .text(value) }
        return [.text(event.nNumber), .text(event.build), .text(event.date), .text(event.kind.name), text(event.before), text(event.after),
                name(event.before), name(event.after)]
    }

    /// The meaning of an event kind, as the lookup table shows it.
    static func describe(_ kind: HistorySchema.EventKind) -> String {
        switch kind {
        case .registered: return "The N-number appeared in MASTER (after: the owner)"
        case .deregistered: return "The N-number left MASTER (before: the last owner)"
        case .owner: return "MASTER's owner name changed"
        case .status: return "MASTER's status code changed"
        case .address: return "The owner's street, city, state or ZIP changed"
        case .model: return "The ACFTREF model code changed"
        }
    }
}
