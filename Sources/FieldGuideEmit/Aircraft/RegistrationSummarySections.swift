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
            // The tables read in place (`RegistrationRows`), so that a batch's misses overlap.
            RegistrationRows.with(registrations) { rows in pool.withUnsafeBytes { raw in
                guard let pool = try? StringPool(raw, path: S.Section.strings.description) else {
                    preconditionFailure("the builder's own string pool does not read back")
                }
                var writer = SummaryWriter(data: base + headerSize, pool: pool, poolEnd: raw.baseAddress! + raw.count)
                var bucket = 0, index = 0
                while index < rowsByBucket.count {
                    let batch = rowsByBucket[index..<min(index + SummaryWriter.batchSize, rowsByBucket.count)]
                    writer.load(batch) { rows.values(Int(order[$0])) }
                    for (position, row) in batch.enumerated() {
                        // Every bucket up to this row's starts here (an empty one where the next does).
                        while bucket < firstRows.count - 1 && firstRows[bucket] <= index + position {
                            directory[bucket] = UInt32(writer.count)
                            bucket += 1
                        }
                        precondition(writer.count <= UInt32.max, "registration summaries past 4 GiB")
                        base.storeBytes(of: UInt32(writer.count).littleEndian, toByteOffset: Int(row) * 4, as: UInt32.self)
                        writer.append(position, row: Int(row), key: keys[Int(row)])
                    }
                    index += batch.count
                }
                while bucket < firstRows.count {
                    directory[bucket] = UInt32(writer.count)
                    bucket += 1
                }
                initialized = headerSize + writer.count
            } }
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
///
/// A batch of rows is loaded first, each step for all of them before the next (their cells,
/// then where their strings are, then the strings' first bytes): in a pool and tables far
/// larger than the caches every step is a miss, and misses that do not wait for each other
/// overlap.
private struct SummaryWriter {
    typealias S = AircraftSchema
    typealias Table = RegistrationSummaryTable
    static let batchSize = 32
    /// The columns a summary reads: the N-number and the summary's fields, the Mode S address last.
    static let columns = [S.RegistrationColumn.nNumber] + S.SummaryField.allCases.map(\.column)
    static let texts = columns.count - 1
    let data: UnsafeMutableRawPointer
    let pool: StringPool
    /// The end of the pool's bytes: a copy reads no further.
    let poolEnd: UnsafeRawPointer
    /// Bytes written.
    private(set) var count = 0
    /// The loaded batch: each row's cells (`columns`), and its texts (all but the address).
    private var cells = [UInt32](repeating: 0, count: batchSize * columns.count)
    private var text = [UnsafeRawBufferPointer](repeating: UnsafeRawBufferPointer(start: nil, count: 0), count: batchSize * texts)
    /// A sink for the early loads.
    private(set) var touched: UInt8 = 0

    init(data: UnsafeMutableRawPointer, pool: StringPool, poolEnd: UnsafeRawPointer) {
        self.data = data
        self.pool = pool
        self.poolEnd = poolEnd
    }

    /// Loads the rows `batch` (`REGS` rows; `locate` gives each one's row of values in its table).
    mutating func load(_ batch: ArraySlice<UInt32>, locate: (Int) -> UnsafePointer<UInt32>) {
        let width = Self.columns.count
        for (position, row) in batch.enumerated() {
            let values = locate(Int(row))
            for (c, column) in Self.columns.enumerated() { cells[position * width + c] = values[column.rawValue] }
        }
        for position in 0..<batch.count {
            for t in 0..<Self.texts { text[position * Self.texts + t] = pool.bytes(cells[position * width + t]) }
        }
        var sink: UInt8 = 0
        for bytes in text[0..<batch.count * Self.texts] where !bytes.isEmpty { sink |= bytes[0] }
        touched |= sink
    }

    /// One summary, of the loaded row at `position`: key, row, flags, bounds, then the six
    /// fields; a field that would take it past `Table.maximumSize` is kept out (its flag set,
    /// its bytes empty).
    mutating func append(_ position: Int, row: Int, key: UInt64) {
        let start = data + count
        let nNumber = text[position * Self.texts]
        let whole = nNumber.count <= 8 && !nNumber.contains(0) && PackedKey.pack(nNumber) == key
        start.storeBytes(of: key.littleEndian, as: UInt64.self)
        start.storeBytes(of: UInt32(truncatingIfNeeded: row).littleEndian, toByteOffset: 8, as: UInt32.self)
        start.storeBytes(of: UInt8(Table.headerSize), toByteOffset: 13, as: UInt8.self)
        var flags: UInt8 = whole ? Table.wholeKey : 0, size = Table.headerSize
        for field in S.SummaryField.allCases {
            if field == .modeSHex {
                // The text of `S.modeSHexText`, written in place: 6 digits (more for a crafted
                // wider value), none when absent.
                let value = cells[position * Self.columns.count + Self.texts]
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
                let bytes = text[position * Self.texts + 1 + field.rawValue]
                if size + bytes.count <= Table.maximumSize {
                    Self.copy(bytes, to: start + size, sourceEnd: poolEnd)
                    size += bytes.count
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
