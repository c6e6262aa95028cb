import FieldGuideDiagnostics
import FieldGuideCSV
import FieldGuideCore
import FieldGuideWorkers

/// A CSV output of the hand-off: streamed through an `AtomicFileWriter` and hashed, both on
/// worker threads of their own, so the caller goes on normalizing or merging while its bytes
/// go out.
///
/// Bytes are written and hashed in the order they are given. A write that fails abandons the
/// file; the error comes back from a later `write` or from `commit()`. A sink dropped without
/// `commit()` drops its queued work, waits for its threads and leaves no temporary file behind.
///
/// ```swift
/// let out = try CSVFileSink(path: "output/stage/faa/models.csv", header: NormalizedFAA.modelHeader)
/// try out.write(["0020901", "CESSNA", "150"])
/// try out.write(encoded: part.bytes, range: 0..<part.bytes.count)   // records already encoded
/// let sha256 = try out.commit()
/// ```
final class CSVFileSink {
    let name: String
    private var writer = CSVWriter()
    private let output: Output
    private var committed = false

    init(path: String, header: [String]) throws {
        self.name = PathName(path: path).lastComponent
        self.output = Output(file: try AtomicFileWriter(path: path))
        try write(header)
    }

    deinit { if !committed { output.abandon() } }

    func write(_ fields: [String]) throws {
        writer.write(fields)
        if writer.count >= 1 << 20 { try flush() }
    }

    /// Writes records through the sink's `CSVWriter` (for fast paths that write field bytes);
    /// returns what `body` does.
    func write<Result>(_ body: (inout CSVWriter) -> Result) throws -> Result {
        let result = body(&writer)
        if writer.count >= 1 << 20 { try flush() }
        return result
    }

    /// Writes `range` of `bytes`, records already in the output's dialect (another writer's).
    /// The array is kept, not copied, until its bytes are out.
    func write(encoded bytes: [UInt8], range: Range<Int>) throws {
        try flush()
        try output.enqueue(bytes, range)
    }

    private func flush() throws {
        try writer.drain { bytes in try output.enqueue(bytes, 0..<bytes.count) }
    }

    /// Waits for the queued bytes, renames the file into place, and returns its SHA-256.
    func commit() throws -> String {
        let (sha256, file) = try prepare()
        committed = true
        try file.commit()
        return sha256
    }

    /// Waits for the queued bytes and flushes the file to disk, without renaming it: its
    /// SHA-256 and the writer to commit with a run's other outputs (`OutputSet`). Dropped
    /// uncommitted, the writer drops the file.
    func prepare() throws -> (sha256: String, file: AtomicFileWriter) {
        try flush()
        return try output.finish()
    }

    /// The file and the digest behind a sink, each fed by a worker thread of its own through a
    /// bounded `WorkQueue`: the stream (`AtomicFileWriter.Stream`) is only touched by the
    /// writing thread until it ends, the digest only by the hashing thread. The file is
    /// streamed past the page cache: it is written once, and filling fresh cache pages cost
    /// more than the writing itself.
    private final class Output {
        /// A stretch of bytes to write and hash (the array is kept, not copied).
        private struct Piece: Sendable {
            var bytes: [UInt8]
            var range: Range<Int>
        }

        private let file: AtomicFileWriter
        private let stream: UncheckedSendable<AtomicFileWriter.Stream>
        private let toFile = WorkQueue<Piece>(capacity: 16), toDigest = WorkQueue<Piece>(capacity: 16)
        private let writing: BackgroundTask<Void>
        private let hashing: BackgroundTask<String>

        init(file: AtomicFileWriter) {
            self.file = file
            let stream = UncheckedSendable(value: AtomicFileWriter.Stream(file: file))
            self.stream = stream
            writing = BackgroundTask { [toFile, path = file.path] in
                while let piece = toFile.take() {
                    do {
                        try piece.bytes.withUnsafeBytes { try stream.value.write(UnsafeRawBufferPointer(rebasing: $0[piece.range])) }
                    } catch {
                        toFile.cancel()  // the sink's next write fails at once, and nothing more is written
                        throw error as? LocatedError ?? LocatedError(.unwritable, file: path, message: "\(error)")
                    }
                }
            }
            hashing = BackgroundTask { [toDigest] in
                var digest = StreamingDigest()
                while let piece = toDigest.take() {
                    piece.bytes.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[piece.range])) }
                }
                return digest.finalize()
            }
        }

        /// Queues `range` of `bytes`; throws the failure of an earlier write, if any.
        func enqueue(_ bytes: [UInt8], _ range: Range<Int>) throws {
            if toFile.isCancelled { try writing.value() }
            guard !range.isEmpty else { return }
            let piece = Piece(bytes: bytes, range: range)
            guard toFile.put(piece) else { try writing.value(); return }
            toDigest.put(piece)
        }

        /// Waits for the bytes, ends the stream and flushes the file to disk; its SHA-256 and file.
        func finish() throws -> (sha256: String, file: AtomicFileWriter) {
            toFile.close()
            toDigest.close()
            try writing.value()
            let sha256 = hashing.finished()
            try stream.value.finish()
            try file.sync()
            return (sha256, file)
        }

        func abandon() {
            toFile.cancel()
            toDigest.cancel()
            _ = writing.wait()
            _ = hashing.finished()
            file.abort()
        }
    }
}
