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
    public static func serialize(rows: Int, fields: Int, text: (_ row: Int, _ field: Int) -> UnsafeRawBufferPointer) -> [UInt8] {
        // The starts first (filled in as the records are written), then the records.
        let header = (rows + 1) * 4
        var section = [UInt8](repeating: 0, count: header)
        section.reserveCapacity(header + rows * (fields + 48))
        var lengths = [UInt8](repeating: 0, count: fields)
        var values = [UnsafeRawBufferPointer](repeating: UnsafeRawBufferPointer(start: nil, count: 0), count: fields)
        func markStart(_ row: Int) {
            let start = section.count - header
            precondition(start <= UInt32.max, "text records past 4 GiB")
            section.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(start).littleEndian, toByteOffset: row * 4, as: UInt32.self) }
        }
        for row in 0..<rows {
            markStart(row)
            for field in 0..<fields {
                let value = text(row, field)
                let kept = value.count < Int(keptOut)
                lengths[field] = kept ? UInt8(value.count) : keptOut
                values[field] = kept ? value : UnsafeRawBufferPointer(start: nil, count: 0)
            }
            section.append(contentsOf: lengths)
            for value in values where !value.isEmpty { section.append(contentsOf: value) }
        }
        markStart(rows)
        return section
    }
}
