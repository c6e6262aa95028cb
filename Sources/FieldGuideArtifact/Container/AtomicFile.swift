import Foundation

/// Writes files so that readers see either the old bytes or the new ones, never a mix.
///
/// The bytes go to a temporary file in the same directory, are flushed to disk, and the
/// temporary file is renamed over the destination.
///
/// ```swift
/// try AtomicFile.write(bytes, to: "output/aircraft.fgb")
/// ```
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String) throws(ArtifactError) {
        let writer = try AtomicFileWriter(path: path)
        try writer.write(bytes)
        try writer.commit()
    }

    /// Writes UTF-8 text atomically.
    public static func write(_ text: String, to path: String) throws(ArtifactError) {
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
    private let temporary: String
    private var fd: Int32
    private var finished = false

    public init(path: String) throws(ArtifactError) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .io(path: path, reason: "cannot create directory \(directory.path): \(error.localizedDescription)")
        }
        temporary = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw .io(path: path, reason: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
    }

    deinit { if !finished { abort() } }

    public func write(_ bytes: [UInt8]) throws(ArtifactError) {
        var failure: ArtifactError?
        bytes.withUnsafeBytes { buffer in
            do throws(ArtifactError) { try write(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public func write(_ buffer: UnsafeRawBufferPointer) throws(ArtifactError) {
        let fd = fd
        try writeAll(buffer) { pointer, count, _ in Foundation.write(fd, pointer, count) }
    }

    /// Writes `buffer` at byte `offset` of the file (the file grows as needed), leaving the
    /// position of sequential writes alone. On failure the writer is abandoned, as `write`.
    public func write(_ buffer: UnsafeRawBufferPointer, at offset: Int) throws(ArtifactError) {
        let fd = fd
        try writeAll(buffer) { pointer, count, done in pwrite(fd, pointer, count, off_t(offset + done)) }
    }

    /// Repeats `syscall(pointer, count, bytesDone)` until all of `buffer` is written (retrying
    /// on EINTR); on an error abandons the writer and throws.
    private func writeAll(_ buffer: UnsafeRawBufferPointer, _ syscall: (UnsafeRawPointer, Int, Int) -> Int) throws(ArtifactError) {
        var done = 0
        while done < buffer.count {
            let n = syscall(buffer.baseAddress! + done, buffer.count - done, done)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                abort()
                throw .io(path: path, reason: "write failed: \(reason)")
            }
            done += n
        }
    }

    /// Writes `bytes` at byte `offset` of the file.
    public func write(_ bytes: [UInt8], at offset: Int) throws(ArtifactError) {
        var failure: ArtifactError?
        bytes.withUnsafeBytes { buffer in
            do throws(ArtifactError) { try write(buffer, at: offset) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes `count` zero bytes at byte `offset` (alignment padding).
    public func write(zeros count: Int, at offset: Int) throws(ArtifactError) {
        guard count > 0 else { return }
        try write([UInt8](repeating: 0, count: count), at: offset)
    }

    /// Flushes to disk and renames into place.
    public func commit() throws(ArtifactError) {
        precondition(!finished, "AtomicFileWriter used after commit or abort")
        let synced = fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        finished = true
        guard synced else {
            unlink(temporary)
            throw .io(path: path, reason: "fsync failed: \(reason)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(path: path, reason: "cannot rename into place: \(reason)")
        }
    }

    /// Drops the temporary file; the destination stays as it was.
    public func abort() {
        guard !finished else { return }
        finished = true
        close(fd)
        unlink(temporary)
    }
}
