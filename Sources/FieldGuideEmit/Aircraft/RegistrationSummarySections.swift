import FieldGuideArtifact
import FieldGuideArtifactWriter

/// The registration summaries (`RSUM`) and the N-number hash index (`RHSH`), made from the
/// finished registrations (final string ids) in `REGS` row order; their layout and why they
/// exist are in `RegistrationSummarySchema.swift`. The bytes depend only on the registrations.
///
/// ```swift
/// let sections = RegistrationSummarySections(pool: poolBytes, registrations: parts, order: registrationOrder, keys: sortedKeys).sections
/// ```
struct RegistrationSummarySections {
    typealias S = AircraftSchema
    let sections: [(tag: FourCC, rows: Int, bytes: [UInt8])]

    /// `pool` is the final `STRS` section; `order[row]` is the registration (numbered across
    /// `registrations`, in file order) at `REGS` row `row`, and `keys[row]` its packed N-number.
    init(pool: [UInt8], registrations: [RowTableBuilder<S.RegistrationColumn>], order: [UInt32], keys: [UInt64]) {
        let firstRows = registrations.reduce(into: [0]) { starts, table in starts.append(starts.last! + table.count) }
        var starts = [UInt32](repeating: 0, count: order.count)
        // The section in one array: the starts' place first (filled in below), then the summaries
        // appended after it, so the 20 MB of a full-size registry are never copied.
        let headerSize = order.count * 4
        var summaries = [UInt8](repeating: 0, count: headerSize)
        summaries.reserveCapacity(headerSize + order.count * 64)
        pool.withUnsafeBytes { raw in
            guard let pool = try? StringPool(raw, path: S.Section.strings.description) else {
                preconditionFailure("the builder's own string pool does not read back")
            }
            for (row, registration) in order.enumerated() {
                let registration = Int(registration)
                let part = firstRows.lastIndex { $0 <= registration }!   // a handful of parts
                let table = registrations[part], index = registration - firstRows[part]
                precondition(summaries.count - headerSize <= UInt32.max, "registration summaries past 4 GiB")
                starts[row] = UInt32(summaries.count - headerSize)
                for field in S.SummaryField.allCases {
                    let value = table[index, field.column]
                    if field == .modeSHex {
                        var text = S.modeSHexText(value) ?? ""
                        text.withUTF8 { Self.append(UnsafeRawBufferPointer($0), to: &summaries) }
                    } else {
                        Self.append(pool.bytes(value), to: &summaries)
                    }
                }
            }
        }
        summaries.withUnsafeMutableBytes { bytes in
            for (row, start) in starts.enumerated() { bytes.storeBytes(of: start.littleEndian, toByteOffset: row * 4, as: UInt32.self) }
        }
        let hash = Self.hashIndex(keys: keys, starts: starts)
        sections = [
            (S.Section.registrationSummaries, order.count, summaries),
            (S.Section.registrationHash, hash.count, hash.withUnsafeBytes { Array($0) }),
        ]
    }

    /// A field as its length byte and bytes; one longer than 254 bytes as `notInline` alone.
    private static func append(_ bytes: UnsafeRawBufferPointer, to data: inout [UInt8]) {
        if bytes.count >= Int(RegistrationSummaries.notInline) {
            data.append(RegistrationSummaries.notInline)
        } else {
            data.append(UInt8(bytes.count))
            data.append(contentsOf: bytes)
        }
    }

    /// The open-addressing table: each row in row order at its key's first free slot from
    /// `RegistrationHashIndex.slot(of:)`, as (summary start << 32 | row + 1), little-endian.
    private static func hashIndex(keys: [UInt64], starts: [UInt32]) -> [UInt64] {
        let count = RegistrationHashIndex.slotCount(forKeys: keys.count)
        let shift = UInt64(64 - count.trailingZeroBitCount), mask = count - 1
        var slots = [UInt64](repeating: 0, count: count)
        for (row, key) in keys.enumerated() {
            var index = RegistrationHashIndex.slot(of: key, shift: shift)
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = (UInt64(starts[row]) << 32 | UInt64(row + 1)).littleEndian
        }
        return slots
    }
}
