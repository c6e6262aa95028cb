import FieldGuideArtifact
import FieldGuideArtifactWriter

/// The registration summaries in bucket order (`RSMB`) and their bucket directory (`RBKT`),
/// made from the finished registrations (final string ids) in `REGS` row order; their layout and
/// why they exist are in `RegistrationSummarySchema.swift`. The bytes depend only on the
/// registrations.
///
/// ```swift
/// let sections = RegistrationSummarySections(pool: poolBytes, registrations: parts, order: registrationOrder, keys: sortedKeys).sections
/// ```
struct RegistrationSummarySections {
    typealias S = AircraftSchema
    typealias Table = RegistrationSummaryTable
    let sections: [(tag: FourCC, rows: Int, bytes: [UInt8])]

    /// `pool` is the final `STRS` section; `order[row]` is the registration (numbered across
    /// `registrations`, in file order) at `REGS` row `row`, and `keys[row]` its packed N-number.
    init(pool: [UInt8], registrations: [RowTableBuilder<S.RegistrationColumn>], order: [UInt32], keys: [UInt64]) {
        let partStarts = registrations.reduce(into: [0]) { starts, table in starts.append(starts.last! + table.count) }
        let (firstRows, rowsByBucket) = Self.buckets(keys: keys)
        var starts = [UInt32](repeating: 0, count: order.count)
        var directory = [UInt32](repeating: 0, count: firstRows.count)
        // The section in one array: the starts' place first (filled in below), then the summaries
        // appended after it, so the 22 MB of a full-size registry are never copied.
        let headerSize = order.count * 4
        var summaries = [UInt8](repeating: 0, count: headerSize)
        summaries.reserveCapacity(headerSize + order.count * 72)
        pool.withUnsafeBytes { raw in
            guard let pool = try? StringPool(raw, path: S.Section.strings.description) else {
                preconditionFailure("the builder's own string pool does not read back")
            }
            for bucket in 0..<firstRows.count - 1 {
                directory[bucket] = UInt32(summaries.count - headerSize)
                for row in rowsByBucket[firstRows[bucket]..<firstRows[bucket + 1]] {
                    let registration = Int(order[Int(row)])
                    let part = partStarts.lastIndex { $0 <= registration }!   // a handful of parts
                    precondition(summaries.count - headerSize <= UInt32.max, "registration summaries past 4 GiB")
                    starts[Int(row)] = UInt32(summaries.count - headerSize)
                    Self.appendSummary(row: Int(row), key: keys[Int(row)], registrations[part], registration - partStarts[part],
                                       pool: pool, to: &summaries)
                }
            }
            directory[firstRows.count - 1] = UInt32(summaries.count - headerSize)
        }
        summaries.withUnsafeMutableBytes { bytes in
            for (row, start) in starts.enumerated() { bytes.storeBytes(of: start.littleEndian, toByteOffset: row * 4, as: UInt32.self) }
        }
        sections = [
            (S.Section.bucketedSummaries, order.count, summaries),
            (S.Section.summaryBuckets, directory.count, directory.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }),
        ]
    }

    /// The rows grouped by bucket (a counting sort, so rows stay in row order within a bucket)
    /// and where each bucket's rows start among them, with their end last.
    private static func buckets(keys: [UInt64]) -> (firstRows: [Int], rows: [UInt32]) {
        let buckets = Table.bucketCount(forKeys: keys.count)
        let shift = UInt64(64 - buckets.trailingZeroBitCount)
        var firstRows = [Int](repeating: 0, count: buckets + 1)
        for key in keys { firstRows[Table.bucket(of: key, shift: shift) + 1] += 1 }
        for bucket in 0..<buckets { firstRows[bucket + 1] += firstRows[bucket] }
        var next = firstRows, rows = [UInt32](repeating: 0, count: keys.count)
        for (row, key) in keys.enumerated() {
            let bucket = Table.bucket(of: key, shift: shift)
            rows[next[bucket]] = UInt32(row)
            next[bucket] += 1
        }
        return (firstRows, rows)
    }

    /// One summary: key, row, flags, bounds, then the six fields; a field that would take it past
    /// `Table.maximumSize` is kept out (its flag set, its bytes empty).
    private static func appendSummary(row: Int, key: UInt64, _ table: RowTableBuilder<S.RegistrationColumn>, _ index: Int,
                                      pool: StringPool, to data: inout [UInt8]) {
        let start = data.count
        let nNumber = pool.bytes(table[index, .nNumber])
        let whole = nNumber.count <= 8 && !nNumber.contains(0) && PackedKey.pack(nNumber) == key
        withUnsafeBytes(of: key.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(row).littleEndian) { data.append(contentsOf: $0) }
        let flags = data.count, bounds = flags + 1
        data.append(whole ? Table.wholeKey : 0)
        data.append(UInt8(Table.headerSize))
        data.append(contentsOf: repeatElement(0, count: S.SummaryField.allCases.count))
        for field in S.SummaryField.allCases {
            func append(_ bytes: UnsafeRawBufferPointer) {
                if data.count - start + bytes.count <= Table.maximumSize {
                    data.append(contentsOf: bytes)
                } else {
                    data[flags] |= 1 << UInt8(field.rawValue)
                }
            }
            let value = table[index, field.column]
            if field == .modeSHex {
                var text = S.modeSHexText(value) ?? ""
                text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
            } else {
                append(pool.bytes(value))
            }
            data[bounds + 1 + field.rawValue] = UInt8(data.count - start)
        }
    }
}
