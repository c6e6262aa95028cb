import CPrefetch

/// Records of a few text fields each, stored side by side: one record a row of another table,
/// its fields read from one place instead of one string-pool lookup each.
///
/// Layout (`rows` from the section table):
///
/// ```text
/// u32 × (rows + 1)  where each record starts in the data below; record i is [start[i], start[i + 1])
/// data              the records, in row order. A record: one length byte per field (the
///                   table's `fields`), then the fields' bytes in field order. Length 255 marks
///                   a field kept out of the record (longer than 254 bytes): its reader takes it
///                   from where the record's table points (the string pool).
/// ```
///
/// Every value read is bounds-checked: a start past the data or before the previous one gives
/// an empty record, a length past the record's end gives the bytes up to it. A crafted section
/// gives wrong text, never a read outside the mapping; `verify(path:)` turns it into a typed
/// error for `.full` opening.
///
/// ```swift
/// let records = try TextRecords(file.section(tag), rows: rows, fields: 5, tag: tag, path: file.path)
/// var fields = records.record(42).fields()
/// fields.next()   // the first field's bytes; nil when kept out
/// ```
public struct TextRecords: @unchecked Sendable {
    /// The length byte of a field kept out of its record.
    public static let keptOut: UInt8 = 255
    public let count: Int
    public let fields: Int
    @usableFromInline let starts: UnsafeRawPointer
    @usableFromInline let data: UnsafeRawPointer
    @usableFromInline let dataCount: Int
    private let tag: FourCC

    /// Reads the records in `section` (tagged `tag`, named in errors): `rows` of `fields` fields.
    public init(_ section: UnsafeRawBufferPointer, rows: Int, fields: Int, tag: FourCC, path: String) throws(ArtifactError) {
        let dataStart = (rows + 1) * 4
        guard rows >= 0, fields > 0, let base = section.baseAddress, dataStart <= section.count else {
            throw .malformedSection(path: path, section: tag.description, reason: "\(section.count) bytes cannot hold the starts of \(rows) records")
        }
        count = rows
        self.fields = fields
        self.tag = tag
        starts = base
        data = base + dataStart
        dataCount = section.count - dataStart
    }

    /// Starts loading where record `row` starts, without waiting; nothing outside the table.
    @inlinable @inline(__always)
    public func prefetchStart(_ row: Int) {
        guard UInt(bitPattern: row) < UInt(bitPattern: count) else { return }
        fieldguide_prefetch(starts + row * 4)
    }

    /// Starts loading record `row`'s first two lines (most records are under 100 bytes). Reads
    /// (and waits for) its start: call it once `prefetchStart(_:)` has had time to bring it.
    @inlinable @inline(__always)
    public func prefetchRecord(_ row: Int) {
        guard UInt(bitPattern: row) < UInt(bitPattern: count) else { return }
        let start = data + min(Int(start(row)), dataCount)
        fieldguide_prefetch(start)
        fieldguide_prefetch(start + 64)
    }

    /// Record `row` (empty outside the table or where its bounds are not inside the data).
    @inlinable @inline(__always)
    public func record(_ row: Int) -> TextRecord {
        guard UInt(bitPattern: row) < UInt(bitPattern: count) else { return TextRecord(base: data, count: 0, fieldCount: fields, end: data + dataCount) }
        let end = min(Int(start(row + 1)), dataCount)
        let start = min(Int(start(row)), end)
        return TextRecord(base: data + start, count: end - start, fieldCount: fields, end: data + dataCount)
    }

    /// The record that starts at byte `offset` of the data, found without the starts (another
    /// table's link to it: `TextRecordSchema.swift`); it reads no further than the data's end,
    /// and an offset outside the data gives an empty record.
    @inlinable @inline(__always)
    public func record(at offset: UInt32) -> TextRecord {
        let start = min(Int(offset), dataCount)
        return TextRecord(base: data + start, count: dataCount - start, fieldCount: fields, end: data + dataCount)
    }

    /// Starts loading the first two lines of the record at byte `offset` (`record(at:)`).
    @inlinable @inline(__always)
    public func prefetchRecord(at offset: UInt32) {
        let start = data + min(Int(offset), dataCount)
        fieldguide_prefetch(start)
        fieldguide_prefetch(start + 64)
    }

    /// Where record `row` starts in the data (what a link to it holds), nil outside the table.
    public func offset(of row: Int) -> UInt32? {
        UInt(bitPattern: row) < UInt(bitPattern: count) ? start(row) : nil
    }

    /// Checks every record once (for `.full` opening): starts never decrease and stay inside
    /// the data, each record's lengths fit in it, and every field is valid UTF-8.
    public func verify(path: String) throws(ArtifactError) {
        func fail(_ row: Int, _ reason: String) -> ArtifactError {
            .malformedSection(path: path, section: tag.description, reason: "record \(row) \(reason)")
        }
        var previous = 0
        for row in 0...count {
            let start = Int(start(row))
            guard start >= previous, start <= dataCount else { throw fail(row, "starts at \(start), outside \(previous)...\(dataCount)") }
            previous = start
        }
        for row in 0..<count {
            let record = record(row)
            guard record.count >= fields else { throw fail(row, "holds \(record.count) bytes, fewer than its \(fields) lengths") }
            var used = fields
            for field in 0..<fields {
                let length = record.base.load(fromByteOffset: field, as: UInt8.self)
                guard length != Self.keptOut else { continue }
                guard used + Int(length) <= record.count else { throw fail(row, "field \(field) runs past the record's \(record.count) bytes") }
                if length > 0, record.base.load(fromByteOffset: used, as: UInt8.self) & 0xC0 == 0x80 {
                    throw fail(row, "field \(field) starts inside a UTF-8 character")
                }
                used += Int(length)
            }
            guard used == record.count else { throw fail(row, "has \(record.count - used) bytes after its fields") }
            // The fields lie side by side and each starts on a character: checked together, one
            // call a record instead of one a field (the full-size registrations' 3.5 million
            // fields checked one by one were 40 ms of a `.full` open).
            let text = UnsafeRawBufferPointer(start: record.base + fields, count: record.count - fields)
            if !Self.isASCII(text), let bad = StringPool.firstInvalidUTF8(text) {
                throw fail(row, "is not valid UTF-8 at byte \(fields + bad)")
            }
        }
    }

    /// Whether every byte is ASCII, 8 bytes a step (most records are).
    ///
    /// Why before `StringPool.firstInvalidUTF8`, whose loop skips ASCII too: records are short
    /// (about 60 bytes), and calling it for each of the full-size registry's 415,000 made a
    /// `.full` open 62-74 ms against 52-54 ms with this check inlined first.
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0, high: UInt64 = 0
        while i + 8 <= bytes.count { high |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self); i += 8 }
        while i < bytes.count { high |= UInt64(bytes[i]); i += 1 }
        return high & 0x8080_8080_8080_8080 == 0
    }

    @usableFromInline func start(_ row: Int) -> UInt32 { starts.loadUnaligned(fromByteOffset: row * 4, as: UInt32.self).littleEndian }
}

/// One record of `TextRecords`: its fields are read in order (`fields()`).
public struct TextRecord {
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline let count: Int
    @usableFromInline let fieldCount: Int
    /// The end of the section's data: short ASCII is decoded in 16-byte loads that stay before it.
    @usableFromInline let end: UnsafeRawPointer

    @usableFromInline
    init(base: UnsafeRawPointer, count: Int, fieldCount: Int, end: UnsafeRawPointer) {
        self.base = base
        self.count = count
        self.fieldCount = fieldCount
        self.end = end
    }

    /// The fields, first to last.
    @inlinable @inline(__always)
    public func fields() -> Fields { Fields(record: self, field: 0, offset: min(fieldCount, count)) }

    /// Reads a record's fields in order, each once.
    public struct Fields {
        @usableFromInline let record: TextRecord
        @usableFromInline var field: Int
        /// Where the next field's bytes start in the record.
        @usableFromInline var offset: Int

        @usableFromInline
        init(record: TextRecord, field: Int, offset: Int) {
            self.record = record
            self.field = field
            self.offset = offset
        }

        /// The next field's bytes (empty past the record's fields or its end), or nil when the
        /// record kept it out (`TextRecords.keptOut`).
        @inlinable @inline(__always)
        public mutating func next() -> UnsafeRawBufferPointer? {
            guard field < record.fieldCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            let length = field < record.count ? record.base.load(fromByteOffset: field, as: UInt8.self) : 0
            field += 1
            guard length != TextRecords.keptOut else { return nil }
            let start = min(offset, record.count), stop = min(start + Int(length), record.count)
            offset = stop
            return UnsafeRawBufferPointer(start: record.base + start, count: stop - start)
        }

        /// The next field decoded (as `StringPool.string(_:)`), or nil when kept out.
        @inlinable @inline(__always)
        public mutating func string() -> String? {
            guard let bytes = next() else { return nil }
            if let start = bytes.baseAddress, start + 16 <= record.end,
               let text = ArtifactText.inlineASCII(padded: start, count: bytes.count) {
                return text
            }
            return ArtifactText.string(bytes)
        }
    }
}

/// A row's links to two records of other `TextRecords` tables (where each starts in its data;
/// `UInt32.max` for none): 8 bytes a row.
///
/// ```swift
/// let links = try TextRecordLinks(file.section(AircraftSchema.Section.registrationTextLinks), rows: rows, tag: tag, path: file.path)
/// let (model, engine) = links[42]
/// models.record(at: model)
/// ```
public struct TextRecordLinks: @unchecked Sendable {
    public let count: Int
    @usableFromInline let base: UnsafeRawPointer?

    /// The links in `section` (tagged `tag`, named in errors), which must be `rows` of 8 bytes.
    public init(_ section: UnsafeRawBufferPointer, rows: Int, tag: FourCC, path: String) throws(ArtifactError) {
        guard section.count == rows * 8 else {
            throw .malformedSection(path: path, section: tag.description, reason: "\(section.count) bytes for \(rows) rows of 8")
        }
        count = rows
        base = section.baseAddress
    }

    /// Starts loading row `row`'s links, without waiting; nothing outside the table.
    @inlinable @inline(__always)
    public func prefetch(_ row: Int) {
        guard UInt(bitPattern: row) < UInt(bitPattern: count), let base else { return }
        fieldguide_prefetch(base + row * 8)
    }

    /// Row `row`'s two links (`UInt32.max` for both outside the table).
    @inlinable @inline(__always)
    public subscript(row: Int) -> (UInt32, UInt32) {
        guard UInt(bitPattern: row) < UInt(bitPattern: count), let base else { return (.max, .max) }
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: row * 8, as: UInt64.self))
        return (UInt32(truncatingIfNeeded: word), UInt32(truncatingIfNeeded: word >> 32))
    }
}
