/// The on-disk layout shared by every FieldGuide artifact (aircraft, birds).
///
/// All integers are little-endian. A file is a 64-byte header, a section table, then the
/// sections, each starting on an 8-byte boundary:
///
/// ```text
/// offset  size  field
///      0     8  magic "FGUIDE\r\n" (catches text-mode mangling like PNG's magic does)
///      8     2  format major version (readers refuse a major they do not know)
///     10     2  format minor version (additions only; older readers ignore them)
///     12     4  artifact kind, 4 ASCII bytes ("ACFT", "BIRD")
///     16     4  section count
///     20     4  CRC-32 of the header (this field as zero) and the section table
///     24     8  file size in bytes (detects truncation)
///     32    32  reserved, zero
///     64  32×n  section table: tag (4 ASCII), CRC-32 of the section, offset (8), length (8),
///               row count (8)
/// ```
public enum ArtifactFormat {
    /// The 8 bytes every artifact starts with.
    public static let magic: [UInt8] = Array("FGUIDE\r\n".utf8)
    /// The major version this library writes and reads.
    public static let majorVersion: UInt16 = 1
    /// The minor version this library writes.
    ///
    /// 1.1 added the aircraft artifact's `RSUM` and `RHSH` (registration summaries and an
    /// N-number hash index, `RegistrationSummarySchema.swift`): a lookup reading a
    /// registration's list fields became a few memory reads instead of a dozen dependent
    /// cache misses. A 1.0 file has neither and reads as before.
    ///
    /// 1.2 replaced them with `RSMB` and `RBKT` (the summaries in hash-bucket order and a
    /// bucket directory small enough to stay in cache): a lookup is one memory miss instead of
    /// two dependent ones. A 1.1 file's `RSUM` and `RHSH` are no longer read: it reads like 1.0.
    ///
    /// 1.3 added `RTXR`, `MTXR` and `ETXR` (the text `.info` decodes, a record a row,
    /// `TextRecordSchema.swift`): a registration's full record in three memory waits instead of
    /// four, and a few lines instead of about forty. A 1.2 file reads its text through the pool.
    public static let minorVersion: UInt16 = 3
    /// Size of the fixed header.
    public static let headerSize = 64
    /// Size of one section table entry.
    public static let sectionEntrySize = 32
    /// Sections start on multiples of this.
    public static let alignment = 8

    /// The header's CRC-32 as stored at offset 20: the first 20 bytes, that field as zeros,
    /// then the rest of the header and the section table, up to `tableEnd`.
    public static func headerChecksum(_ bytes: UnsafeRawBufferPointer, tableEnd: Int) -> UInt32 {
        var crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<20]))
        crc = withUnsafeBytes(of: UInt32(0)) { CRC32.checksum($0, seed: crc) }
        return CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[24..<tableEnd]), seed: crc)
    }
}

/// A four-character code naming an artifact kind or a section.
public struct FourCC: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `"STRS"` → the code stored little-endian so the bytes on disk read as the text.
    public init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 4, "a FourCC has four ASCII characters")
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(text.utf8Start[i]) << (8 * UInt32(i)) }
        rawValue = value
    }

    public var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * UInt32($0))) }
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: bytes, as: UTF8.self) }
        return "0x" + String(rawValue, radix: 16)
    }

    public static func < (a: FourCC, b: FourCC) -> Bool { a.description < b.description }
}

/// One entry of an artifact's section table.
public struct SectionInfo: Sendable, Hashable, Codable {
    public var tag: String
    public var offset: UInt64
    public var length: UInt64
    public var rows: UInt64
    public var crc32: UInt32

    public init(tag: String, offset: UInt64, length: UInt64, rows: UInt64, crc32: UInt32) {
        self.tag = tag; self.offset = offset; self.length = length; self.rows = rows; self.crc32 = crc32
    }
}
