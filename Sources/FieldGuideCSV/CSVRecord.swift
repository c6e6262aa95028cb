/// One parsed CSV record: its fields as raw bytes plus where it stood in the file.
///
/// Fields are kept as bytes so that callers convert only what they use (numbers are parsed
/// without building a `String`). Nothing is trimmed.
///
/// ```swift
/// try CSVReader.read(fileAt: "ENGINE.txt", dialect: .unquoted) { record in
///     print(record.line, record[0], record.count)
/// }
/// ```
public struct CSVRecord: Sendable {
    /// The 1-based physical line on which the record starts.
    public let line: Int
    /// The 0-based position among the file's records (the header, if any, is 0).
    public let index: Int
    @usableFromInline let bytes: [UInt8]
    /// `ends[i]` is one past the last byte of field `i` in `bytes`.
    @usableFromInline let ends: [Int]

    public init(line: Int, index: Int, fields: [String]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for field in fields {
            bytes.append(contentsOf: field.utf8)
            ends.append(bytes.count)
        }
        self.init(line: line, index: index, bytes: bytes, ends: ends)
    }

    init(line: Int, index: Int, bytes: [UInt8], ends: [Int]) {
        self.line = line
        self.index = index
        self.bytes = bytes
        self.ends = ends
    }

    /// The number of fields.
    @inlinable public var count: Int { ends.count }

    /// Field `i` decoded as UTF-8 (invalid sequences become U+FFFD), untrimmed.
    public subscript(i: Int) -> String {
        withField(i) { String(decoding: $0, as: UTF8.self) }
    }

    /// All fields as strings.
    public var fields: [String] { (0..<count).map { self[$0] } }

    /// Calls `body` with the bytes of field `i`, without copying.
    @inlinable
    public func withField<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let start = i == 0 ? 0 : ends[i - 1]
        let end = ends[i]
        return try bytes.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[start..<end]))
        }
    }

    /// Calls `body` with every field's bytes at once, without copying (one buffer access per
    /// record instead of one per field, for readers that take most fields).
    @inlinable
    public func withUnsafeFields<R>(_ body: (UnsafeCSVFields) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { bytes in
            try ends.withUnsafeBufferPointer { ends in
                try body(UnsafeCSVFields(bytes: bytes, ends: ends))
            }
        }
    }

    /// Whether field `i` holds valid UTF-8.
    public func isValidUTF8(_ i: Int) -> Bool {
        withField(i) { buffer in
            var iterator = buffer.makeIterator()
            var decoder = UTF8()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        }
    }
}

/// The fields of one record as byte buffers, valid only inside `CSVRecord.withUnsafeFields`.
public struct UnsafeCSVFields {
    /// The record's bytes, every field back to back.
    public let bytes: UnsafeRawBufferPointer
    @usableFromInline let ends: UnsafeBufferPointer<Int>

    @inlinable init(bytes: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>) {
        self.bytes = bytes
        self.ends = ends
    }

    /// The number of fields.
    @inlinable public var count: Int { ends.count }

    /// The bytes of field `i`.
    @inlinable public subscript(i: Int) -> UnsafeRawBufferPointer {
        let start = i == 0 ? 0 : ends[i - 1]
        return UnsafeRawBufferPointer(rebasing: bytes[start..<ends[i]])
    }
}
