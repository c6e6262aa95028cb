/// Assembles sections into an artifact file's bytes.
///
/// The output depends only on the sections given (stored in tag order), so identical inputs give
/// byte-identical files.
///
/// ```swift
/// var builder = ArtifactBuilder(kind: AircraftSchema.kind)
/// builder.addSection(AircraftSchema.Section.strings, rows: pool.count, bytes: pool.bytes)
/// try AtomicFile.write(builder.serialize(), to: "output/aircraft.fgb")
/// ```
public struct ArtifactBuilder: Sendable {
    public let kind: FourCC
    private var sections: [(tag: FourCC, rows: Int, bytes: [UInt8])] = []

    public init(kind: FourCC) { self.kind = kind }

    /// Adds a section; tags must be unique.
    public mutating func addSection(_ tag: FourCC, rows: Int, bytes: [UInt8]) {
        precondition(!sections.contains { $0.tag == tag }, "duplicate section \(tag)")
        sections.append((tag, rows, bytes))
    }

    /// The complete file.
    public func serialize() -> [UInt8] {
        let ordered = sections.sorted { $0.tag < $1.tag }
        let tableEnd = ArtifactFormat.headerSize + ordered.count * ArtifactFormat.sectionEntrySize
        var offsets: [Int] = []
        var cursor = align(tableEnd)
        for section in ordered {
            offsets.append(cursor)
            cursor = align(cursor + section.bytes.count)
        }
        let fileSize = cursor

        var out = ByteWriter(capacity: fileSize)
        out.append(ArtifactFormat.magic)
        out.u16(ArtifactFormat.majorVersion)
        out.u16(ArtifactFormat.minorVersion)
        out.u32(kind.rawValue)
        out.u32(UInt32(ordered.count))
        out.u32(0)  // header CRC, patched below
        out.u64(UInt64(fileSize))
        out.zeros(32)
        for (section, offset) in zip(ordered, offsets) {
            out.u32(section.tag.rawValue)
            out.u32(CRC32.checksum(section.bytes))
            out.u64(UInt64(offset))
            out.u64(UInt64(section.bytes.count))
            out.u64(UInt64(section.rows))
        }
        let headerCRC = out.bytes.withUnsafeBytes { CRC32.checksum($0) }
        out.patchU32(headerCRC, at: 20)
        for (section, offset) in zip(ordered, offsets) {
            out.zeros(offset - out.count)
            out.append(section.bytes)
        }
        out.zeros(fileSize - out.count)
        return out.bytes
    }

    private func align(_ value: Int) -> Int {
        (value + ArtifactFormat.alignment - 1) / ArtifactFormat.alignment * ArtifactFormat.alignment
    }
}

/// Little-endian byte output.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public var count: Int { bytes.count }
    public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func zeros(_ n: Int) { if n > 0 { bytes.append(contentsOf: repeatElement(0, count: n)) } }
    public mutating func patchU32(_ v: UInt32, at offset: Int) {
        withUnsafeBytes(of: v.littleEndian) { for i in 0..<4 { bytes[offset + i] = $0[i] } }
    }
}
