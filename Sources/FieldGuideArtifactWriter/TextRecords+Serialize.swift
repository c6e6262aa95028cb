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
    static func write(rows: Int, fields: Int, starts: [UInt32], text: (Int, Int) -> UnsafeRawBufferPointer,
                      to sink: (UnsafeRawBufferPointer) -> Void) {
        starts.map(\.littleEndian).withUnsafeBytes(sink)
        var lengths = [UInt8](repeating: 0, count: fields)
        var values = [UnsafeRawBufferPointer](repeating: UnsafeRawBufferPointer(start: nil, count: 0), count: fields)
        for row in 0..<rows {
            for field in 0..<fields {
                let value = text(row, field)
                let kept = value.count < Int(keptOut)
                lengths[field] = kept ? UInt8(value.count) : keptOut
                values[field] = kept ? value : UnsafeRawBufferPointer(start: nil, count: 0)
            }
            lengths.withUnsafeBytes(sink)
            for value in values where !value.isEmpty { sink(value) }
        }
    }
}
