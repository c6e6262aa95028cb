import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A read-only, memory-mapped artifact: header and section table parsed, records untouched.
///
/// Opening maps the file and checks the magic, the version, the size, the header checksum and
/// (with `.full`, the default) every section's CRC-32. Nothing is decoded until asked for.
///
/// ```swift
/// let file = try ArtifactFile(path: "output/aircraft.fgb", expectedKind: AircraftSchema.kind)
/// let strings = try file.section(AircraftSchema.Section.strings)
/// ```
public final class ArtifactFile: @unchecked Sendable {
    /// How much of the file to check when opening.
    public enum Verification: Sendable {
        /// Header, section table and every section's checksum (reads the whole file once).
        case full
        /// Header and section table only; call `verify()` to check the sections later.
        case headerOnly
    }

    public let path: String
    public let kind: FourCC
    public let majorVersion: UInt16
    public let minorVersion: UInt16
    public let sections: [SectionInfo]
    /// The mapped bytes of the whole file (valid while this object lives).
    public let bytes: UnsafeRawBufferPointer
    private let sectionsByTag: [FourCC: SectionInfo]

    public init(path: String, expectedKind: FourCC? = nil, verification: Verification = .full) throws(ArtifactError) {
        self.path = path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .io(path: path, reason: (info.st_mode & S_IFMT) == S_IFDIR ? "is a directory, not an artifact file" : "not a regular file")
        }
        let size = Int(info.st_size)
        guard size >= ArtifactFormat.headerSize else {
            if size >= 8, let head = try? Self.readPrefix(fd: fd, count: 8), head != ArtifactFormat.magic {
                throw .badMagic(path: path)
            }
            throw .truncated(path: path, expectedBytes: UInt64(ArtifactFormat.headerSize), foundBytes: UInt64(size))
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw .io(path: path, reason: "mmap failed: \(String(cString: strerror(errno)))")
        }
        let bytes = UnsafeRawBufferPointer(start: mapped, count: size)
        do throws(ArtifactError) {
            let header = try Self.parseHeader(bytes, path: path)
            if let expectedKind, header.kind != expectedKind {
                throw ArtifactError.wrongKind(path: path, expected: expectedKind.description, found: header.kind.description)
            }
            self.bytes = bytes
            self.kind = header.kind
            self.majorVersion = header.major
            self.minorVersion = header.minor
            self.sections = header.sections.map(\.info)
            var byTag: [FourCC: SectionInfo] = [:]
            for section in header.sections { byTag[FourCC(rawValue: section.tagValue)] = section.info }
            self.sectionsByTag = byTag
        } catch {
            munmap(mapped, size)
            throw error
        }
        if verification == .full {
            // The check reads every byte: ask for the whole file at once. A file just written
            // past the page cache (emit-aircraft's, read by the nightly's next stages) otherwise
            // comes in by page faults, a readahead window at a time: 0.30 s against 0.06 s warm
            // for the full-size aircraft artifact. Advice only: its result does not matter.
            _ = madvise(mapped, size, MADV_WILLNEED)
            try verify()
        }
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }

    /// Checks every section's CRC-32 against its bytes.
    public func verify() throws(ArtifactError) {
        for section in sections {
            let found = CRC32.checksum(slice(section))
            if found != section.crc32 {
                throw .checksumMismatch(path: path, section: section.tag, expected: section.crc32, found: found)
            }
        }
    }

    /// The bytes of a section, or `malformedSection` if the artifact has none with that tag.
    public func section(_ tag: FourCC) throws(ArtifactError) -> UnsafeRawBufferPointer {
        guard let info = sectionsByTag[tag] else {
            throw .malformedSection(path: path, section: tag.description, reason: "missing")
        }
        return slice(info)
    }

    /// The section table entry for `tag`, if present.
    public func info(_ tag: FourCC) -> SectionInfo? { sectionsByTag[tag] }

    private func slice(_ info: SectionInfo) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[Int(info.offset)..<Int(info.offset + info.length)])
    }

    private struct Header {
        var kind: FourCC
        var major: UInt16
        var minor: UInt16
        var sections: [(tagValue: UInt32, info: SectionInfo)]
    }

    private static func parseHeader(_ bytes: UnsafeRawBufferPointer, path: String) throws(ArtifactError) -> Header {
        guard Array(bytes[0..<8]) == ArtifactFormat.magic else { throw .badMagic(path: path) }
        let major = bytes.le(UInt16.self, 8)
        let minor = bytes.le(UInt16.self, 10)
        guard major == ArtifactFormat.majorVersion else {
            throw .unsupportedVersion(path: path, major: major, minor: minor, supportedMajor: ArtifactFormat.majorVersion)
        }
        let kind = FourCC(rawValue: bytes.le(UInt32.self, 12))
        let count = Int(bytes.le(UInt32.self, 16))
        let storedCRC = bytes.le(UInt32.self, 20)
        let declaredSize = bytes.le(UInt64.self, 24)
        guard declaredSize == UInt64(bytes.count) else {
            throw .truncated(path: path, expectedBytes: declaredSize, foundBytes: UInt64(bytes.count))
        }
        let tableEnd = ArtifactFormat.headerSize + count * ArtifactFormat.sectionEntrySize
        guard count < 4096, tableEnd <= bytes.count else {
            throw .truncated(path: path, expectedBytes: UInt64(tableEnd), foundBytes: UInt64(bytes.count))
        }
        let crc = ArtifactFormat.headerChecksum(bytes, tableEnd: tableEnd)
        guard crc == storedCRC else {
            throw .checksumMismatch(path: path, section: "header", expected: storedCRC, found: crc)
        }
        var sections: [(UInt32, SectionInfo)] = []
        for i in 0..<count {
            let base = ArtifactFormat.headerSize + i * ArtifactFormat.sectionEntrySize
            let tag = bytes.le(UInt32.self, base)
            let info = SectionInfo(
                tag: FourCC(rawValue: tag).description,
                offset: bytes.le(UInt64.self, base + 8),
                length: bytes.le(UInt64.self, base + 16),
                rows: bytes.le(UInt64.self, base + 24),
                crc32: bytes.le(UInt32.self, base + 4))
            guard info.offset >= UInt64(tableEnd), info.offset <= UInt64(bytes.count),
                  info.length <= UInt64(bytes.count) - info.offset else {
                throw .truncated(path: path, expectedBytes: info.offset &+ info.length, foundBytes: UInt64(bytes.count))
            }
            sections.append((tag, info))
        }
        return Header(kind: kind, major: major, minor: minor, sections: sections)
    }

    private static func readPrefix(fd: Int32, count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        return Array(buffer.prefix(max(0, n)))
    }
}

extension UnsafeRawBufferPointer {
    /// A little-endian integer at `offset` (no alignment needed).
    @inlinable
    public func le<T: FixedWidthInteger>(_: T.Type, _ offset: Int) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
