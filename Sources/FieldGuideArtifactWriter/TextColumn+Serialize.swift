import FieldGuideArtifact

extension TextColumn {
    /// The section bytes of `values` as a fixed-width text column, and its row count: each value
    /// padded with spaces to the longest one's length (at least 1). Trailing spaces of a value
    /// are not kept (the reader trims the padding).
    ///
    /// ```swift
    /// let (bytes, rows) = TextColumn.serialize([Array("0010102".utf8), Array("0010104".utf8)])
    /// builder.addSection(AircraftIndexSchema.Section.modelCodes, rows: rows, bytes: bytes)
    /// ```
    public static func serialize(_ values: [[UInt8]]) -> (bytes: [UInt8], rows: Int) {
        let trimmed = values.map { value -> ArraySlice<UInt8> in
            var end = value.count
            while end > 0 && value[end - 1] == 0x20 { end -= 1 }
            return value[0..<end]
        }
        let width = max(1, trimmed.map(\.count).max() ?? 0)
        precondition(width <= maximumWidth, "a text column value of \(width) bytes")
        // Spaces first, each value copied over its row's start: appending a value and then its
        // padding (`repeatElement`) took about 450 instructions a row.
        var bytes = [UInt8](repeating: 0x20, count: width * values.count)
        bytes.withUnsafeMutableBytes { out in
            for (row, value) in trimmed.enumerated() where !value.isEmpty {
                value.withUnsafeBytes { (out.baseAddress! + row * width).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            }
        }
        return (bytes, values.count)
    }

    /// `serialize` for text.
    public static func serialize(_ values: [String]) -> (bytes: [UInt8], rows: Int) {
        serialize(values.map { Array($0.utf8) })
    }
}
