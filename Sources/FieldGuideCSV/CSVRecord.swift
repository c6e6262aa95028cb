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
    /// The field ends, then the bytes: `storage[i]` (for `i < count`) is one past the last byte
    /// of field `i`, and the fields' bytes follow back to back, packed into the words after.
    ///
    /// Why one array: the parsers make a record per line (about two million in the nightly's
    /// FAA stages), and an array each for the bytes and the ends was two allocations a record.
    @usableFromInline let storage: [Int]
    /// The number of fields.
    public let count: Int

    public init(line: Int, index: Int, fields: [String]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for field in fields {
            bytes.append(contentsOf: field.utf8)
            ends.append(bytes.count)
        }
        self = bytes.withUnsafeBytes { bytes in
            ends.withUnsafeBufferPointer { ends in CSVRecord(line: line, index: index, bytes: bytes, ends: ends) }
        }
    }

    /// A record of `ends.count` fields whose bytes are `bytes` (copied).
    init(line: Int, index: Int, bytes: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>) {
        self.line = line
        self.index = index
        count = ends.count
        let wordSize = MemoryLayout<Int>.stride
        let words = ends.count + (bytes.count + wordSize - 1) / wordSize
        storage = [Int](unsafeUninitializedCapacity: words) { buffer, initialized in
            guard words > 0, let base = buffer.baseAddress else { return initialized = 0 }
            if let start = ends.baseAddress { base.initialize(from: start, count: ends.count) }
            // The last word's bytes past the record are zeroed, so every word is initialized.
            if words > ends.count { base[words - 1] = 0 }
            if let source = bytes.baseAddress {
                UnsafeMutableRawPointer(base + ends.count).copyMemory(from: source, byteCount: bytes.count)
            }
            initialized = words
        }
    }

    /// Field `i` decoded as UTF-8 (invalid sequences become U+FFFD), untrimmed.
    public subscript(i: Int) -> String {
        withField(i) { String(decoding: $0, as: UTF8.self) }
    }

    /// All fields as strings.
    public var fields: [String] { (0..<count).map { self[$0] } }

    /// Calls `body` with the bytes of field `i`, without copying.
    @inlinable
    public func withField<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        precondition(i >= 0 && i < count, "field \(i) of a record of \(count)")
        return try storage.withUnsafeBufferPointer { words in
            let start = i == 0 ? 0 : words[i - 1], end = words[i]
            // The words seen as bytes for the call: the fields' bytes start after the ends.
            return try words.withMemoryRebound(to: UInt8.self) { bytes in
                let first = MemoryLayout<Int>.stride * count
                return try body(UnsafeBufferPointer(rebasing: bytes[first + start ..< first + end]))
            }
        }
    }

    /// Calls `body` with every field's bytes at once, without copying (one buffer access per
    /// record instead of one per field, for readers that take most fields).
    @inlinable
    public func withUnsafeFields<R>(_ body: (UnsafeCSVFields) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { words in
            let ends = UnsafeBufferPointer(rebasing: words[0..<count])
            let byteCount = count == 0 ? 0 : words[count - 1]
            let bytes = UnsafeRawBufferPointer(start: words.baseAddress.map { UnsafeRawPointer($0 + count) }, count: byteCount)
            return try body(UnsafeCSVFields(bytes: bytes, ends: ends))
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
