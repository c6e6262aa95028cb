import Foundation
import FieldGuideDiagnostics

/// Writes files so that readers see either the old bytes or the new ones, never a mix.
///
/// The bytes go to a temporary file in the same directory, are flushed to disk, and the
/// temporary file is renamed over the destination.
///
/// ```swift
/// try AtomicFile.write(bytes, to: "output/aircraft.fgb")
/// ```
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String) throws(LocatedError) {
        let writer = try AtomicFileWriter(path: path)
        try writer.write(bytes)
        try writer.commit()
    }

    /// Creates `directory` if needed and checks it can take new files, before a stage spends
    /// time reading its inputs: an unwritable output is a usage or I/O error found first.
    ///
    /// ```swift
    /// try AtomicFile.prepareDirectory("output/stage/faa")
    /// ```
    public static func prepareDirectory(_ directory: String) throws(LocatedError) {
        if let reason = makeDirectories(directory) {
            throw LocatedError(.unwritable, file: directory, message: "cannot create the output directory: \(reason)")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw LocatedError(.unwritable, file: directory, message: "cannot write into the output directory: \(SystemReason.errnoText)")
        }
    }

    /// Copies the file at `source` beside `destination`, a megabyte at a time (a rejects report
    /// can be hundreds of MB), and flushes it to disk: the writer to commit with a run's other
    /// outputs (or drop, leaving `destination` as it was); nil when `source` does not exist.
    ///
    /// ```swift
    /// let copy = try AtomicFile.prepareCopy("output/stage/faa/faa-rejects.csv", to: "output/aircraft.rejects.csv")
    /// try copy?.commit()
    /// ```
    public static func prepareCopy(_ source: String, to destination: String) throws(LocatedError) -> AtomicFileWriter? {
        let fd = open(source, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw LocatedError(.unreadable, file: source, message: "cannot open: \(SystemReason.errnoText)")
        }
        defer { close(fd) }
        let writer = try AtomicFileWriter(path: destination)
        let buffer = ReadBuffer.allocate(byteCount: 1 << 20)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                writer.abort()
                throw LocatedError(.unreadable, file: source, message: "read failed: \(SystemReason.errnoText)")
            }
            if n == 0 { break }
            try writer.write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        try writer.sync()
        return writer
    }

    /// Writes UTF-8 text atomically.
    public static func write(_ text: String, to path: String) throws(LocatedError) {
        try write(Array(text.utf8), to: path)
    }
}

/// Streams bytes into a temporary file and renames it over `path` on `commit()`.
///
/// Until `commit()` the destination is untouched; an abandoned writer removes its
/// temporary file.
///
/// ```swift
/// let out = try AtomicFileWriter(path: "staging/registrations.csv")
/// try out.write(chunk)
/// try out.commit()
/// ```
public final class AtomicFileWriter {
    public let path: String
    let temporary: String
    fileprivate(set) var fd: Int32
    private var finished = false
    /// Whether `sync()` flushed and closed the temporary file.
    private var synced = false
    /// The file's size, known once `sync()` has flushed it (0 before).
    public private(set) var size = 0

    public init(path: String) throws(LocatedError) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        if let reason = AtomicFile.makeDirectories(directory.path) {
            throw LocatedError(.unwritable, file: path, message: "cannot create directory \(directory.path): \(reason)")
        }
        temporary = Self.temporaryPath(for: path)
        fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw LocatedError(.unwritable, file: path, message: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
    }

    /// A writer for a file already written (`AtomicFileWriter+Linked.swift`): `fd` is the
    /// file, linked at `temporary` beside `path`.
    init(path: String, temporary: String, fd: Int32) {
        (self.path, self.temporary, self.fd) = (path, temporary, fd)
    }

    /// The temporary name a writer of `path` uses: hidden, beside it, unique to the process
    /// and the writer.
    static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    }

    deinit { if !finished { abort() } }

    public func write(_ bytes: [UInt8]) throws(LocatedError) {
        var failure: LocatedError?
        bytes.withUnsafeBytes { buffer in
            do throws(LocatedError) { try write(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func write(_ buffer: UnsafeRawBufferPointer) throws(LocatedError) {
        let fd = fd
        try writeAll(buffer) { pointer, count, _ in Foundation.write(fd, pointer, count) }
    }

    /// Writes `buffer` at byte `offset` of the file (the file grows as needed), leaving the
    /// position of sequential writes alone. On failure the writer is abandoned, as `write`.
    public func write(_ buffer: UnsafeRawBufferPointer, at offset: Int) throws(LocatedError) {
        let fd = fd
        try writeAll(buffer) { pointer, count, done in pwrite(fd, pointer, count, off_t(offset + done)) }
    }

    /// Repeats `syscall(pointer, count, bytesDone)` until all of `buffer` is written (retrying
    /// on EINTR); on an error abandons the writer and throws.
    fileprivate func writeAll(_ buffer: UnsafeRawBufferPointer, _ syscall: (UnsafeRawPointer, Int, Int) -> Int) throws(LocatedError) {
        var done = 0
        while done < buffer.count {
            let n = syscall(buffer.baseAddress! + done, buffer.count - done, done)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                abort()
                throw LocatedError(.unwritable, file: path, message: "write failed: \(reason)")
            }
            done += n
        }
    }

    /// Writes `bytes` at byte `offset` of the file.
    public func write(_ bytes: [UInt8], at offset: Int) throws(LocatedError) {
        var failure: LocatedError?
        bytes.withUnsafeBytes { buffer in
            do throws(LocatedError) { try write(buffer, at: offset) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes the file from its start as one stream, past the page cache where the file system
    /// allows it (`O_DIRECT`): `produce` hands its pieces, in order, to the function it is given.
    /// Returns the bytes streamed; the file ends there.
    ///
    /// For large outputs this process does not read back (an artifact): the pieces are copied
    /// into one reused, aligned buffer and go from there to the device, instead of into as many
    /// fresh cache pages as the file has, which is most of what a buffered write of a large file
    /// costs. A file system that refuses unbuffered writes gets the same bytes buffered. Nothing
    /// else may write the file meanwhile; `write(_:at:)` may patch it afterwards.
    ///
    /// `unbuffered: false` writes through the page cache all the same (the fallback, for tests).
    /// A producer that throws abandons the writer, as a failed write does.
    ///
    /// ```swift
    /// let size = try out.stream { put in
    ///     try put(headerPlaceholder)
    ///     for section in sections { try put(section) }
    /// }
    /// try out.write(header, at: 0)
    /// ```
    @discardableResult
    public func stream(unbuffered: Bool = true,
                       _ produce: (_ put: (UnsafeRawBufferPointer) throws(LocatedError) -> Void) throws -> Void) throws(LocatedError) -> Int {
        let stream = Stream(file: self, unbuffered: unbuffered)
        do {
            try produce { (piece: UnsafeRawBufferPointer) throws(LocatedError) -> Void in try stream.write(piece) }
        } catch {
            abort()
            throw (error as? LocatedError) ?? LocatedError(.unwritable, file: path, message: "\(error)")
        }
        return try stream.finish()
    }

    /// `stream(_:)` piece by piece: for a producer that hands its pieces over time (from a
    /// queue, say). The stream owns the file's writes until `finish()`, which also turns the
    /// file's buffered writes back on.
    ///
    /// ```swift
    /// let stream = AtomicFileWriter.Stream(file: out)
    /// try stream.write(chunk)          // as chunks come
    /// try stream.finish()
    /// try out.commit()
    /// ```
    public final class Stream {
        private let file: AtomicFileWriter
        private let buffer: UnsafeMutableRawBufferPointer
        private let flags: Int32
        private var direct: Bool
        private var filled = 0, offset = 0, finished = false
        private static let blockSize = 4 << 20, alignment = 4096

        public init(file: AtomicFileWriter, unbuffered: Bool = true) {
            self.file = file
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.blockSize, alignment: Self.alignment)
            flags = fcntl(file.fd, F_GETFL)
            direct = unbuffered && flags >= 0 && AtomicFileWriter.directFlag != 0
                && fcntl(file.fd, F_SETFL, flags | AtomicFileWriter.directFlag) == 0
        }

        /// A stream dropped unfinished leaves its file as it is: abandoned by the error that
        /// stopped it (its descriptor closed, perhaps reused), or still unbuffered.
        deinit { buffer.deallocate() }

        public func write(_ piece: UnsafeRawBufferPointer) throws(LocatedError) {
            precondition(!finished, "a stream written after finish()")
            var taken = 0
            while taken < piece.count {
                let n = min(Self.blockSize - filled, piece.count - taken)
                (buffer.baseAddress! + filled).copyMemory(from: piece.baseAddress! + taken, byteCount: n)
                filled += n
                taken += n
                if filled == Self.blockSize {
                    try flush(Self.blockSize)
                    offset += Self.blockSize
                    filled = 0
                }
            }
        }

        /// Writes what is left and ends the file there; returns the bytes streamed. Later
        /// writes to the file (`write(_:at:)`) go through the page cache.
        @discardableResult
        public func finish() throws(LocatedError) -> Int {
            precondition(!finished, "a stream finished twice")
            finished = true
            let size = offset + filled
            if filled > 0 {
                // A direct write covers whole blocks: the last is padded, and the file cut back after.
                let padded = direct ? (filled + Self.alignment - 1) / Self.alignment * Self.alignment : filled
                buffer.baseAddress!.advanced(by: filled).initializeMemory(as: UInt8.self, repeating: 0, count: padded - filled)
                try flush(padded)
                if padded != filled && ftruncate(file.fd, off_t(size)) != 0 {
                    let reason = String(cString: strerror(errno))
                    file.abort()
                    throw LocatedError(.unwritable, file: file.path, message: "cannot set the file size: \(reason)")
                }
            }
            if direct {
                _ = fcntl(file.fd, F_SETFL, flags)
                direct = false
            }
            return size
        }

        /// Writes the buffer's first `count` bytes (a multiple of the alignment when direct) at `offset`.
        private func flush(_ count: Int) throws(LocatedError) {
            let fd = file.fd, offset = offset
            if direct {
                let n = pwrite(fd, buffer.baseAddress, count, off_t(offset))
                if n == count { return }
                // Refused (EINVAL: this file system takes no unbuffered writes), interrupted or
                // short: the block again, and the rest, buffered.
                guard n >= 0 || errno == EINVAL || errno == EINTR else {
                    let reason = String(cString: strerror(errno))
                    file.abort()
                    throw LocatedError(.unwritable, file: file.path, message: "write failed: \(reason)")
                }
                _ = fcntl(fd, F_SETFL, flags)
                direct = false
            }
            try file.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { pointer, count, done in
                pwrite(fd, pointer, count, off_t(offset + done))
            }
        }
    }

    /// `O_DIRECT`, whose value depends on the architecture (and which Glibc's module leaves
    /// out); 0 where unknown, and there writes stay buffered.
    package static var directFlag: Int32 { linuxOpenFlag(x86_64: 0o40000, arm64: 0o200000) }

    /// An `open` flag of Linux's whose value depends on the architecture; 0 on any other
    /// system or architecture (the caller then does without it).
    static func linuxOpenFlag(x86_64: Int32, arm64: Int32) -> Int32 {
        #if os(Linux) && arch(x86_64)
        return x86_64
        #elseif os(Linux) && arch(arm64)
        return arm64
        #else
        return 0
        #endif
    }

    /// Flushes to disk and renames into place.
    public func commit() throws(LocatedError) {
        try sync()
        finished = true
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw LocatedError(.unwritable, file: path, message: "cannot rename into place: \(reason)")
        }
    }

    /// Flushes the temporary file to disk and closes it (once; `commit()` does it when not
    /// done); a failure drops it. Nothing is renamed yet.
    public func sync() throws(LocatedError) {
        precondition(!finished, "AtomicFileWriter used after commit or abort")
        guard !synced else { return }
        var info = stat()
        let ok = fsync(fd) == 0 && fstat(fd, &info) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        synced = true
        size = Int(info.st_size)
        guard ok else {
            finished = true
            unlink(temporary)
            throw LocatedError(.unwritable, file: path, message: "fsync failed: \(reason)")
        }
    }

    /// Drops the temporary file; the destination stays as it was.
    public func abort() {
        guard !finished else { return }
        finished = true
        if !synced { close(fd) }
        unlink(temporary)
    }
}
