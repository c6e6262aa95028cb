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
        var directory = [UInt32](repeating: 0, count: firstRows.count)
        // The section in one array, the rows' starts first, then the summaries, written through a
        // pointer: a summary is about 70 bytes in a dozen pieces, which `Array.append` checked
        // and copied one by one (full size: 0.5 s of one core, the last section `emit-aircraft`
        // waited for). The capacity is what summaries of the largest size would take; only the
        // pages written become memory (the allocation is far past glibc's mapping threshold).
        let headerSize = order.count * 4
        let summaries = [UInt8](unsafeUninitializedCapacity: headerSize + order.count * Table.maximumSize + 16) { out, initialized in
            let base = UnsafeMutableRawPointer(out.baseAddress!)
            pool.withUnsafeBytes { raw in
                guard let pool = try? StringPool(raw, path: S.Section.strings.description) else {
                    preconditionFailure("the builder's own string pool does not read back")
                }
                var writer = SummaryWriter(data: base + headerSize, pool: pool, poolEnd: raw.baseAddress! + raw.count)
                for bucket in 0..<firstRows.count - 1 {
                    directory[bucket] = UInt32(writer.count)
                    for row in rowsByBucket[firstRows[bucket]..<firstRows[bucket + 1]] {
                        let registration = Int(order[Int(row)])
                        var part = 0  // a handful of parts
                        while registration >= partStarts[part + 1] { part += 1 }
                        precondition(writer.count <= UInt32.max, "registration summaries past 4 GiB")
                        base.storeBytes(of: UInt32(writer.count).littleEndian, toByteOffset: Int(row) * 4, as: UInt32.self)
                        writer.append(row: Int(row), key: keys[Int(row)], registrations[part], registration - partStarts[part])
                    }
                }
                directory[firstRows.count - 1] = UInt32(writer.count)
                initialized = headerSize + writer.count
            }
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

}

/// Writes summaries one after another at `data`, which has room for each at its largest
/// (`Table.maximumSize`) and 16 bytes more.
private struct SummaryWriter {
    typealias S = AircraftSchema
    typealias Table = RegistrationSummaryTable
    let data: UnsafeMutableRawPointer
    let pool: StringPool
    /// The end of the pool's bytes: a copy reads no further.
    let poolEnd: UnsafeRawPointer
    /// Bytes written.
    private(set) var count = 0

    init(data: UnsafeMutableRawPointer, pool: StringPool, poolEnd: UnsafeRawPointer) {
        self.data = data
        self.pool = pool
        self.poolEnd = poolEnd
    }

    /// One summary: key, row, flags, bounds, then the six fields; a field that would take it past
    /// `Table.maximumSize` is kept out (its flag set, its bytes empty).
    mutating func append(row: Int, key: UInt64, _ table: RowTableBuilder<S.RegistrationColumn>, _ index: Int) {
        let start = data + count
        let nNumber = pool.bytes(table[index, .nNumber])
        let whole = nNumber.count <= 8 && !nNumber.contains(0) && PackedKey.pack(nNumber) == key
        start.storeBytes(of: key.littleEndian, as: UInt64.self)
        start.storeBytes(of: UInt32(truncatingIfNeeded: row).littleEndian, toByteOffset: 8, as: UInt32.self)
        start.storeBytes(of: UInt8(Table.headerSize), toByteOffset: 13, as: UInt8.self)
        var flags: UInt8 = whole ? Table.wholeKey : 0, size = Table.headerSize
        for field in S.SummaryField.allCases {
            let value = table[index, field.column]
            if field == .modeSHex {
                // The text of `S.modeSHexText`, written in place: 6 digits (more for a crafted
                // wider value), none when absent.
                let digits = value == UInt32.max ? 0 : value > 0xFF_FFFF ? (32 - value.leadingZeroBitCount + 3) / 4 : 6
                if size + digits <= Table.maximumSize {
                    for i in 0..<digits {
                        let nibble = UInt8(truncatingIfNeeded: value >> (4 * UInt32(digits - 1 - i))) & 0xF
                        start.storeBytes(of: nibble < 10 ? 0x30 + nibble : 0x37 + nibble, toByteOffset: size + i, as: UInt8.self)
                    }
                    size += digits
                } else {
                    flags |= 1 << UInt8(field.rawValue)
                }
            } else {
                let text = pool.bytes(value)
                if size + text.count <= Table.maximumSize {
                    Self.copy(text, to: start + size, sourceEnd: poolEnd)
                    size += text.count
                } else {
                    flags |= 1 << UInt8(field.rawValue)
                }
            }
            start.storeBytes(of: UInt8(size), toByteOffset: 14 + field.rawValue, as: UInt8.self)
        }
        start.storeBytes(of: flags, toByteOffset: 12, as: UInt8.self)
        count += size
    }

    /// Most fields are 16 bytes or fewer: two word copies instead of a call to `memmove` (the
    /// bytes past the field are overwritten by the next one, or lie past the summaries' end).
    @inline(__always)
    private static func copy(_ text: UnsafeRawBufferPointer, to destination: UnsafeMutableRawPointer, sourceEnd: UnsafeRawPointer) {
        guard let source = text.baseAddress, text.count > 0 else { return }
        if text.count <= 16 && source + 16 <= sourceEnd {
            destination.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
        } else {
            destination.copyMemory(from: source, byteCount: text.count)
        }
    }
}
