import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// A section written into a `SectionSpool` piece by piece (`SectionSpool.stream(count:_:)`):
/// where it lies, its size and its CRC-32, or why it could not be stored. Added to a builder
/// with `ArtifactBuilder.addSection(_:rows:spooled:)`.
public struct SpooledSection: Sendable {
    let spool: SectionSpool
    let offset: Int
    public let count: Int
    let crc: Result<UInt32, LocatedError>
}

/// A section built on a worker thread, as it hands it back: its bytes, or the section already
/// stored in the spool (`SectionSpool.hold(_:in:)`, `stream(count:_:)`). Added to a builder with
/// `ArtifactBuilder.addSection(_:rows:_:)`.
public enum SectionPayload: Sendable {
    case bytes([UInt8])
    case spooled(SpooledSection)
}

extension SectionSpool {
    /// A finished section, stored in `spool` now, on the calling thread, when there is one and
    /// the section is at least `threshold` bytes (its bytes then go with the caller's copy);
    /// otherwise the bytes themselves.
    ///
    /// Why: sections built on worker threads side by side were handed back as arrays, and each
    /// waited in memory until the last of them was done and the builder took them all.
    ///
    /// ```swift
    /// let summaries = BackgroundTask { SectionSpool.hold(makeSummaries(), in: spool) }
    /// builder.addSection(tag, rows: rows, summaries.finished())
    /// ```
    public static func hold(_ bytes: [UInt8], in spool: SectionSpool?) -> SectionPayload {
        guard let spool, bytes.count >= threshold else { return .bytes(bytes) }
        let offset = spool.reserve(bytes.count)
        let crc = CRC32.checksum(bytes)
        let stored = Result { () throws(LocatedError) in try spool.store(bytes, at: offset) }
        return .spooled(SpooledSection(spool: spool, offset: offset, count: bytes.count, crc: stored.map { crc }))
    }

    /// Stores a section of exactly `count` bytes that `produce` writes piece by piece, on the
    /// calling thread, through one buffer: the section is never whole in memory.
    ///
    /// Why: a section made on a worker thread and returned as one array waits in memory until
    /// the builder takes it and the spool stores it. The aircraft artifact's text records (22 MB
    /// at full size) were made beside the summaries and the search, and that wait was 15-25 MB
    /// of `emit-aircraft`'s peak.
    ///
    /// ```swift
    /// let section = spool.stream(count: size) { sink in sink.write(header); sink.write(body) }
    /// builder.addSection(tag, rows: rows, spooled: section)
    /// ```
    public func stream(count: Int, _ produce: (inout Sink) -> Void) -> SpooledSection {
        let offset = reserve(count)
        var sink = Sink(spool: self, offset: offset, capacity: min(Self.aligned(max(count, 1)), Self.storeChunk))
        produce(&sink)
        let crc = sink.finish()
        precondition(sink.written == count, "a streamed section wrote \(sink.written) bytes of \(count)")
        return SpooledSection(spool: self, offset: offset, count: count, crc: crc)
    }

    /// Where `stream(count:_:)`'s producer writes; full blocks go to the file as they fill.
    public struct Sink {
        let spool: SectionSpool
        let offset: Int
        let buffer: UnsafeMutableRawBufferPointer
        var filled = 0
        /// Bytes written so far, and stored (a multiple of the alignment until the last block).
        private(set) var written = 0, stored = 0
        var crc: UInt32 = 0
        var failure: LocatedError?

        init(spool: SectionSpool, offset: Int, capacity: Int) {
            self.spool = spool
            self.offset = offset
            buffer = .allocate(byteCount: capacity, alignment: SectionSpool.alignment)
        }

        /// Appends `bytes` to the section.
        public mutating func write(_ bytes: UnsafeRawBufferPointer) {
            var done = 0
            while done < bytes.count {
                let n = min(buffer.count - filled, bytes.count - done)
                (buffer.baseAddress! + filled).copyMemory(from: bytes.baseAddress! + done, byteCount: n)
                filled += n
                done += n
                if filled == buffer.count { flush() }
            }
            written += bytes.count
        }

        /// Stores the buffer's bytes.
        private mutating func flush() {
            guard filled > 0 else { return }
            crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), seed: crc)
            if failure == nil {
                if !SectionSpool.transfer(filled, at: offset + stored, { pwrite(spool.descriptor, buffer.baseAddress! + $0, $1, $2) }) {
                    failure = LocatedError(.unwritable, file: spool.path, message: "cannot write a section to the scratch file: \(SystemReason.errnoText)")
                }
            }
            stored += filled
            filled = 0
        }

        /// Stores the rest and lets the buffer go; the CRC-32, or the first store's error.
        mutating func finish() -> Result<UInt32, LocatedError> {
            flush()
            buffer.deallocate()
            return failure.map { .failure($0) } ?? .success(crc)
        }
    }
}
