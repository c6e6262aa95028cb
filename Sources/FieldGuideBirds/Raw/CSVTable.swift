import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics

/// A CSV file other software writes, read whole through FieldGuideCSV; fields looked up by
/// column name, since such files may add or move columns (Status & Trends runs, the
/// observations of `ingest-exports`). The hand-off's own files have fixed columns instead
/// (`NormalizedBirds`).
///
/// ```swift
/// let table = try CSVTable.read("ebirdst_runs_2023.csv", required: ["species_code", "is_resident"])
/// table.rows.map { table.field($0, "species_code") }
/// ```
package struct CSVTable: Sendable {
    package var file: String
    package var columns: [String: Int]
    package var rows: [(line: Int, fields: [String])]

    /// Reads `path`; a header without every `required` column is refused with its line.
    package static func read(_ path: String, required: [String]) throws(LocatedError) -> CSVTable {
        var table = CSVTable(file: path, columns: [:], rows: [])
        try records(at: path) { record throws(LocatedError) in
            if record.index == 0 {
                for (i, name) in record.fields.enumerated() where table.columns[name] == nil { table.columns[name] = i }
                let missing = required.filter { table.columns[$0] == nil }
                guard missing.isEmpty else {
                    throw LocatedError(.wrongHeader, file: path, line: record.line,
                                       message: "expected columns \(missing.joined(separator: ", ")), found \(record.fields.joined(separator: ","))")
                }
                return
            }
            if record.count == 1, record[0].isEmpty { return }
            table.rows.append((record.line, record.fields))
        }
        if table.columns.isEmpty { throw LocatedError(.empty, file: path, line: 1, message: "expected a header, found an empty file") }
        return table
    }

    /// Streams the RFC 4180 records of `path` (header included) to `body`; a file that cannot
    /// be read or parsed is a located error.
    package static func records(at path: String, _ body: (CSVRecord) throws(LocatedError) -> Void) throws(LocatedError) {
        do {
            try CSVReader.read(fileAt: path, dialect: .rfc4180) { record in try body(record) }
        } catch let error as LocatedError {
            throw error
        } catch {
            throw LocatedError(path, failed: error)
        }
    }

    /// Field `column` of `row`, empty when the row is short.
    package func field(_ row: (line: Int, fields: [String]), _ column: String) -> String {
        guard let index = columns[column], index < row.fields.count else { return "" }
        return row.fields[index]
    }
}
