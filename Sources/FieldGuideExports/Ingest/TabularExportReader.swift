import FieldGuideBirds
import FieldGuideCSV
import FieldGuideDiagnostics

/// Reads a CSV export through the project's libcsv layer, choosing the format by its header:
/// eBird "My eBird Data" (`Submission ID`, `Common Name`, …) or the aircraft app's capture
/// export (`icao`, `registration`, …, `capture_date`, `capture_time`).
///
/// Every field must be UTF-8: the first that is not refuses the file at its line and column.
///
/// ```swift
/// let summary = try TabularExportReader.read(path: "MyEBirdData.csv", file: "MyEBirdData.csv", sink: sink)
/// ```
public enum TabularExportReader {
    public static func read(path: String, file: String, sink: RecordSink) throws(LocatedError) -> ExportFileSummary {
        var handler: TabularHandler?
        var summary: ExportFileSummary?
        var failure: LocatedError?
        do {
            try CSVReader.read(fileAt: path, dialect: .rfc4180, displayName: file) { record in
                try HeaderMap.checkUTF8(record, file: file, names: handler?.columns.names)
                guard let current = handler else {
                    handler = try chooseHandler(header: record, file: file)
                    summary = ExportFileSummary(format: handler!.format)
                    return
                }
                if record.count == 1, record[0].isEmpty { return }   // a blank line
                summary!.records += 1
                current.row(record, file, sink)
            }
        } catch let error as LocatedError {
            failure = error
        } catch {
            failure = LocatedError(file, failed: error)
        }
        if let failure { throw failure }
        guard let summary else { throw LocatedError(.empty, file: file, line: 1, column: 1, message: "empty file: expected a CSV header") }
        return summary
    }

    static func chooseHandler(header: CSVRecord, file: String) throws(LocatedError) -> TabularHandler {
        let columns = HeaderMap(header)
        if columns.has(EBirdExport.required) {
            try columns.refuseRepeated(EBirdExport.columns, file: file, line: header.line)
            return TabularHandler(format: .ebird, columns: columns, row: EBirdExport.reader(columns))
        }
        if columns.has(CaptureExport.required) {
            try columns.refuseRepeated(CaptureExport.columns, file: file, line: header.line)
            return TabularHandler(format: .capture, columns: columns, row: CaptureExport.reader(columns))
        }
        throw LocatedError(.unrecognized, file: file, line: header.line, column: 1,
                               message: "expected an eBird \"My eBird Data\" header (\(EBirdExport.required.joined(separator: ", "))) or an aircraft capture header (\(CaptureExport.required.joined(separator: ", "))), found \(header.fields.prefix(6).joined(separator: ","))")
    }
}

struct TabularHandler {
    var format: ExportFormat
    var columns: HeaderMap
    var row: (CSVRecord, String, RecordSink) -> Void
}

/// Column positions by header name; rows may be shorter than the header (trailing empty
/// columns dropped, as eBird does) and read as empty.
struct HeaderMap {
    let names: [String]
    private let index: [String: Int]

    init(_ header: CSVRecord) {
        names = header.fields.map { $0.trimmedASCII }
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() where index[name.lowercased()] == nil { index[name.lowercased()] = i }
        self.index = index
    }

    /// Refuses the header when a column in `reading` (the reader's) is named twice, in any
    /// case: the first was read, without a word, before.
    func refuseRepeated(_ reading: [String], file: String, line: Int) throws(LocatedError) {
        _ = try CSVTable.columns(of: names, reading: reading, file: file, line: line) { $0.lowercased() }
    }

    func has(_ required: [String]) -> Bool { required.allSatisfy { index[$0.lowercased()] != nil } }
    func has(_ name: String) -> Bool { index[name.lowercased()] != nil }

    /// The field under `name`, trimmed; empty when the column is absent or the row is short.
    func value(_ record: CSVRecord, _ name: String) -> String {
        guard let i = index[name.lowercased()], i < record.count else { return "" }
        return record[i].trimmedASCII
    }

    /// Sets the observation's local date/time and position from the named columns (a record
    /// without a date keeps none); a bad value throws naming its column.
    func place(_ observation: inout Observation, _ record: CSVRecord, date: String, time: String,
               latitude: String, longitude: String) throws(LocatedError) {
        let dateText = value(record, date), timeText = value(record, time)
        if !dateText.isEmpty {
            do throws(LocatedError) { observation.time = try ObservationTime.localDate(dateText, time: timeText) } catch {
                throw LocatedError.badValue(field: timeText.isEmpty ? date : "\(date)/\(time)", value: error.found ?? "", reason: error.message)
            }
        }
        observation.position = try Coordinate.parse(latitude: value(record, latitude), longitude: value(record, longitude),
                                                    latitudeField: latitude, longitudeField: longitude)
    }

    /// Refuses a field that is not UTF-8, at its line and 1-based column (byte position, exact
    /// when the fields before it are not quoted).
    static func checkUTF8(_ record: CSVRecord, file: String, names: [String]?) throws(LocatedError) {
        var column = 1
        for i in 0..<record.count {
            if !record.isValidUTF8(i) {
                let name = names.flatMap { i < $0.count ? " (\($0[i]))" : nil } ?? ""
                throw LocatedError(.encoding, file: file, line: record.line, column: column,
                                       message: "field \(i + 1)\(name) is not valid UTF-8 (a Latin-1 or other legacy encoding?); re-export as UTF-8")
            }
            column += record.withField(i) { $0.count } + 1
        }
    }
}
