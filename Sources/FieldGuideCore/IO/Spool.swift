import FieldGuideCSV
import FieldGuideDiagnostics
import Foundation

/// A scratch file written front to back, that can be cut back to a mark, read back, and
/// made the file to commit atomically: what lets a stage stream rows it cannot write to their final
/// file yet (a file that may still fail, a report that comes after other files' rows) with
/// memory flat however large its inputs.
///
/// The file has no name while it is a spool (`O_TMPFILE`; elsewhere it is unlinked as soon as
/// it is made): nothing is left behind, even by a killed run. `prepare` gives it its name
/// beside the destination, or copies it there where the file system cannot. Its errors name
/// the file it stands for (`DIRECTORY/NAME`), not its own scratch name.
///
/// ```swift
/// let spool = try Spool(directory: "output/stage/exports", name: "observations.csv")
/// try spool.append(&writer)                 // drains the writer's bytes into the file
/// let mark = spool.size
/// try spool.rollBack(to: mark)              // a file that failed part-way: its rows are cut off
/// let (file, sha256) = try spool.prepare("output/stage/exports/observations.csv")
/// try file.commit()                         // or in an `OutputSet` with the run's other outputs
/// ```
public final class Spool {
    /// The file the spool stands for, `DIRECTORY/NAME`, as its errors name it (the scratch
    /// file itself has no name).
    public let path: String
    private let fd: Int32
    /// Whether the file has no name (`O_TMPFILE`), so that `prepare` links it rather than
    /// copying it (the tests check which).
    package let isAnonymous: Bool
    /// Bytes written so far.
    public private(set) var size = 0

    /// Makes a scratch file in `directory` (creating the directory): an anonymous one where
    /// the file system allows it, else `.NAME.spool-PID-RANDOM`, unlinked at once. Spools of
    /// one name on two threads never meet.
    public init(directory: String, name: String) throws(LocatedError) {
        if let reason = AtomicFile.makeDirectories(directory) {
            throw LocatedError(.unwritable, file: directory, message: "cannot create directory: \(reason)")
        }
        path = (directory as NSString).appendingPathComponent(name)
        // The mode an `AtomicFileWriter` gives its file: a linked spool is the committed output.
        let flag = AtomicFileWriter.anonymousFileFlag
        let unnamed = flag == 0 ? -1 : open(directory, flag | O_RDWR | O_CLOEXEC, 0o644)
        isAnonymous = unnamed >= 0
        if isAnonymous {
            fd = unnamed
            return
        }
        let scratch = (directory as NSString).appendingPathComponent(".\(name).spool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        fd = open(scratch, O_RDWR | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LocatedError(.unwritable, file: path, message: "cannot create a scratch file to spool it: \(SystemReason.errnoText)") }
        unlink(scratch)
    }

    deinit { close(fd) }

    public func append(_ bytes: UnsafeRawBufferPointer) throws(LocatedError) {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw LocatedError(.unwritable, file: path, message: "write failed while spooling it: \(SystemReason.errnoText)")
            }
            offset += n
        }
        size += bytes.count
    }

    public func append(_ bytes: [UInt8]) throws(LocatedError) {
        var failure: LocatedError?
        bytes.withUnsafeBytes { buffer in
            do throws(LocatedError) { try append(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Appends what `writer` holds and empties it (keeping its buffer).
    public func append(_ writer: inout CSVWriter) throws(LocatedError) {
        var failure: LocatedError?
        writer.withBytes { buffer in
            do throws(LocatedError) { try append(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        writer.truncate(to: 0)
    }

    /// Cuts the spool back to `mark` (a size it had).
    public func rollBack(to mark: Int) throws(LocatedError) {
        guard ftruncate(fd, off_t(mark)) == 0, lseek(fd, off_t(mark), SEEK_SET) == off_t(mark) else {
            throw LocatedError(.unwritable, file: path, message: "cannot roll its spool back: \(SystemReason.errnoText)")
        }
        size = mark
    }

    /// Reads bytes from `offset` (at most `size`) into `buffer`, as many as fit and the spool
    /// holds; returns how many.
    public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(LocatedError) -> Int {
        precondition(offset >= 0 && offset <= size, "an offset outside the spool")
        let wanted = min(buffer.count, size - offset)
        var done = 0
        while done < wanted {
            let n = pread(fd, buffer.baseAddress! + done, wanted - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw LocatedError(.unreadable, file: path, message: "reading its spool back failed: \(n < 0 ? SystemReason.errnoText : "end of file")") }
            done += n
        }
        return done
    }

    /// The spool as a temporary file beside `destination`: the writer to commit (or drop,
    /// leaving `destination` as it was) with the other outputs of a run, and the SHA-256.
    /// Nothing may be appended to the spool afterwards.
    ///
    /// An anonymous spool is linked there and hashed through read-only mappings; any other
    /// (or one the link is refused for) is copied there, a megabyte at a time. Why: copying
    /// the 145 MB of observations a 100 MB GPX track makes was 13% of `ingest-exports`'
    /// samples, the kernel filling fresh cache pages with bytes it already had.
    public func prepare(_ destination: String) throws(LocatedError) -> (writer: AtomicFileWriter, sha256: String) {
        if isAnonymous, let writer = AtomicFileWriter(linking: fd, to: destination) {
            if let sha256 = mappedDigest() { return (writer, sha256) }
            writer.abort()
        }
        let writer = try AtomicFileWriter(path: destination)
        var digest = StreamingDigest()
        let buffer = ReadBuffer.allocate(byteCount: 1 << 20)
        defer { buffer.deallocate() }
        var offset = 0
        do throws(LocatedError) {
            while offset < size {
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<(try read(at: offset, into: buffer))])
                try writer.write(chunk)
                digest.update(chunk)
                offset += chunk.count
            }
        } catch {
            writer.abort()
            throw error
        }
        return (writer, digest.finalize())
    }

    /// The SHA-256 of the spool's bytes, read through mappings of the file (no copy), 1 MiB at a
    /// time: a mapped page counts in the process's resident memory until it is unmapped, and a
    /// spool can be hundreds of MB (every MASTER row rejected: a 164 MB report; mapped whole,
    /// `ingest-faa`'s peak went from 96 to 208 MB). Nil when a window cannot be mapped (then
    /// `prepare` copies, hashing as it goes).
    private func mappedDigest() -> String? {
        var digest = StreamingDigest()
        let window = 1 << 20   // as the copy's buffer; a multiple of any page size, so each offset is aligned
        var offset = 0
        while offset < size {
            let count = min(window, size - offset)
            guard let base = mmap(nil, count, PROT_READ, MAP_SHARED, fd, off_t(offset)), base != MAP_FAILED else { return nil }
            digest.update(UnsafeRawBufferPointer(start: base, count: count))
            munmap(base, count)
            offset += count
        }
        return digest.finalize()
    }
}
