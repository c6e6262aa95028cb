import CPrefetch

/// The two sections that make a registration lookup one memory miss (format 1.2): `RSMB`, each
/// registration's summary (N-number, REGS row and six fields) stored in hash-bucket order, and
/// `RBKT`, the small bucket directory saying where each bucket's summaries start.
///
/// Why they exist: a lookup through `RKEY` and `REGS` alone is a binary search over 2.5 MB of
/// keys, then the row, then for every text field its offset in the string pool and its bytes,
/// a dozen dependent cache misses in a 90 MB file (issue 18 asks for a tenth of SQLite's time
/// for a lookup reading serial number, model code, owner name, city, state and Mode S hex).
/// Format 1.1 (`RSUM` + `RHSH`) cut that to two dependent misses: a slot in a 4 MB hash table,
/// then the summary it named in 21 MB. Here the directory is a fraction of that (4 bytes a
/// bucket, one bucket per 8 to 16 registrations: 128 KB for the full-size registry's 316,000,
/// which stays in the processor's L2 cache), and the summaries of a bucket lie side by side, so
/// a lookup reads one directory entry (a cache hit), requests all the bucket's lines at once
/// (about ten summaries of 70 bytes) and walks them: one wait for memory. The summaries
/// duplicate text `REGS` already points to (about 22 MB on the full-size registry), the price
/// of that speed.
///
/// Why so few buckets: the directory is only a hit while it stays cached, and a lookup's own
/// summary lines push it out. Measured on the full-size registry (random keys, one lookup at a
/// time): 2^18 buckets (1 MB) 184 ns median to find a summary, 2^16 (256 KB, 8 lines touched)
/// 163 ns, 2^15 (128 KB, about 11 lines touched) 132 ns, 2^14 no faster. Files written with
/// 2^18 buckets (about registrations / 2, until this was measured) read the same way.
///
/// `RSMB` (rows: the registrations):
///
/// ```text
/// u32 × rows   start of each registration's summary in the data below, in REGS row order
///              (records found by Mode S or a search read their summary through it)
/// data         the summaries, bucket by bucket (rows in REGS order within a bucket):
///   +0   u64   the N-number's PackedKey (big-endian bytes, zero-padded), little-endian
///   +8   u32   its REGS row
///   +12  u8    flags: bit i (0-5) set when `SummaryField(rawValue: i)` is kept out of the
///              summary (read from REGS and the pool); bit 7 set when the key is the whole
///              N-number (at most 8 bytes, none zero), so the N-number is read from the key
///   +13  u8×7  bounds: field i is the bytes [bounds[i], bounds[i+1]) from the summary's start;
///              bounds[0] is 20 (the header's size), bounds[6] is the summary's size (≤ 255)
///   +20        the six fields' bytes. Mode S is its six upper-case hex digits, or empty when
///              the registration has none. A field that would take the summary past 255 bytes
///              is kept out (flag set, empty bytes).
/// ```
///
/// `RBKT` (rows: buckets + 1; buckets a power of two, `RegistrationSummaryTable.bucketCount(forKeys:)`;
/// a reader takes any power of two):
///
/// ```text
/// u32 × (buckets + 1)  where each bucket's summaries start in RSMB's data; bucket b is
///                      [dir[b], dir[b + 1]). A key's bucket is `RegistrationSummaryTable.bucket(of:)`:
///                      the top bits of a multiplicative hash, the same on every machine.
/// ```
///
/// Every value read from them is bounds-checked: a crafted directory or summary gives wrong
/// text or not-found, never a read outside the mapping; sizes that cannot hold the table are a
/// typed error at open. An artifact without them reads through `RKEY` and the pool (format 1.0
/// and 1.1; a 1.1 file's `RSUM` and `RHSH` are ignored).
extension AircraftSchema.Section {
    /// Each registration's summary in bucket order (`RegistrationSummaryTable`).
    public static let bucketedSummaries = FourCC("RSMB")
    /// Where each bucket's summaries start in `RSMB` (`RegistrationSummaryTable`).
    public static let summaryBuckets = FourCC("RBKT")
}

extension AircraftSchema {
    /// The text fields of a registration summary (`RSMB`), in their stored order. (The N-number
    /// is the summary's key.)
    public enum SummaryField: Int, CaseIterable, Sendable {
        case serialNumber, modelCode, name, city, state, modeSHex

        /// The `REGS` column the field repeats.
        public var column: RegistrationColumn {
            switch self {
            case .serialNumber: return .serialNumber
            case .modelCode: return .modelCode
            case .name: return .name
            case .city: return .city
            case .state: return .state
            case .modeSHex: return .modeSHex
            }
        }
    }

    /// The ICAO address stored in `REGS` as the text a reader shows: six upper-case hex digits
    /// (more when a crafted value has more), nil when absent (`UInt32.max`).
    ///
    /// ```swift
    /// AircraftSchema.modeSHexText(0xA1B2C3)   // "A1B2C3"
    /// AircraftSchema.modeSHexText(0x1F)       // "00001F"
    /// ```
    public static func modeSHexText(_ address: UInt32) -> String? {
        address == UInt32.max ? nil : hexDigits(address)
    }

    /// `address` as upper-case hex digits, zero-padded to six (more when it needs more):
    /// written into one string, without the intermediate strings of `String(_:radix:)`.
    ///
    /// ```swift
    /// AircraftSchema.hexDigits(0xAC6CD2)   // "AC6CD2"
    /// ```
    public static func hexDigits(_ address: UInt32) -> String {
        let digits = address > 0xFF_FFFF ? (32 - address.leadingZeroBitCount + 3) / 4 : 6
        return String(unsafeUninitializedCapacity: digits) { buffer in
            for i in 0..<digits {
                let nibble = UInt8(truncatingIfNeeded: address >> (4 * UInt32(digits - 1 - i))) & 0xF
                buffer[i] = nibble < 10 ? 0x30 + nibble : 0x37 + nibble
            }
            return digits
        }
    }
}

/// `RSMB` and `RBKT`, mapped: a registration's summary from its N-number in one directory entry
/// and a short walk, or from its row.
///
/// ```swift
/// let table = try RegistrationSummaryTable(summaries: file.section(AircraftSchema.Section.bucketedSummaries),
///                                          directory: file.section(AircraftSchema.Section.summaryBuckets),
///                                          rows: registrations.count, path: file.path)
/// if let found = table.find(PackedKey.pack("N250JT")) {
///     table.field(.name, at: found.start).map(ArtifactText.string)   // "NORTHWIND CHARTER CORP"
/// }
/// ```
public struct RegistrationSummaryTable: @unchecked Sendable {
    /// Bytes before a summary's fields: key, row, flags, bounds.
    public static let headerSize = 20
    /// A summary's largest size (its bounds are bytes).
    public static let maximumSize = 255
    /// Byte offsets inside a summary.
    @usableFromInline static let rowOffset = 8, flagsOffset = 12, boundsOffset = 13
    /// The flag saying the key is the whole N-number.
    public static let wholeKey: UInt8 = 0x80

    /// Registrations (the starts' count).
    public let rows: Int
    /// Buckets in the directory (a power of two).
    public let buckets: Int
    @usableFromInline let starts: UnsafeRawPointer?
    @usableFromInline let data: UnsafeRawPointer?
    @usableFromInline let dataCount: Int
    @usableFromInline let directory: UnsafeRawPointer?
    /// `64 - log2(buckets)`: a key's bucket is the top bits of its hash.
    @usableFromInline let shift: UInt64

    /// `rows` is the number of registrations: `summaries` must hold their starts, and
    /// `directory` a power of two of buckets and the end.
    public init(summaries: UnsafeRawBufferPointer, directory: UnsafeRawBufferPointer, rows: Int, path: String) throws(ArtifactError) {
        guard rows >= 0, rows <= summaries.count / 4 else {
            throw .malformedSection(path: path, section: AircraftSchema.Section.bucketedSummaries.description,
                                    reason: "\(summaries.count) bytes cannot hold the starts of \(rows) summaries")
        }
        let buckets = directory.count / 4 - 1
        guard directory.count % 4 == 0, buckets > 0, buckets & (buckets - 1) == 0, let base = directory.baseAddress else {
            throw .malformedSection(path: path, section: AircraftSchema.Section.summaryBuckets.description,
                                    reason: "\(directory.count) bytes is not a power of two of buckets and their end")
        }
        self.rows = rows
        self.buckets = buckets
        starts = summaries.baseAddress
        data = summaries.baseAddress.map { $0 + rows * 4 }
        dataCount = summaries.count - rows * 4
        self.directory = base
        shift = UInt64(64 - buckets.trailingZeroBitCount)
    }

    /// The number of buckets for `keys` keys: the greatest power of two of at most keys / 8
    /// (1 at least), so 8 to 16 keys a bucket (32,768 buckets, a 128 KB directory, for the
    /// full-size registry's 316,000).
    public static func bucketCount(forKeys keys: Int) -> Int {
        var buckets = 1
        while buckets * 16 <= keys { buckets *= 2 }
        return buckets
    }

    /// Lines of a bucket requested with its first (`touchLines`): a bucket of 16 summaries of
    /// the usual 70 bytes and some to spare.
    @usableFromInline static let touchedLines = 24

    /// A key's bucket among `1 << (64 - shift)`: the top bits of a multiplicative hash
    /// (Fibonacci hashing), the same on every machine.
    @inlinable
    public static func bucket(of key: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The row and summary start of the first summary in `key`'s bucket whose key is `key` and
    /// the whole N-number; nil when none. A crafted directory or summary size ends the walk
    /// (every summary is at least its header long), and a row past the table is not found.
    @inlinable
    public func find(_ key: UInt64) -> (row: Int, start: Int)? {
        guard let data, let directory else { return nil }
        let bucket = Self.bucket(of: key, shift: shift)
        var cursor = Int(UInt32(littleEndian: directory.loadUnaligned(fromByteOffset: bucket * 4, as: UInt32.self)))
        let end = min(dataCount, Int(UInt32(littleEndian: directory.loadUnaligned(fromByteOffset: bucket * 4 + 4, as: UInt32.self))))
        touchLines(data, from: cursor, to: end)
        while cursor + Self.headerSize <= end {
            let summary = data + cursor
            let size = Int(summary.load(fromByteOffset: Self.boundsOffset + 6, as: UInt8.self))
            if UInt64(littleEndian: summary.loadUnaligned(as: UInt64.self)) == key,
               summary.load(fromByteOffset: Self.flagsOffset, as: UInt8.self) & Self.wholeKey != 0 {
                let row = Int(UInt32(littleEndian: summary.loadUnaligned(fromByteOffset: Self.rowOffset, as: UInt32.self)))
                return row < rows ? (row, cursor) : nil
            }
            guard size >= Self.headerSize else { return nil }
            cursor += size
        }
        return nil
    }

    /// Requests each cache line of `from..<to` after the first (at most `touchedLines`), so that
    /// their misses overlap the first one's instead of following it: the walk over the bucket
    /// finds the next summary's place only in the summary before it, and the fields of the one
    /// found are read next. A bucket is about ten summaries of 70 bytes, so about eleven lines,
    /// all requested at once: one wait for memory, not one a line. Prefetches, not loads: a
    /// load that misses keeps every instruction after it from retiring until its line comes.
    @inlinable @inline(__always)
    func touchLines(_ data: UnsafeRawPointer, from: Int, to end: Int) {
        // The next line's start as an offset from `data` (lines are aligned in memory, not in the data).
        let base = Int(bitPattern: data)
        var line = ((base + from) | 63) + 1 - base
        // Ends at the bucket's last line: a loop over all `touchedLines` with the end as a
        // filter ran its two dozen turns on every lookup: about 60 instructions of skips.
        let last = min(end, line &+ 64 &* Self.touchedLines)
        while line < last {
            fieldguide_prefetch(data + line)
            line &+= 64
        }
    }

    /// Where row `row`'s summary starts in the data (the data's end for a row outside the table).
    @inlinable
    public func start(_ row: Int) -> Int {
        guard UInt(bitPattern: row) < UInt(bitPattern: rows), let starts else { return dataCount }
        return Int(UInt32(littleEndian: starts.loadUnaligned(fromByteOffset: row * 4, as: UInt32.self)))
    }

    /// The bytes of `field` in the summary starting at `start`, or nil when the field is kept
    /// out of it (or no summary fits there). Bounds are checked against the data's end: a crafted
    /// pair out of order or past it reads as empty.
    @inlinable @inline(__always)
    public func field(_ field: AircraftSchema.SummaryField, at start: Int) -> UnsafeRawBufferPointer? {
        guard let data, start >= 0, start <= dataCount - Self.headerSize else { return nil }
        let summary = data + start
        let flags = summary.load(fromByteOffset: Self.flagsOffset, as: UInt8.self)
        guard flags & (1 << UInt8(field.rawValue)) == 0 else { return nil }
        // Both bounds in one load: the field's start in the low byte, its end in the high one.
        let bounds = UInt16(littleEndian: summary.loadUnaligned(fromByteOffset: Self.boundsOffset + field.rawValue, as: UInt16.self))
        let first = Int(bounds & 0xFF), end = Int(bounds >> 8)
        guard first <= end, end <= dataCount - start else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: summary + first, count: end - first)
    }

    /// `field` of the summary starting at `start` as a `String` (`ArtifactText`, inlined: a
    /// lookup's hottest path), or nil when the field is kept out of it.
    @inlinable @inline(__always)
    public func text(_ field: AircraftSchema.SummaryField, at start: Int) -> String? {
        if let summary = wholeSummary(at: start) { return Self.text(field, summary: summary) }
        return self.field(field, at: start).map(ArtifactText.inlinedString)
    }

    /// `field` of the summary starting at `start` when it is short ASCII (at most 15 bytes, the
    /// usual case), else nil: the field is kept out, longer, not ASCII, or its summary lies too
    /// near the data's end; then `text(_:at:)` has the answer.
    ///
    /// Why a second form: it is small enough to inline into an app's code with the lookup (a
    /// few loads, a compare and the inline string's two words), where `text(_:at:)`, with its
    /// paths for long and non-ASCII text, is not.
    @inlinable @inline(__always)
    public func shortText(_ field: AircraftSchema.SummaryField, at start: Int) -> String? {
        guard let summary = wholeSummary(at: start), let (first, count) = Self.place(field, summary: summary) else { return nil }
        // Bounds out of order give a negative count, which `inlineASCII` refuses like a long one.
        return ArtifactText.inlineASCII(padded: summary + first, count: count)
    }

    /// The summary starting at `start` when the largest summary and 16 bytes past it fit there
    /// (all but the data's last 271 bytes): one check for the whole summary, so no field needs
    /// its own. Nil otherwise.
    @inlinable @inline(__always)
    func wholeSummary(at start: Int) -> UnsafeRawPointer? {
        guard let data, start >= 0, start <= dataCount &- (Self.maximumSize + 16) else { return nil }
        return data + start
    }

    /// Where `field` lies in the summary at `summary`: its first byte and its length (negative
    /// for a crafted pair of bounds out of order); nil when the field is kept out.
    @inlinable @inline(__always)
    static func place(_ field: AircraftSchema.SummaryField, summary: UnsafeRawPointer) -> (first: Int, count: Int)? {
        guard summary.load(fromByteOffset: flagsOffset, as: UInt8.self) & (1 << UInt8(field.rawValue)) == 0 else { return nil }
        // Both bounds in one load: the field's start in the low byte, its end in the high one.
        let bounds = UInt16(littleEndian: summary.loadUnaligned(fromByteOffset: boundsOffset + field.rawValue, as: UInt16.self))
        let first = Int(bounds & 0xFF)
        return (first, Int(bounds >> 8) &- first)
    }

    /// `field` of the summary at `summary`, of which `maximumSize + 16` bytes are readable, or
    /// nil when the field is kept out; a crafted pair of bounds out of order reads as empty.
    ///
    /// Short ASCII is made without a branch on its length (`ArtifactText.inlineASCII(padded:count:)`):
    /// a field ends at most 255 bytes into its summary, so the 16 bytes from its start are readable.
    @inlinable @inline(__always)
    static func text(_ field: AircraftSchema.SummaryField, summary: UnsafeRawPointer) -> String? {
        guard let (first, count) = place(field, summary: summary) else { return nil }
        guard count >= 0 else { return "" }
        return ArtifactText.inlineASCII(padded: summary + first, count: count)
            ?? ArtifactText.inlinedString(UnsafeRawBufferPointer(start: summary + first, count: count))
    }

    /// The packed N-number of the summary starting at `start` when it is the whole N-number,
    /// else nil (then the N-number is read from `REGS`).
    @inlinable
    public func nNumber(at start: Int) -> UInt64? {
        guard let data, start >= 0, start <= dataCount - Self.headerSize else { return nil }
        let summary = data + start
        guard summary.load(fromByteOffset: Self.flagsOffset, as: UInt8.self) & Self.wholeKey != 0 else { return nil }
        return UInt64(littleEndian: summary.loadUnaligned(as: UInt64.self))
    }
}
