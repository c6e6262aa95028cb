/// The two sections that make a registration lookup a couple of memory reads (format 1.1):
/// `RSUM`, each registration's summary fields side by side, and `RHSH`, a hash index from
/// N-number to registration row and summary.
///
/// Why they exist: a lookup through `RKEY` and `REGS` alone is a binary search over 2.5 MB of
/// keys, then the row, then for every text field its offset in the string pool and its bytes,
/// a dozen dependent cache misses in a 90 MB file (issue 18 asks for a tenth of SQLite's time
/// for a lookup reading serial number, model code, owner name, city, state and Mode S hex).
/// With them a lookup reads one hash slot and the one summary it names, about 60 bytes that
/// hold the N-number (checked against the key) and those six fields. They duplicate text `REGS` already points to (about 21 MB on
/// the full-size registry, 316,000 registrations), which is the price of that speed. An
/// artifact without them (format 1.0) reads as before, through `RKEY` and the pool.
///
/// `RSUM` (rows: the registrations):
///
/// ```text
/// u32 × rows   start of each registration's summary in the data below, in REGS row order
/// data         per registration, each of `SummaryField` in order (the N-number, then the
///              six fields): a u8 length, then that
///              many bytes; length 255 (`RegistrationSummaries.notInline`) means the field is
///              longer than 254 bytes and is read from REGS and the pool instead. Mode S is
///              its six upper-case hex digits, or empty when the registration has none.
/// ```
///
/// `RHSH` (rows: its slots, a power of two at least 1.5 × the registrations):
///
/// ```text
/// u64 × slots  low 32 bits: REGS row + 1 (0: an empty slot); high 32 bits: that row's
///              RSUM start. A key's first slot is `RegistrationHashIndex.slot(of:)`; a
///              lookup walks on (wrapping) to the slot whose summary holds its N-number, or
///              to an empty slot; the rows are in row order, so among equal N-numbers the
///              first row is found first.
/// ```
///
/// Every value read from them is bounds-checked like the rest of the format: a crafted file
/// gives wrong text, never a read outside the mapping.
extension AircraftSchema.Section {
    /// Each registration's summary: N-number, serial number, model code, owner name, city,
    /// state and Mode S hex, side by side (`RegistrationSummaries`).
    public static let registrationSummaries = FourCC("RSUM")
    /// N-number → (registration row, summary start), open addressing (`RegistrationHashIndex`).
    public static let registrationHash = FourCC("RHSH")
}

extension AircraftSchema {
    /// The fields of a registration summary (`RSUM`), in their stored order.
    public enum SummaryField: Int, CaseIterable, Sendable {
        case nNumber, serialNumber, modelCode, name, city, state, modeSHex

        /// The `REGS` column the field repeats.
        public var column: RegistrationColumn {
            switch self {
            case .nNumber: return .nNumber
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

/// The `RSUM` section, mapped: each registration's summary fields side by side.
///
/// ```swift
/// let summaries = try RegistrationSummaries(file.section(tag), rows: registrations.count, tag: tag, path: file.path)
/// let start = summaries.start(row)
/// summaries.field(.name, at: start).map { String(decoding: $0, as: UTF8.self) }   // "NORTHWIND CHARTER CORP"
/// ```
public struct RegistrationSummaries: @unchecked Sendable {
    /// The length byte of a field kept out of the summary (longer than 254 bytes).
    public static let notInline: UInt8 = 255

    public let count: Int
    @usableFromInline let offsets: UnsafeRawPointer?
    @usableFromInline let data: UnsafeRawPointer?
    @usableFromInline let dataCount: Int

    /// `rows` is the number of registrations: the section must hold their starts.
    public init(_ section: UnsafeRawBufferPointer, rows: Int, tag: FourCC, path: String) throws(ArtifactError) {
        guard rows >= 0, rows <= section.count / 4 else {
            throw .malformedSection(path: path, section: tag.description,
                                    reason: "\(section.count) bytes cannot hold the starts of \(rows) summaries")
        }
        count = rows
        offsets = section.baseAddress
        data = section.baseAddress.map { $0 + rows * 4 }
        dataCount = section.count - rows * 4
    }

    /// Where row `row`'s summary starts in the data (the data's end for a row outside the table).
    @inlinable
    public func start(_ row: Int) -> Int {
        guard UInt(bitPattern: row) < UInt(bitPattern: count), let offsets else { return dataCount }
        return Int(UInt32(littleEndian: offsets.loadUnaligned(fromByteOffset: row * 4, as: UInt32.self)))
    }

    /// The bytes of `field` in the summary starting at `start`, or nil when the field is not
    /// in it (`notInline`). Lengths are checked against the data's end: a start or length past
    /// it reads as empty.
    @inlinable
    public func field(_ field: AircraftSchema.SummaryField, at start: Int) -> UnsafeRawBufferPointer? {
        guard let data else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        var cursor = start
        for _ in 0..<field.rawValue {
            guard cursor < dataCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            let length = data.load(fromByteOffset: cursor, as: UInt8.self)
            cursor += 1 + (length == Self.notInline ? 0 : Int(length))
        }
        guard cursor < dataCount else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let length = data.load(fromByteOffset: cursor, as: UInt8.self)
        if length == Self.notInline { return nil }
        let first = cursor + 1
        return UnsafeRawBufferPointer(start: data + first, count: min(Int(length), dataCount - first))
    }
}

extension RegistrationSummaries {
    /// Whether the summary starting at `start` holds the N-number whose `PackedKey` is `packed`
    /// and whose length is `count` (at most 8 bytes, so the packed key is all of it).
    @inlinable
    public func holds(nNumber packed: UInt64, count: Int, at start: Int) -> Bool {
        guard let stored = field(.nNumber, at: start), stored.count == count, count <= 8 else { return false }
        return PackedKey.pack(stored) == packed
    }
}

/// The `RHSH` section, mapped: N-number → (registration row, summary start).
///
/// ```swift
/// let index = try RegistrationHashIndex(file.section(tag), tag: tag, path: file.path)
/// index.find(PackedKey.pack("N250JT")) { row, summary in summaries.holds(nNumber, at: summary) }   // (row: 7, summary: 412)
/// ```
public struct RegistrationHashIndex: @unchecked Sendable {
    /// Slots in the table (a power of two).
    public let count: Int
    @usableFromInline let slots: UnsafeRawPointer?
    /// `64 - log2(count)`: a key's first slot is the top bits of its hash.
    @usableFromInline let shift: UInt64

    public init(_ section: UnsafeRawBufferPointer, tag: FourCC, path: String) throws(ArtifactError) {
        let slots = section.count / 8
        guard section.count % 8 == 0, slots > 0, slots & (slots - 1) == 0 else {
            throw .malformedSection(path: path, section: tag.description,
                                    reason: "\(section.count) bytes is not a power of two of 8-byte slots")
        }
        count = slots
        self.slots = section.baseAddress
        shift = UInt64(64 - slots.trailingZeroBitCount)
    }

    /// The number of slots for `keys` keys: the least power of two of at least 1.5 × keys (8 at least).
    public static func slotCount(forKeys keys: Int) -> Int {
        var slots = 8
        while slots < keys + keys / 2 { slots *= 2 }
        return slots
    }

    /// A key's first slot in a table of `1 << (64 - shift)` slots: the top bits of a
    /// multiplicative hash (Fibonacci hashing), the same on every machine.
    @inlinable
    public static func slot(of key: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The first (row, summary start) among `key`'s slots that `matches` accepts; nil when
    /// none. Walks at most every slot once, so a crafted table without an empty slot still ends.
    @inlinable
    public func find(_ key: UInt64, matches: (_ row: Int, _ summary: Int) -> Bool) -> (row: Int, summary: Int)? {
        guard let slots else { return nil }
        let mask = count - 1
        var index = Self.slot(of: key, shift: shift)
        for _ in 0..<count {
            let slot = UInt64(littleEndian: slots.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
            let rowPlusOne = Int(truncatingIfNeeded: slot & 0xFFFF_FFFF)
            if rowPlusOne == 0 { return nil }
            let row = rowPlusOne - 1, summary = Int(truncatingIfNeeded: slot >> 32)
            if matches(row, summary) { return (row, summary) }
            index = (index + 1) & mask
        }
        return nil
    }
}
