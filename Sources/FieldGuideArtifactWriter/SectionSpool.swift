import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideWorkers
import Foundation

/// An unnamed scratch file that holds an artifact's large sections from the moment they are
/// built until the artifact is written, so their bytes need not stay in memory meanwhile.
///
/// Sections are stored in tag order, and the first built is seldom the first stored: without
/// a spool every section waits in memory for the last one. `ArtifactBuilder` hands each large
/// section to the spool on a thread of its own (with its checksum) and lets its bytes go;
/// `write(to:)` reads them back in order. The file is created in the artifact's directory and
/// unlinked at once: nothing is left behind, whatever happens to the process.
///
/// It is written and read through the page cache: the kernel keeps the pages of a file this
/// short-lived (it is gone before the kernel's 30 s writeback) and writes them to the device only
/// when memory runs short, so the sections cost no memory of the process's and, usually, no disk
/// time. (Written and read past the page cache, `O_DIRECT`, every store and read-back waited for
/// the device: full size, 96 MB each way beside the 140 MB artifact, and the FAA build took
/// 2.62-2.65 s against 2.32-2.34 s buffered, medians of 8 alternating rounds, with the same
/// system time and peak RSS. In the sixth session buffered stores cost 0.35 s of system time on
/// another host; 0.27-0.29 s for the whole stage now.)
///
/// ```swift
/// var builder = ArtifactBuilder(kind: AircraftSchema.kind, spool: try SectionSpool(directory: "output"))
/// builder.addSection(AircraftSchema.Section.strings, rows: pool.count, bytes: pool.bytes)   // spooled
/// try builder.write(to: "output/aircraft.fgb")
/// ```
public final class SectionSpool: @unchecked Sendable {
    /// Sections of at least this many bytes are spooled; smaller ones stay in memory.
    public static let threshold = 1 << 20
    /// Bytes a streamed section gathers before storing them (`stream(count:_:)`) and bytes read
    /// back at once; the alignment of every section's offset in the file.
    static let storeChunk = 1 << 20, readChunk = 4 << 20, alignment = 4096

    /// What errors name: the directory the spool is in.
    let path: String
    private let fd: Int32
    /// The scratch file (`SectionSpool+Stream.swift` writes it too).
    var descriptor: Int32 { fd }
    private let lock = NSLock()
    private var end = 0
    /// The two read-back buffers of `read(at:count:_:)` (`readChunk` bytes each), kept from one
    /// section's read-back to the next: fresh ones a section were fresh pages the kernel zeroed
    /// (full size with DEREG and RESERVED: 69 MB of them, against 8 MB).
    private var readBuffers: [UnsafeMutableRawBufferPointer] = []

    /// Creates the spool's file in `directory` (made if needed) and unlinks it at once.
    public convenience init(directory: String) throws(LocatedError) {
        try AtomicFile.prepareDirectory(directory)
        let name = directory + "/.spool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw LocatedError(.unwritable, file: directory, message: "cannot create a scratch file for the sections: \(SystemReason.errnoText)")
        }
        unlink(name)
        self.init(descriptor: fd, path: directory)
    }

    /// A spool over an open descriptor, which it closes (tests give one that fails).
    package init(descriptor: Int32, path: String) {
        fd = descriptor
        self.path = path
    }

    deinit {
        close(fd)
        readBuffers.forEach { $0.deallocate() }
    }

    /// `count` rounded up to whole aligned blocks.
    static func aligned(_ count: Int) -> Int { (count + alignment - 1) / alignment * alignment }

    /// Reserves room for a section of `count` bytes; returns where it starts (block-aligned).
    func reserve(_ count: Int) -> Int {
        lock.withLock {
            let start = end
            end += Self.aligned(count)
            return start
        }
    }

    /// Stores `bytes` at `offset` (reserved with `reserve(_:)`; threads store at once).
    func store(_ bytes: [UInt8], at offset: Int) throws(LocatedError) {
        let stored = bytes.withUnsafeBytes { bytes in
            bytes.isEmpty || Self.transfer(bytes.count, at: offset) { pwrite(fd, bytes.baseAddress! + $0, $1, $2) }
        }
        guard stored else {
            throw LocatedError(.unwritable, file: path, message: "cannot write a section to the scratch file: \(SystemReason.errnoText)")
        }
    }

    /// Calls `body` with the `count` bytes at `offset`, in chunks, in order.
    ///
    /// The next chunk is read on another thread while `body` has the current one: a read
    /// waits for the device when the kernel had to write the pages out meanwhile.
    func read(at offset: Int, count: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let size = min(Self.aligned(count), Self.readChunk)
        let buffers = takeReadBuffers()
        defer { putBackReadBuffers(buffers) }
        var done = 0, current = 0
        var n = min(size, count)
        try readChunk(into: buffers[0], n, at: offset)
        while done < count {
            let next = done + n, following = min(size, count - next)
            let handOver = UncheckedSendable(value: buffers[1 - current])
            let ahead = following == 0 ? nil : BackgroundTask { [self] in try readChunk(into: handOver.value, following, at: offset + next) }
            let bodyResult = Result { try body(UnsafeRawBufferPointer(rebasing: buffers[current][0..<n])) }
            // The read ahead is waited for even when `body` failed: it writes into a buffer the next read takes.
            let aheadResult = ahead?.wait()
            try bodyResult.get()
            try aheadResult?.get()
            done = next
            n = following
            current = 1 - current
        }
    }

    /// Two buffers of `readChunk` bytes: the kept ones when no other read holds them, else new
    /// ones. (Only the pages a read touches become memory: a short section's read-back touches
    /// its own bytes' worth.)
    private func takeReadBuffers() -> [UnsafeMutableRawBufferPointer] {
        let kept = lock.withLock {
            defer { readBuffers = [] }
            return readBuffers
        }
        return kept.isEmpty ? (0..<2).map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readChunk, alignment: Self.alignment) } : kept
    }

    /// Keeps the buffers for the next read, unless another read kept its own (then frees them).
    private func putBackReadBuffers(_ buffers: [UnsafeMutableRawBufferPointer]) {
        let kept = lock.withLock {
            guard readBuffers.isEmpty else { return false }
            readBuffers = buffers
            return true
        }
        if !kept { buffers.forEach { $0.deallocate() } }
    }

    /// Reads `count` bytes at `offset` into `buffer`.
    private func readChunk(into buffer: UnsafeMutableRawBufferPointer, _ count: Int, at offset: Int) throws(LocatedError) {
        guard Self.transfer(count, at: offset, { pread(fd, buffer.baseAddress! + $0, $1, $2) }) else {
            throw LocatedError(.unreadable, file: path, message: "cannot read a section back from the scratch file: \(SystemReason.errnoText)")
        }
    }

    /// Repeats `call(done, left, fileOffset)` until `length` bytes are moved, retrying on
    /// EINTR; false on an error or an early end (errno set).
    static func transfer(_ length: Int, at offset: Int, _ call: (Int, Int, off_t) -> Int) -> Bool {
        var done = 0
        while done < length {
            let n = call(done, length - done, off_t(offset + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                if n == 0 { errno = EIO }
                return false
            }
            done += n
        }
        return true
    }
}
