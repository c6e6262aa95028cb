import FieldGuideArtifact

extension TextRecords {
    /// The section bytes of `rows` records of `fields` fields (layout: `TextRecords`);
    /// `text(row, field)` gives each field's bytes. A field longer than 254 bytes is kept out
    /// (length 255, no bytes): its reader takes it from the string pool.
    ///
    /// ```swift
    /// let bytes = TextRecords.serialize(rows: models.count, fields: 5) { row, field in pool.bytes(models[row, columns[field]]) }
    /// builder.addSection(AircraftSchema.Section.modelText, rows: models.count, bytes: bytes)
    /// ```
    public static func serialize(rows: Int, fields: Int, starts: [UInt32]? = nil,
                                 text: (_ row: Int, _ field: Int) -> UnsafeRawBufferPointer) -> [UInt8] {
        let starts = starts ?? Self.starts(rows: rows, fields: fields, text: text)
        let size = sectionSize(starts)
        return [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
            var end = 0
            write(rows: rows, fields: fields, starts: starts, text: text) { bytes in
                if let source = bytes.baseAddress, bytes.count > 0 { (UnsafeMutableRawPointer(out.baseAddress!) + end).copyMemory(from: source, byteCount: bytes.count) }
                end += bytes.count
            }
            precondition(end == size, "text records: wrote \(end) bytes of \(size)")
            initialized = size
        }
    }

    /// The same section, written into `spool` piece by piece (`SectionSpool.stream(count:_:)`):
    /// never whole in memory. `starts`, when given, is `starts(rows:fields:text:)`'s.
    public static func spool(rows: Int, fields: Int, starts: [UInt32]? = nil, into spool: SectionSpool,
                             text: (_ row: Int, _ field: Int) -> UnsafeRawBufferPointer) -> SpooledSection {
        let starts = starts ?? Self.starts(rows: rows, fields: fields, text: text)
        return spool.stream(count: sectionSize(starts)) { sink in
            write(rows: rows, fields: fields, starts: starts, text: text) { sink.write($0) }
        }
    }

    /// Where each record starts in the data, and the data's end last: the first of two passes
    /// over `text`, so that the section is written once, at its size (and what a link to a
    /// record holds: `TextRecordLinks`).
    public static func starts(rows: Int, fields: Int, text: (Int, Int) -> UnsafeRawBufferPointer) -> [UInt32] {
        var starts = [UInt32](), end = 0
        starts.reserveCapacity(rows + 1)
        for row in 0..<rows {
            precondition(end <= UInt32.max, "text records past 4 GiB")
            starts.append(UInt32(end))
            end += fields
            for field in 0..<fields {
                let count = text(row, field).count
                if count < Int(keptOut) { end += count }
            }
        }
        precondition(end <= UInt32.max, "text records past 4 GiB")
        starts.append(UInt32(end))
        return starts
    }

    /// The section's size in bytes, from `starts(rows:fields:text:)`.
    public static func sectionSize(_ starts: [UInt32]) -> Int { starts.count * 4 + Int(starts.last!) }

    /// The section, in order: the starts, then each record's lengths and fields.
    ///
    /// A record is assembled in one buffer and handed to `sink` whole: a call a field (about 2.8
    /// million at full size, some 86 instructions each in `SectionSpool.Sink.write`) was a tenth
    /// of the records' cost. The starts go out as they are on a little-endian machine: mapped
    /// through `\.littleEndian`, each element was a key-path call of about 690 instructions
    /// (415,000 at full size; callgrind).
    static func write(rows: Int, fields: Int, starts: [UInt32], text: (Int, Int) -> UnsafeRawBufferPointer,
                      to sink: (UnsafeRawBufferPointer) -> Void) {
        if UInt32(1).littleEndian == 1 {
            starts.withUnsafeBytes(sink)
        } else {
            starts.map { $0.littleEndian }.withUnsafeBytes(sink)
        }
        // The longest record: every field's length byte and 254 bytes (a longer one is kept out).
        let record = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, fields * Int(keptOut)), alignment: 8)
        defer { record.deallocate() }
        let base = record.baseAddress!
        for row in 0..<rows {
            var end = fields
            for field in 0..<fields {
                let value = text(row, field)
                guard value.count < Int(keptOut) else {
                    base.storeBytes(of: keptOut, toByteOffset: field, as: UInt8.self)
                    continue
                }
                base.storeBytes(of: UInt8(value.count), toByteOffset: field, as: UInt8.self)
                if let source = value.baseAddress, value.count > 0 { (base + end).copyMemory(from: source, byteCount: value.count) }
                end += value.count
            }
            sink(UnsafeRawBufferPointer(start: base, count: end))
        }
    }
}
