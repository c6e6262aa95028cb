import FieldGuideDiagnostics
import FieldGuideCore
import FieldGuideCSV
import Foundation

/// A scratch file that can roll back to a mark: each input file's rows are appended, and a
/// file that fails part-way is cut off again, so memory stays flat however large the inputs.
/// `commit(to:)` copies it atomically into place.
final class Spool {
    let path: String
    private var fd: Int32
    private(set) var size: off_t = 0

    init(directory: String, name: String) throws(LocatedError) {
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw LocatedError(directory, failed: error, .unwritable, doing: "cannot create directory")
        }
        path = (directory as NSString).appendingPathComponent(".\(name).spool-\(getpid())")
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw LocatedError(.unwritable, file: path, message: "cannot create: \(SystemReason.errnoText)") }
    }

    deinit {
        if fd >= 0 { close(fd) }
        unlink(path)
    }

    func append(_ bytes: [UInt8]) throws(LocatedError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LocatedError(.unwritable, file: path, message: "write failed: \(SystemReason.errnoText)")
            }
            offset += n
        }
        size += off_t(bytes.count)
    }

    /// Cuts the spool back to `mark` (a size it had).
    func rollBack(to mark: off_t) throws(LocatedError) {
        guard ftruncate(fd, mark) == 0, lseek(fd, mark, SEEK_SET) == mark else {
            throw LocatedError(.unwritable, file: path, message: "cannot roll back: \(SystemReason.errnoText)")
        }
        size = mark
    }

    /// Copies the spool into `destination` atomically; returns its SHA-256.
    func commit(to destination: String) throws(LocatedError) -> String {
        let writer = try AtomicFileWriter(path: destination)
        var digest = StreamingDigest()
        let buffer = ReadBuffer.allocate(byteCount: 1 << 20)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while offset < size {
            let n = pread(fd, buffer.baseAddress, buffer.count, offset)
            guard n > 0 else {
                writer.abort()
                throw LocatedError(.unreadable, file: path, message: "read failed: \(SystemReason.errnoText)")
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            try writer.write(chunk)
            digest.update(chunk)
            offset += off_t(n)
        }
        try writer.commit()
        return digest.finalize()
    }
}

/// The rejects report (`exports-rejects.csv`) written as its rows are found, through a `Spool`,
/// rather than held: a GPX whose 882,000 points all lie off the globe kept 300 MB of them.
/// Like the observations, a file's rows are cut off again when the file fails part-way
/// (`mark()`, `rollBack(to:)`), and the file's own reject row takes their place.
final class RejectSpool {
    /// Where a file's rows start, and the counts before them.
    struct Mark { let size: off_t, rejected: Int, warnings: Int }

    private let spool: Spool
    private var writer = CSVWriter()
    private(set) var rejected = 0, warnings = 0

    init(directory: String, name: String) throws(LocatedError) {
        spool = try Spool(directory: directory, name: name)
        writer.write(RejectsReport.header)
    }

    /// Flushes what is written and marks the end.
    func mark() throws(LocatedError) -> Mark {
        try ExportsIngest.flush(&writer, into: spool)
        return Mark(size: spool.size, rejected: rejected, warnings: warnings)
    }

    func append(_ issue: RowIssue) throws(LocatedError) {
        writer.write(issue.csvFields)
        if issue.severity == .rejected { rejected += 1 } else { warnings += 1 }
        if writer.count >= 1 << 20 { try ExportsIngest.flush(&writer, into: spool) }
    }

    /// Drops every row after `mark`, written or not.
    func rollBack(to mark: Mark) throws(LocatedError) {
        writer = CSVWriter()
        try spool.rollBack(to: mark.size)
        (rejected, warnings) = (mark.rejected, mark.warnings)
    }

    /// Copies the report into `destination` atomically: its size and SHA-256.
    func commit(to destination: String) throws(LocatedError) -> (bytes: Int, sha256: String) {
        try ExportsIngest.flush(&writer, into: spool)
        let bytes = Int(spool.size)
        return (bytes, try spool.commit(to: destination))
    }
}
