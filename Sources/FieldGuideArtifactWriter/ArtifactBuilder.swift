import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideWorkers
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
    private var sections: [Section] = []
    /// Where large sections wait for `write(to:)`, when given.
    private let spool: SectionSpool?

    /// A section with its CRC-32: a large section's is computed on a thread of its own from the
    /// moment it is added, while the caller builds the next (only writing the file needs it).
    /// With a spool, that thread then stores the section there and lets its bytes go.
    private struct Section: Sendable {
        let tag: FourCC
        let rows: Int
        let count: Int
        private let stored: Stored
        private let checksum: Checksum

        private enum Stored: Sendable {
            case memory([UInt8])
            case spooled(SectionSpool, offset: Int)
        }

        private enum Checksum: Sendable {
            case done(UInt32)
            case running(BackgroundTask<UInt32>)
        }

        /// Sections of at least this many bytes get their CRC on a thread of their own.
        static let backgroundChecksumSize = 1 << 20

        init(tag: FourCC, rows: Int, bytes: [UInt8], spool: SectionSpool?) {
            self.tag = tag
            self.rows = rows
            count = bytes.count
            if let spool, bytes.count >= SectionSpool.threshold {
                let offset = spool.reserve(bytes.count)
                stored = .spooled(spool, offset: offset)
                checksum = .running(BackgroundTask {
                    let crc = CRC32.checksum(bytes)
                    try spool.store(bytes, at: offset)
                    return crc
                })
            } else {
                stored = .memory(bytes)
                checksum = bytes.count >= Self.backgroundChecksumSize
                    ? .running(BackgroundTask { CRC32.checksum(bytes) }) : .done(CRC32.checksum(bytes))
            }
        }

        /// A section already in the spool (`SectionSpool.stream(count:_:)`), with its CRC-32
        /// or the error that kept it from being stored (thrown by the write, as a store's).
        init(tag: FourCC, rows: Int, spooled section: SpooledSection) {
            self.tag = tag
            self.rows = rows
            count = section.count
            stored = .spooled(section.spool, offset: section.offset)
            switch section.crc {
            case let .success(crc): checksum = .done(crc)
            case let .failure(error): checksum = .running(BackgroundTask { throw error })
            }
        }

        /// The CRC-32 of the bytes; waits for it when it is still being computed (and, for a
        /// spooled section, stored: its error, if storing failed).
        func crc() throws(LocatedError) -> UInt32 {
            switch checksum {
            case let .done(crc): return crc
            case let .running(task):
                switch task.wait() {
                case let .success(crc): return crc
                case let .failure(error):
                    throw (error as? LocatedError) ?? LocatedError(.unwritable, file: "", message: "\(error)")
                }
            }
        }

        /// Calls `body` with the bytes, in order (a spooled section's in chunks, read back).
        func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
            switch stored {
            case let .memory(bytes): try bytes.withUnsafeBytes(body)
            case let .spooled(spool, offset):
                _ = try crc()  // stored once its task is done
                try spool.read(at: offset, count: count, body)
            }
        }
    }

    /// A builder that keeps every section in memory until the file is written, or with a
    /// `spool`, stores its large sections there as they are added (`SectionSpool`): memory then
    /// holds only the sections being built.
    public init(kind: FourCC, spool: SectionSpool? = nil) {
        self.kind = kind
        self.spool = spool
    }

    /// Adds a section; tags must be unique.
    ///
    /// `spooled: false` keeps a large section in memory even with a spool: for the last one
    /// built, right before the write, where storing it only to read it back is pure cost.
    public mutating func addSection(_ tag: FourCC, rows: Int, bytes: [UInt8], spooled: Bool = true) {
        precondition(!sections.contains { $0.tag == tag }, "duplicate section \(tag)")
        sections.append(Section(tag: tag, rows: rows, bytes: bytes, spool: spooled ? spool : nil))
    }

    /// Adds a section already stored in the spool (`SectionSpool.stream(count:_:)`).
    public mutating func addSection(_ tag: FourCC, rows: Int, spooled section: SpooledSection) {
        precondition(!sections.contains { $0.tag == tag }, "duplicate section \(tag)")
        sections.append(Section(tag: tag, rows: rows, spooled: section))
    }

    /// Adds a section a worker thread built: its bytes, or the section it stored in the spool.
    public mutating func addSection(_ tag: FourCC, rows: Int, _ payload: SectionPayload) {
        switch payload {
        case let .bytes(bytes): addSection(tag, rows: rows, bytes: bytes)
        case let .spooled(section): addSection(tag, rows: rows, spooled: section)
        }
    }

    /// Adds a row table as a section: its rows and serialized bytes.
    public mutating func addSection<Column: RowColumn>(_ tag: FourCC, _ table: RowTableBuilder<Column>) {
        addSection(tag, rows: table.count, bytes: table.serialize())
    }

    /// Adds a row table whose string ids still count the pool in insertion order: first they
    /// take the sorted pool's ids (`remap`, from `StringPoolBuilder.finish()`).
    public mutating func addSection<Column: RowColumn>(_ tag: FourCC, _ table: inout RowTableBuilder<Column>, strings remap: [UInt32]) {
        table.remapStrings(remap)
        addSection(tag, table)
    }

    /// Adds sorted packed keys as a key-table section.
    public mutating func addSection(_ tag: FourCC, keys: [UInt64]) {
        addSection(tag, rows: keys.count, bytes: KeyTable.serialize(keys))
    }

    /// The complete file, in memory. Throws only for a spooled section that could not be
    /// stored or read back.
    public func serialize() throws(LocatedError) -> [UInt8] {
        var out: [UInt8] = []
        let plan = Plan(sections.sorted { $0.tag < $1.tag }, alignment: ArtifactFormat.alignment)
        let (header, _) = try header(plan)
        try Self.located { try plan.forEachPiece(header: header) { out.append(contentsOf: $0) } }
        return out
    }

    /// Writes the file atomically, section by section (no in-memory copy of the whole file).
    ///
    /// `observe` sees every byte written, in order (to hash the file in the same pass).
    /// Returns the file size and the section table as written.
    ///
    /// The header goes first: it holds the sections' CRC-32s, each computed when its section
    /// was added (a spooled one's before it was stored). Then one pass over the file's bytes,
    /// each spooled section read back once: a large piece goes to disk on a second thread while
    /// this one observes it (full size: 0.36-0.47 s for reading the spool twice, once to write
    /// and once to hash, one after the other). The file is streamed past the page cache where
    /// the file system allows (`AtomicFileWriter.Stream`): nothing here reads it back, and
    /// filling fresh cache pages was most of the cost of writing it.
    @discardableResult
    public func write(to path: String, observe: (UnsafeRawBufferPointer) -> Void = { _ in }) throws(LocatedError)
        -> (bytes: Int, sections: [SectionInfo]) {
        let prepared = try prepare(path, observe: observe)
        try prepared.file.commit()
        return (prepared.bytes, prepared.sections)
    }

    /// `write(to:observe:)` up to the rename: the artifact written beside `path` and flushed to
    /// disk, with the writer to commit together with the stage's manifest (`OutputSet`).
    public func prepare(_ path: String, observe: (UnsafeRawBufferPointer) -> Void = { _ in }) throws(LocatedError)
        -> (file: AtomicFileWriter, bytes: Int, sections: [SectionInfo]) {
        let file = try AtomicFileWriter(path: path)
        let plan = Plan(sections.sorted { $0.tag < $1.tag }, alignment: ArtifactFormat.alignment)
        do {
            let (header, sections) = try header(plan)
            let stream = AtomicFileWriter.Stream(file: file)
            try Self.located {
                try plan.forEachPiece(header: header) { piece in
                    guard piece.count >= Self.parallelPieceSize else {
                        try stream.write(piece)
                        observe(piece)
                        return
                    }
                    // The piece stays valid until this closure returns: the write is waited for.
                    let handOver = UncheckedSendable(value: (stream, piece))
                    let writing = BackgroundTask { () throws -> Void in try handOver.value.0.write(handOver.value.1) }
                    observe(piece)
                    try writing.value()
                }
            }
            try stream.finish()
            try file.sync()
            return (file, plan.fileSize, sections)
        } catch {
            file.abort()
            throw error
        }
    }

    /// Pieces of at least this many bytes are written on a second thread while `observe` sees them.
    static let parallelPieceSize = 256 << 10

    /// `body`'s error as the `LocatedError` it is (spooled sections throw nothing else).
    private static func located(_ body: () throws -> Void) throws(LocatedError) {
        do { try body() } catch {
            throw (error as? LocatedError) ?? LocatedError(.unreadable, file: "", message: "\(error)")
        }
    }

    /// The header and section table (with every section's CRC-32), and the table as written.
    private func header(_ plan: Plan) throws(LocatedError) -> (bytes: [UInt8], sections: [SectionInfo]) {
        var infos: [SectionInfo] = []
        var header = ByteWriter(capacity: plan.tableEnd)
        header.append(ArtifactFormat.magic)
        header.u16(ArtifactFormat.majorVersion)
        header.u16(ArtifactFormat.minorVersion)
        header.u32(kind.rawValue)
        header.u32(UInt32(plan.ordered.count))
        header.u32(0)  // header CRC, patched below
        header.u64(UInt64(plan.fileSize))
        header.zeros(32)
        for (section, offset) in zip(plan.ordered, plan.offsets) {
            let crc = try section.crc()
            header.u32(section.tag.rawValue)
            header.u32(crc)
            header.u64(UInt64(offset))
            header.u64(UInt64(section.count))
            header.u64(UInt64(section.rows))
            infos.append(SectionInfo(tag: section.tag.description, offset: UInt64(offset), length: UInt64(section.count),
                                     rows: UInt64(section.rows), crc32: crc))
        }
        let headerCRC = header.bytes.withUnsafeBytes { CRC32.checksum($0) }
        header.patchU32(headerCRC, at: 20)
        return (header.bytes, infos)
    }

    /// Where everything goes: sections in tag order, each at an aligned offset after the table.
    private struct Plan: Sendable {
        let ordered: [Section]
        let tableEnd: Int
        let offsets: [Int]
        let fileSize: Int
        let alignment: Int

        init(_ ordered: [Section], alignment: Int) {
            func align(_ value: Int) -> Int { (value + alignment - 1) / alignment * alignment }
            self.ordered = ordered
            self.alignment = alignment
            tableEnd = ArtifactFormat.headerSize + ordered.count * ArtifactFormat.sectionEntrySize
            var offsets: [Int] = []
            var cursor = align(tableEnd)
            for section in ordered {
                offsets.append(cursor)
                cursor = align(cursor + section.count)
            }
            self.offsets = offsets
            fileSize = cursor
        }

        /// Calls `body` with `header`, then each section after its padding, then the final padding.
        func forEachPiece(header: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
            try header.withUnsafeBytes(body)
            var written = tableEnd
            let zeros = [UInt8](repeating: 0, count: alignment)
            for (section, offset) in zip(ordered, offsets) {
                try zeros.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<(offset - written)])) }
                try section.forEachChunk(body)
                written = offset + section.count
            }
            try zeros.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<(fileSize - written)])) }
        }
    }
}

/// Little-endian byte output.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    public var count: Int { bytes.count }
    public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
    public mutating func append(_ other: UnsafeRawBufferPointer) { bytes.append(contentsOf: other) }
    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func zeros(_ n: Int) { if n > 0 { bytes.append(contentsOf: repeatElement(0, count: n)) } }
    public mutating func patchU32(_ v: UInt32, at offset: Int) {
        withUnsafeBytes(of: v.littleEndian) { for i in 0..<4 { bytes[offset + i] = $0[i] } }
    }
}

extension ArtifactBuilder {
    /// Recomputes section `index`'s CRC-32 in the section table, then the header's, in place:
    /// for tools that change a section's bytes on purpose (the crafted-artifact tests and the
    /// fuzzers' mutator, which keep every checksum valid so inputs reach the readers). Does
    /// nothing to bytes that are not a whole artifact header and table.
    ///
    /// ```swift
    /// bytes.withUnsafeMutableBytes { ArtifactBuilder.reseal($0, section: 2) }
    /// ```
    public static func reseal(_ bytes: UnsafeMutableRawBufferPointer, section index: Int) {
        let raw = UnsafeRawBufferPointer(bytes)
        guard raw.count >= ArtifactFormat.headerSize, Array(raw[0..<8]) == ArtifactFormat.magic else { return }
        let count = Int(raw.le(UInt32.self, 16))
        let tableEnd = ArtifactFormat.headerSize + count * ArtifactFormat.sectionEntrySize
        guard index >= 0, index < count, count < 4096, tableEnd <= raw.count else { return }
        let entry = ArtifactFormat.headerSize + index * ArtifactFormat.sectionEntrySize
        // Any bytes may stand in the entry (a test's or a fuzzer's surgery): a word past `Int.max`
        // names no section here, and the bytes are left as they are.
        guard let offset = Int(exactly: raw.le(UInt64.self, entry + 8)), let length = Int(exactly: raw.le(UInt64.self, entry + 16)),
              offset >= tableEnd, length >= 0, offset <= raw.count - length else { return }
        bytes.storeBytes(of: CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + length])).littleEndian,
                         toByteOffset: entry + 4, as: UInt32.self)
        bytes.storeBytes(of: ArtifactFormat.headerChecksum(raw, tableEnd: tableEnd).littleEndian, toByteOffset: 20, as: UInt32.self)
    }
}
