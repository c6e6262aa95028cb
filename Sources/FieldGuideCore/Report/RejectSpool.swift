import FieldGuideCSV
import FieldGuideDiagnostics

/// A rejects report written as its rows are found, rather than held: CSV rows in a buffer of
/// at most about 1 MiB, the rest in a `Spool` made when the buffer first fills. A clean run
/// never touches the disk; a run that rejects everything keeps its memory flat (a MASTER of
/// 316,000 rows with five bad fields each held 1.5 million `RowIssue`s, 600 MB).
///
/// Rows can be cut off again (`mark()`, `rollBack(to:)`: a file that failed part-way), and
/// one spool's rows appended to another's in order (`append(contentsOf:)`, `append(_:of:counts:)`:
/// the rows read on other threads). `prepare(_:)` writes the report beside its place, to
/// commit with a run's other outputs (`OutputSet`).
///
/// ```swift
/// let rejects = RejectSpool(directory: "output/stage/faa", name: "faa-rejects.csv")
/// try rejects.append(RowIssue(.rejected, file: "MASTER.txt", line: 2, field: "N-NUMBER", value: "?", reason: "…"))
/// rejects.counts.rejected   // 1
/// let written = try rejects.prepare("output/stage/faa/faa-rejects.csv")   // writer, size, SHA-256
/// try written.writer.commit()
/// ```
public final class RejectSpool {
    /// How many rows of each kind a stretch of the report holds.
    public struct Counts: Sendable, Equatable {
        public var rejected = 0, warnings = 0
        /// Warnings that a field was not UTF-8 and was read as Latin-1 (`FileText.latin1Reason`).
        public var latin1 = 0

        public init() {}

        public mutating func add(_ issue: RowIssue) {
            if issue.severity == .rejected { rejected += 1 } else { warnings += 1 }
            if issue.reason == FileText.latin1Reason { latin1 += 1 }
        }

        public static func += (lhs: inout Counts, rhs: Counts) {
            lhs.rejected += rhs.rejected; lhs.warnings += rhs.warnings; lhs.latin1 += rhs.latin1
        }
    }

    /// Where the rows after it start, and the counts before them.
    public struct Mark: Sendable { public let size: Int, counts: Counts }

    /// The buffer's size past which it goes to the spool.
    static let flushSize = 1 << 20

    private let directory: String, name: String
    private var spool: Spool?
    private var writer = CSVWriter()
    /// Spooled bytes read back for another report (`readBack`): `windowCount` bytes from `windowStart`.
    private var window: UnsafeMutableRawBufferPointer?
    private var windowStart = 0, windowCount = 0
    /// The rows so far, by kind.
    public private(set) var counts = Counts()

    deinit { window?.deallocate() }

    /// A report whose scratch file, if it needs one, is made in `directory` after `name`;
    /// `header` starts it with `RejectsReport.header` (a stretch appended to another has none).
    public init(directory: String, name: String, header: Bool = true) {
        self.directory = directory
        self.name = name
        if header { writer.write(RejectsReport.header) }
    }

    /// Bytes written so far, the header included: where the next row starts.
    public var size: Int { (spool?.size ?? 0) + writer.count }

    public func append(_ issue: RowIssue) throws(LocatedError) {
        writer.write(issue.csvFields)
        counts.add(issue)
        if writer.count >= Self.flushSize { try flush() }
    }

    /// Appends the rows of `other` in `range` (sizes `other` had: whole rows), which hold
    /// `counts`.
    public func append(_ range: Range<Int>, of other: RejectSpool, counts: Counts) throws(LocatedError) {
        precondition(range.lowerBound >= 0 && range.upperBound <= other.size, "a range outside the report")
        precondition(other !== self, "a report appended to itself")
        let inFile = other.spool?.size ?? 0
        var offset = range.lowerBound
        while offset < min(range.upperBound, inFile) {
            let chunk = try other.readBack(at: offset, upTo: min(range.upperBound, inFile))
            writer.append(encoded: chunk)
            offset += chunk.count
            if writer.count >= Self.flushSize { try flush() }
        }
        if range.upperBound > inFile {
            other.writer.withBytes { bytes in
                writer.append(encoded: UnsafeRawBufferPointer(rebasing: bytes[max(range.lowerBound, inFile) - inFile..<range.upperBound - inFile]))
            }
            if writer.count >= Self.flushSize { try flush() }
        }
        self.counts += counts
    }

    /// Appends every row of `other` (made without a header).
    public func append(contentsOf other: RejectSpool) throws(LocatedError) {
        try append(0..<other.size, of: other, counts: other.counts)
    }

    /// Marks the end of the rows so far.
    public func mark() -> Mark { Mark(size: size, counts: counts) }

    /// Drops every row after `mark`.
    public func rollBack(to mark: Mark) throws(LocatedError) {
        let inFile = spool?.size ?? 0
        if mark.size >= inFile {
            writer.truncate(to: mark.size - inFile)
        } else {
            writer.truncate(to: 0)
            windowCount = 0   // what was read back may be written again
            try spool?.rollBack(to: mark.size)
        }
        counts = mark.counts
    }

    /// Writes the report into a temporary file beside `destination`: the writer to commit (or
    /// drop, leaving `destination` as it was) with the other outputs of a run, its size and SHA-256.
    public func prepare(_ destination: String) throws(LocatedError) -> (writer: AtomicFileWriter, bytes: Int, sha256: String) {
        let bytes = size
        if let spool {
            try spool.append(&writer)
            let (out, sha256) = try spool.prepare(destination)
            return (out, bytes, sha256)
        }
        let out = try AtomicFileWriter(path: destination)
        var digest = StreamingDigest()
        var failure: LocatedError?
        writer.withBytes { buffer in
            digest.update(buffer)
            do throws(LocatedError) { try out.write(buffer) } catch { failure = error }
        }
        if let failure {
            out.abort()
            throw failure
        }
        return (out, bytes, digest.finalize())
    }

    /// The spooled bytes from `offset` up to `end` (within the spool), or as many as the
    /// read-back window holds: one read of 1 MiB serves the many short stretches a merge asks
    /// for in order (a registration in two of every MASTER's rows, each a stretch).
    private func readBack(at offset: Int, upTo end: Int) throws(LocatedError) -> UnsafeRawBufferPointer {
        guard let spool else { preconditionFailure("nothing spooled") }
        if window == nil { window = ReadBuffer.allocate(byteCount: Self.flushSize) }
        if offset < windowStart || offset >= windowStart + windowCount {
            windowStart = offset
            windowCount = 0   // a failed read leaves the window empty
            windowCount = try spool.read(at: offset, into: window!)
        }
        let from = offset - windowStart
        return UnsafeRawBufferPointer(rebasing: window![from..<min(windowCount, end - windowStart)])
    }

    /// Moves the buffer into the spool, making it the first time.
    private func flush() throws(LocatedError) {
        if spool == nil { spool = try Spool(directory: directory, name: name) }
        try spool!.append(&writer)
    }
}
