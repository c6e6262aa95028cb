import FieldGuideCSV
import FieldGuideCore

/// Reads the fields of one FAA record, collecting a `RowIssue` for everything it refuses.
///
/// Text is trimmed of its space padding; numbers must be digits; dates must be real
/// `YYYYMMDD` dates; codes are looked up in their table (unknown → warning, kept raw). A field
/// that is not valid UTF-8 is read as Latin-1 with a warning (`FileText`), once per field. A
/// control character (`FileText.isControlCharacter`: none in the FAA's files, but an escape
/// sequence in an owner's name would reach every app and terminal that shows it) becomes
/// U+FFFD with a warning, once per field; the row is kept.
struct FieldReader {
    let record: CSVRecord
    let file: String
    let columns: [FAAColumn]
    private(set) var issues: [RowIssue] = []
    /// Fields already warned about, as `field << 1 | kind` (Latin-1 0, control character 1):
    /// a field may be read more than once.
    private var warnedFields: Set<Int> = []

    init(record: CSVRecord, file: String, columns: [FAAColumn]) {
        self.record = record
        self.file = file
        self.columns = columns
        checkShape()
    }

    var isRejected: Bool { issues.contains { $0.severity == .rejected } }

    /// Field `i` with leading and trailing spaces removed: UTF-8, or Latin-1 with a warning.
    mutating func text(_ i: Int) -> String {
        // The closure returns a plain String and takes no slice: a tuple result or a `Slice`
        // costs a generic metadata lookup per field here (measured on DEREG-sized files).
        var isLatin1 = false
        let value: String = record.withField(i) { buffer in
            var start = 0, end = buffer.count
            while start < end, buffer[start] == 0x20 || buffer[start] == 0x09 { start += 1 }
            while end > start, buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09 { end -= 1 }
            let decoded = FileText.decode(UnsafeBufferPointer(start: buffer.baseAddress.map { $0 + start }, count: end - start))
            isLatin1 = decoded.isLatin1
            return decoded.text
        }
        if isLatin1 && warnedFields.insert(i << 1).inserted { warn(i, value: value, FileText.latin1Reason) }
        let (replaced, control) = FileText.replacingControlCharacters(in: value)
        if let control, warnedFields.insert(i << 1 | 1).inserted { warn(i, value: replaced, FileText.controlReason(control)) }
        return replaced
    }

    /// The bytes of field `i` as written, padding included.
    func raw(_ i: Int) -> [UInt8] { record.withField(i) { Array($0) } }

    /// A non-blank field; blank rejects the row.
    mutating func required(_ i: Int) -> String {
        let value = text(i)
        if value.isEmpty { reject(i, value: value, "expected a value, found a blank field") }
        return value
    }

    /// A zero-padded unsigned integer; blank is absent, anything but digits rejects the row.
    mutating func integer(_ i: Int) -> Int? {
        let value = text(i)
        if value.isEmpty { return nil }
        var n = 0
        for byte in value.utf8 {
            guard byte >= 0x30, byte <= 0x39, n < Int.max / 20 else {
                reject(i, value: value, "expected a zero-padded number, found \"\(value)\"")
                return nil
            }
            n = n * 10 + Int(byte - 0x30)
        }
        return n
    }

    /// A `YYYYMMDD` date; blank is absent, an impossible date rejects the row.
    mutating func date(_ i: Int) -> FAADate? {
        let parsed: (blank: Bool, date: FAADate?) = record.withField(i) { buffer in
            var end = buffer.count
            while end > 0, buffer[end - 1] == 0x20 { end -= 1 }
            if end == 0 { return (true, nil) }
            guard end == 8, let n = FAADate.digits(UnsafeBufferPointer(rebasing: buffer[0..<8])) else { return (false, nil) }
            return (false, FAADate(year: n / 10_000, month: n / 100 % 100, day: n % 100))
        }
        if parsed.blank { return nil }
        guard let date = parsed.date else {
            let value = text(i)
            reject(i, value: value, "expected a calendar date YYYYMMDD, found \"\(value)\"")
            return nil
        }
        return date
    }

    /// A code from `table`; blank is absent, an unknown code is kept raw with a warning.
    mutating func code(_ i: Int, _ table: FAACodeTable, raw: String? = nil) -> FAACode? {
        let value = raw ?? text(i)
        if value.isEmpty { return nil }
        let name = table.name(of: value)
        if name == nil { warn(i, value: value, "unknown \(table.id) code; kept as written") }
        return FAACode(raw: value, name: name)
    }

    mutating func reject(_ i: Int, value: String, _ reason: String) {
        issues.append(RowIssue(.rejected, file: file, line: record.line, field: name(i), value: value, reason: reason))
    }

    mutating func warn(_ i: Int, value: String, _ reason: String) {
        issues.append(RowIssue(.warning, file: file, line: record.line, field: name(i), value: value, reason: reason))
    }

    private func name(_ i: Int) -> String { i < columns.count ? columns[i].name : "field \(i + 1)" }

    /// Field count (the trailing comma adds one empty field) and fixed widths. The ingest reads
    /// with `CSVDialect.fixedWidth`, which has dropped the trailing padding: a width counts the
    /// value, so a shifted column shows as a value too long, not as surplus spaces.
    private mutating func checkShape() {
        let expected = columns.count
        let count = record.count
        let hasTrailingEmpty = count == expected + 1 && record.withField(expected) { $0.isEmpty }
        guard count == expected || hasTrailingEmpty else {
            issues.append(RowIssue(.rejected, file: file, line: record.line, field: "record",
                                   value: "\(count) fields",
                                   reason: "expected \(expected) fields and a trailing comma, found \(count) fields"))
            return
        }
        for (i, column) in columns.enumerated() {
            // Characters, not bytes: a UTF-8 continuation byte (10xxxxxx) does not start one.
            let length = record.withField(i) { $0.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
            if length > column.width {
                reject(i, value: text(i), "expected at most \(column.width) characters (FAA layout), found \(length)")
            }
        }
    }
}
