import FieldGuideArtifact

extension TextRecords {
    /// The section bytes of `rows` records of `fields` fields (layout: `TextRecords`);
    /// `text(row, field)` gives each field's bytes. A field longer than 254 bytes is kept out
    /// (length 255, no bytes): its reader takes it from the string pool.
    ///
    /// Two passes over `text`: the first sizes the section, the second writes it into one
    /// allocation of exactly that size. Grown as it was written, the full-size registrations'
    /// 22 MB section was copied at every doubling and, at the last, held twice: 20 MB more at
    /// `emit-aircraft`'s peak.
    ///
    /// ```swift
    /// let bytes = TextRecords.serialize(rows: models.count, fields: 5) { row, field in pool.bytes(models[row, columns[field]]) }
    /// builder.addSection(AircraftSchema.Section.modelText, rows: models.count, bytes: bytes)
    /// ```
    public static func serialize(rows: Int, fields: Int, text: (_ row: Int, _ field: Int) -> UnsafeRawBufferPointer) -> [UInt8] {
        let header = (rows + 1) * 4
        var size = header + rows * fields
        for row in 0..<rows {
            for field in 0..<fields {
                let count = text(row, field).count
                if count < Int(keptOut) { size += count }
            }
        }
        precondition(size - header <= UInt32.max, "text records past 4 GiB")
        return [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
            let base = UnsafeMutableRawPointer(out.baseAddress!)
            var end = header
            for row in 0...rows {
                base.storeBytes(of: UInt32(end - header).littleEndian, toByteOffset: row * 4, as: UInt32.self)
                guard row < rows else { break }
                let lengths = end
                end += fields
                for field in 0..<fields {
                    let value = text(row, field)
                    guard value.count < Int(keptOut) else {
                        base.storeBytes(of: keptOut, toByteOffset: lengths + field, as: UInt8.self)
                        continue
                    }
                    base.storeBytes(of: UInt8(value.count), toByteOffset: lengths + field, as: UInt8.self)
                    if let source = value.baseAddress, value.count > 0 { (base + end).copyMemory(from: source, byteCount: value.count) }
                    end += value.count
                }
            }
            precondition(end == size, "text records: the second pass wrote \(end) bytes of \(size)")
            initialized = size
        }
    }
}
