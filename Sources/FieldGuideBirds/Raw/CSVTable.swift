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
    /// The values that were not UTF-8 and were read as Latin-1, or held a control character.
    package var readings: [TextReading] = []

    /// Reads `path`; a header without every `required` column, or with one of them named twice,
    /// is refused with its line. A value that is not UTF-8 is read as Latin-1, a control
    /// character becomes U+FFFD, and each is listed in `readings`.
    package static func read(_ path: String, required: [String]) throws(LocatedError) -> CSVTable {
        var table = CSVTable(file: path, columns: [:], rows: [])
        try records(at: path) { record throws(LocatedError) in
            if record.index == 0 {
                table.columns = try columns(of: record.fields, reading: required, file: path, line: record.line)
                let missing = required.filter { table.columns[$0] == nil }
                guard missing.isEmpty else {
                    throw LocatedError(.wrongHeader, file: path, line: record.line,
                                       message: "expected columns \(missing.joined(separator: ", ")), found \(record.fields.joined(separator: ","))")
                }
                return
            }
            if record.count == 1, record[0].isEmpty { return }
            var fields: [String] = []
            for i in 0..<record.count {
                fields.append(record.text(i, file: path, field: table.columns.first { $0.value == i }?.key ?? "field \(i + 1)",
                                          into: &table.readings))
            }
            table.rows.append((record.line, fields))
        }
        if table.columns.isEmpty { throw LocatedError(.empty, file: path, line: 1, message: "expected a header, found an empty file") }
        return table
    }

    /// Each header field's first index; a column the reader reads (`reading`) named twice is
    /// a malformed header (the right kind of file, written wrong), naming both fields: which
    /// one holds the values would be chance. Names are compared, and keyed, as `folding`
    /// gives them (`lowercased` for readers that ignore case).
    package static func columns(of header: [String], reading: [String], file: String, line: Int,
                                folding: (String) -> String = { $0 }) throws(LocatedError) -> [String: Int] {
        var columns: [String: Int] = [:]
        let reading = Set(reading.map(folding))
        for (i, name) in header.enumerated() {
            let key = folding(name)
            guard let first = columns[key] else { columns[key] = i; continue }
            guard reading.contains(key) else { continue }
            throw LocatedError(.malformed, file: file, line: line, expected: "each column once",
                               found: "\(name) as fields \(first + 1) and \(i + 1)", message: "a column named twice")
        }
        return columns
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
