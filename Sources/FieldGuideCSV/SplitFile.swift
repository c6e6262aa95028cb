import CByteCount
import FieldGuideDiagnostics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain file cut in two at a line boundary, for reading its halves on two threads.
///
/// The cut falls just after the first line feed at or past the middle (or past a given
/// offset), so both halves hold whole lines. A second parser can start at the cut when no
/// value holds a line feed (an unquoted file, or one written from such values); it numbers its
/// lines from `lineFeedsBeforeCut() + 1`. `readHalves` does all this on two threads, hashing
/// the file meanwhile: the readers of the batch stages use it.
///
/// ```swift
/// if let file = try SplitFile(path: "MASTER.txt", name: "MASTER.txt", minimumSize: 8 << 20) {
///     try file.read(0..<file.cut) { chunk in … }          // on one thread
///     let firstLine = try file.lineFeedsBeforeCut() + 1   // on another…
///     try file.read(file.cut..<file.size) { chunk in … }  // …which parses from `firstLine`
/// }
/// ```
public struct SplitFile: Sendable {
    public let path: String
    /// The name errors give for the file.
    public let name: String
    public let size: Int
    /// The offset just after the first line feed at or past the middle (or the given offset).
    public let cut: Int

    /// Nil when `path` is not a regular file, is smaller than `minimumSize`, or has no line feed
    /// at or past `offset` (by default the middle) but its last byte: when a half would be empty.
    /// Throws a `LocatedError` when the file cannot be read.
    public init?(path: String, name: String, minimumSize: Int, cuttingAtOrAfter offset: Int? = nil) throws {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) >= max(minimumSize, 2) else { return nil }
        self.path = path
        self.name = name
        self.size = Int(info.st_size)
        var cut: Int?
        try Self.read(path: path, name: name, min(max(offset ?? size / 2, 0), size)..<size) { chunk, offset in
            guard let found = memchr(chunk.baseAddress!, 0x0A, chunk.count) else { return true }
            cut = offset + (UnsafeRawPointer(found) - chunk.baseAddress!) + 1
            return false
        }
        guard let cut, cut < size else { return nil }
        self.cut = cut
    }

    /// Streams `range` of the file in 1 MiB chunks (a `LocatedError` when it cannot be read).
    public func read(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try Self.read(path: path, name: name, range) { chunk, _ in
            try body(chunk)
            return true
        }
    }

    /// The number of line feeds in the first half (the line count before the cut).
    public func lineFeedsBeforeCut() throws -> Int {
        var count = 0
        try read(0..<cut) { chunk in count += Self.lineFeeds(in: chunk) }
        return count
    }

    /// The line feeds in `bytes` (`fieldguide_count_byte`: 64 bytes a step).
    static func lineFeeds(in bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        return fieldguide_count_byte(base.assumingMemoryBound(to: UInt8.self), bytes.count, 0x0A)
    }

    /// Streams `range` with each chunk's offset, while `body` returns true.
    private static func read(path: String, name: String, _ range: Range<Int>,
                             _ body: (UnsafeRawBufferPointer, Int) throws -> Bool) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw LocatedError(.unreadable, file: name, message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let size = 1 << 20
        let buffer = ReadBuffer.allocate(byteCount: size)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let n = pread(fd, buffer.baseAddress, min(size, range.upperBound - offset), off_t(offset))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw LocatedError(.unreadable, file: name, message: "read failed") }
            guard try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]), offset) else { return }
            offset += n
        }
    }
}
