import FieldGuideDiagnostics
import FieldGuideCSV
import FieldGuideCore
import Foundation

/// A CSV output of the hand-off: streamed through an `AtomicFileWriter` and hashed, both on
/// threads of their own, so the caller goes on normalizing or merging while its bytes go out.
///
/// Bytes are written and hashed in the order they are given. A write that fails abandons the
/// file; the error comes back from a later `write` or from `commit()`. A sink dropped without
/// `commit()` waits for its queued work and leaves no temporary file behind.
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
        if writer.bytes.count >= 1 << 20 { try flush() }
    }

    /// Writes records through the sink's `CSVWriter` (for fast paths that write field bytes).
    func write(_ body: (inout CSVWriter) -> Void) throws {
        body(&writer)
        if writer.bytes.count >= 1 << 20 { try flush() }
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
        try flush()
        committed = true
        return try output.commit()
    }

    /// The file and the digest behind a sink, each fed by a serial queue of its own: the file
    /// (through `stream`) is only touched on `writing`, the digest only on `hashing`, the failure
    /// under `lock`. The file is streamed past the page cache (`AtomicFileWriter.Stream`): it
    /// is written once, and filling fresh cache pages cost more than the writing itself.
    private final class Output: @unchecked Sendable {
        private let file: AtomicFileWriter
        private let stream: AtomicFileWriter.Stream
        private var digest = StreamingDigest()
        private var failure: LocatedError?
        private let lock = NSLock()
        private let writing = DispatchQueue(label: "fieldguide.csv-sink.write")
        private let hashing = DispatchQueue(label: "fieldguide.csv-sink.hash")

        init(file: AtomicFileWriter) {
            self.file = file
            stream = AtomicFileWriter.Stream(file: file)
        }

        /// Queues `range` of `bytes`; throws the failure of an earlier write, if any.
        func enqueue(_ bytes: [UInt8], _ range: Range<Int>) throws {
            if let failure = lock.withLock({ failure }) { throw failure }
            guard !range.isEmpty else { return }
            writing.async { [self] in
                guard lock.withLock({ failure == nil }) else { return }
                do {
                    try bytes.withUnsafeBytes { try stream.write(UnsafeRawBufferPointer(rebasing: $0[range])) }
                } catch {
                    let failure = error as? LocatedError ?? LocatedError(.unwritable, file: file.path, message: "\(error)")
                    lock.withLock { self.failure = failure }
                }
            }
            hashing.async { [self] in
                bytes.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[range])) }
            }
        }

        func commit() throws -> String {
            writing.sync {}
            hashing.sync {}
            if let failure { throw failure }
            try stream.finish()
            try file.commit()
            return digest.finalize()
        }

        func abandon() {
            writing.sync {}
            hashing.sync {}
            file.abort()
        }
    }
}
