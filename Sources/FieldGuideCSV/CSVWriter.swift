import CCSV

/// Writes CSV records, quoting a field through libcsv only when it needs it.
///
/// Output is deterministic: `\n` line ends, fields quoted when they hold the delimiter, a
/// quote, a line break, or leading/trailing white space.
///
/// ```swift
/// var writer = CSVWriter()
/// writer.write(["code", "name"])
/// writer.write(["0020901", "AAR AIRLIFT GROUP INC"])
/// let bytes = writer.bytes
/// ```
public struct CSVWriter: Sendable {
    public let dialect: CSVDialect
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []
    private var scratch: [UInt8] = []
    /// Whether `writeField(_:)` has started a record that `endRecord()` has not ended.
    private var inRecord = false

    public init(dialect: CSVDialect = .rfc4180) {
        precondition(dialect.quote != nil, "CSVWriter needs a quoting dialect")
        self.dialect = dialect
    }

    /// Appends one record.
    public mutating func write(_ fields: [String]) {
        for index in fields.indices {
            if index > 0 { bytes.append(dialect.delimiter) }
            append(fields[index])
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends one field of a record written field by field: the delimiter first, unless it
    /// is the record's first field. `endRecord()` ends the record.
    public mutating func writeField(_ utf8: UnsafeRawBufferPointer) {
        if inRecord { bytes.append(dialect.delimiter) }
        inRecord = true
        append(UnsafeBufferPointer(start: utf8.baseAddress?.assumingMemoryBound(to: UInt8.self), count: utf8.count))
    }

    /// Ends a record written with `writeField(_:)`.
    public mutating func endRecord() {
        bytes.append(UInt8(ascii: "\n"))
        inRecord = false
    }

    /// Appends bytes that already are CSV records of this dialect (from another writer).
    public mutating func append(encoded: UnsafeRawBufferPointer) {
        precondition(!inRecord, "a record is half written")
        bytes.append(contentsOf: UnsafeBufferPointer(start: encoded.baseAddress?.assumingMemoryBound(to: UInt8.self), count: encoded.count))
    }

    /// Hands the bytes written so far to `sink` and starts a new buffer (for streaming writes).
    public mutating func drain(_ sink: ([UInt8]) throws -> Void) rethrows {
        guard !bytes.isEmpty else { return }
        try sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ field: String) {
        var field = field
        field.withUTF8 { append($0) }
    }

    private mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard needsQuoting(utf8) else {
            bytes.append(contentsOf: utf8)
            return
        }
        let quote = dialect.quote!
        // Worst case every byte is a quote: doubled, plus the two enclosing quotes.
        let capacity = utf8.count * 2 + 2
        if scratch.count < capacity { scratch = [UInt8](repeating: 0, count: capacity) }
        let written = scratch.withUnsafeMutableBytes { dest in
            csv_write2(dest.baseAddress, capacity, utf8.baseAddress, utf8.count, quote)
        }
        bytes.append(contentsOf: scratch[0..<written])
    }

    private func needsQuoting(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return true }
        let quote = dialect.quote!, delimiter = dialect.delimiter
        for byte in utf8 where byte == delimiter || byte == quote || byte == 0x0A || byte == 0x0D { return true }
        return false
    }
}
