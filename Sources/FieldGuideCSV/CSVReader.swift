import CCSV
import FieldGuideBytes
import FieldGuideDiagnostics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming CSV parser over libcsv that numbers every record with its physical line.
///
/// Feed it bytes in chunks of any size; each complete record is handed to the callback.
/// Memory stays flat in the file size, and bounded in the record size: a record longer than the
/// dialect's `maxRecordBytes` is refused (`.tooLarge`, at the line it starts on) as soon as it
/// passes the bound. libcsv's space trimming is switched off; a dialect that
/// `dropsTrailingPadding` has its fields' trailing spaces removed before libcsv parses them.
///
/// ```swift
/// let parser = try CSVParser(dialect: .rfc4180, file: "taxonomy.csv")
/// try parser.parse(chunk) { record in ... }
/// try parser.finish { record in ... }
/// ```
public final class CSVParser {
    public let dialect: CSVDialect
    public let file: String

    /// libcsv's parser, behind a raw pointer: it is handed to libcsv once or twice a line, and a
    /// class property passed `inout` pays Swift's dynamic exclusivity check each time (in
    /// `emit-aircraft`, about 130 instructions a line).
    private let parser: UnsafeMutablePointer<csv_parser>
    /// Callback state lives behind a raw pointer: libcsv calls back once per field, and a class
    /// property there would pay Swift's dynamic exclusivity check on every call.
    private let state: UnsafeMutablePointer<ParseState>
    private var startedFile = false
    /// Set when the dialect drops trailing padding.
    private var padding: PaddingFilter?

    /// `firstLine` numbers the first line of the input: a parser that starts at a line boundary
    /// inside a file (one part of a file parsed in parts) counts from there. Record indexes
    /// always count from 0.
    public init(dialect: CSVDialect = .rfc4180, file: String, firstLine: Int = 1) throws(LocatedError) {
        if dialect.dropsTrailingPadding && dialect.quote != nil {
            throw LocatedError(.usage, file: file,
                               message: "expected an unquoted dialect to drop trailing padding from, found one quoted with \(Character(UnicodeScalar(dialect.quote!)))")
        }
        self.dialect = dialect
        self.file = file
        state = .allocate(capacity: 1)
        state.initialize(to: ParseState(currentLine: firstLine, rowStartLine: firstLine, maxRecordBytes: dialect.maxRecordBytes))
        parser = .allocate(capacity: 1)
        parser.initialize(to: csv_parser())
        guard csv_init(parser, 0) == 0 else {
            state.pointee.release()
            state.deinitialize(count: 1)
            state.deallocate()
            parser.deinitialize(count: 1)
            parser.deallocate()
            throw LocatedError(.resources, file: file, message: "libcsv could not initialise a parser")
        }
        fieldguide_csv_disable_trimming(parser)
        csv_set_delim(parser, dialect.delimiter)
        // A quote byte that never appears in text: FAA fields are never quoted and `"` is data.
        csv_set_quote(parser, dialect.quote ?? 0)
        if dialect.quote == nil { state.pointee.rejectsNUL = true }
        if dialect.dropsTrailingPadding { padding = PaddingFilter(delimiter: dialect.delimiter, maxRun: dialect.maxRecordBytes) }
    }

    deinit {
        padding?.release()
        csv_free(parser)
        parser.deinitialize(count: 1)
        parser.deallocate()
        state.pointee.release()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Parses the next chunk; calls `body` for every record completed by it.
    public func parse(_ chunk: UnsafeRawBufferPointer, _ body: (CSVRecord) throws -> Void) throws {
        guard var base = chunk.baseAddress else { return }
        var remaining = chunk.count
        if !startedFile {
            // A file's start (not a half's): UTF-16 is said as such, not as a NUL at line 1.
            if dialect.skipsByteOrderMark, byteOrderMarkSeen == 0, let mark = FileText.utf16ByteOrderMark(chunk) {
                throw FileText.utf16Error(file: file, mark: mark)
            }
            // A byte order mark may arrive split over the first chunks.
            while remaining > 0, byteOrderMarkSeen < 3, dialect.skipsByteOrderMark,
                  base.load(as: UInt8.self) == Self.byteOrderMark[byteOrderMarkSeen] {
                byteOrderMarkSeen += 1
                base += 1
                remaining -= 1
            }
            if remaining == 0 && byteOrderMarkSeen < 3 { return }
            startedFile = true
            try parseMarkPrefixAsData(body)
        }
        try parseBody(base, remaining, body)
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// Bytes of a byte order mark matched at the start of the file so far.
    private var byteOrderMarkSeen = 0

    /// The start of the file looked like a byte order mark but was not one: those bytes are data.
    private func parseMarkPrefixAsData(_ body: (CSVRecord) throws -> Void) throws {
        guard byteOrderMarkSeen < 3, byteOrderMarkSeen > 0 else { return }
        try Self.byteOrderMark[0..<byteOrderMarkSeen].withUnsafeBytes { try parseBody($0.baseAddress!, $0.count, body) }
    }

    private func parseBody(_ start: UnsafeRawPointer, _ count: Int, _ body: (CSVRecord) throws -> Void) throws {
        var base = start, remaining = count
        /// Bytes of the (filtered) chunk left before the first run of padding past the bound.
        var beforeOverlongRun = Int.max
        if padding != nil {
            let kept = padding!.filter(base, count: remaining)
            if let start = kept.baseAddress { base = start }
            remaining = kept.count
            if let end = padding!.overlongRunEnd { beforeOverlongRun = end }
        }
        while remaining > 0 {
            // One physical line at a time, so every record knows the line it started on.
            let newline = memchr(base, Int32(UInt8(ascii: "\n")), remaining)
            let length = newline.map { UnsafeRawPointer($0) - base + 1 } ?? remaining
            // The records before the over-long run of padding are delivered; its line is refused.
            if beforeOverlongRun < length { throw recordTooLong(line: state.pointee.currentLine) }
            try feed(base, length, endsLine: newline != nil, body)
            base += length
            remaining -= length
            beforeOverlongRun -= length
        }
        // Padding held back is only counted, but it is written out when a byte other than a
        // delimiter or line end follows: a run past the bound is a record past it.
        if let held = padding?.heldSpaces, held > dialect.maxRecordBytes { throw recordTooLong(line: state.pointee.currentLine) }
    }

    /// Bytes handed to libcsv at once: the record bound is checked after each piece, so a
    /// record never grows more than this past it.
    private static let pieceBytes = 64 << 10

    private func recordTooLong(line: Int) -> LocatedError {
        LocatedError(.tooLarge, file: file, line: line,
                     message: "expected a record of at most \(Self.byteSize(dialect.maxRecordBytes)), found a longer one (no line breaks, or not this kind of file?); refused as it passed the bound")
    }

    /// `65536` → `64 KiB`, `1048576` → `1 MiB`; other sizes in bytes.
    static func byteSize(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// Parses a whole in-memory buffer as the rest of the file.
    public func parse(_ bytes: [UInt8], _ body: (CSVRecord) throws -> Void) throws {
        try bytes.withUnsafeBytes { try parse($0, body) }
    }

    /// Ends the input, flushing a last record that has no line terminator.
    public func finish(_ body: (CSVRecord) throws -> Void) throws {
        if !startedFile {
            startedFile = true
            try parseMarkPrefixAsData(body)
        }
        let context = UnsafeMutableRawPointer(state)
        // libcsv's parser states (csv.h): 2 is FIELD_BEGUN; with `quoted` set the field's
        // closing quote never came. CSV_STRICT_FINI would say so only in strict mode, which
        // would also refuse the stray quotes real exports contain.
        if parser.pointee.quoted != 0 && parser.pointee.pstate == 2 {
            throw LocatedError(.malformed, file: file, line: state.pointee.rowStartLine,
                               message: "expected a closing quote for the field that opens on this line, found the end of the file")
        }
        if let spaces = padding?.finish(), spaces > 0 {
            try [UInt8](repeating: 0x20, count: spaces).withUnsafeBytes { try feed($0.baseAddress!, spaces, endsLine: false, body) }
        }
        csv_fini(parser, fieldCallback, rowCallback, context)
        if let line = state.pointee.tooLongRecordLine { throw recordTooLong(line: line) }
        try deliver(body)
    }

    private func feed(_ base: UnsafeRawPointer, _ length: Int, endsLine: Bool, _ body: (CSVRecord) throws -> Void) throws {
        if state.pointee.rejectsNUL, memchr(base, 0, length) != nil {
            throw LocatedError(.malformed, file: file, line: state.pointee.currentLine,
                               message: FileText.nulMessage)
        }
        // A record starts on this line unless libcsv is inside one (its state 0 is ROW_NOT_BEGUN):
        // a quoted first field can run over several lines before any field completes.
        if !state.pointee.rowInProgress && parser.pointee.pstate == 0 {
            state.pointee.rowStartLine = state.pointee.currentLine
        }
        let context = UnsafeMutableRawPointer(state)
        var offset = 0
        while offset < length {
            let piece = min(length - offset, Self.pieceBytes)
            let consumed = csv_parse(parser, base + offset, piece, fieldCallback, rowCallback, context)
            if consumed != piece {
                let code = csv_error(parser)
                let reason = String(cString: csv_strerror(code))
                throw LocatedError(code == CSV_EPARSE ? .malformed : .resources, file: file, line: state.pointee.currentLine,
                                   message: "libcsv stopped: \(reason)")
            }
            offset += piece
            // A record completed in this piece, or the one in progress: its completed fields
            // and the field libcsv is building.
            if let line = state.pointee.tooLongRecordLine { throw recordTooLong(line: line) }
            if state.pointee.bytes.count + parser.pointee.entry_pos > dialect.maxRecordBytes {
                throw recordTooLong(line: state.pointee.rowStartLine)
            }
        }
        if endsLine { state.pointee.currentLine += 1 }
        try deliver(body)
    }

    private func deliver(_ body: (CSVRecord) throws -> Void) throws {
        guard !state.pointee.completed.isEmpty else { return }
        // Taken out, and its storage handed back after: a copy kept here while the parser's
        // array is emptied would make every delivery allocate a new array.
        var records: [CSVRecord] = []
        swap(&records, &state.pointee.completed)
        for record in records { try body(record) }
        records.removeAll(keepingCapacity: true)
        swap(&records, &state.pointee.completed)
    }
}

/// Callback state shared with libcsv through an opaque pointer.
///
/// The current record's field bytes and field ends grow in buffers of their own (plain
/// stores, no `Array` bookkeeping per field); each completed record copies them once into
/// its one exact-size array (`CSVRecord.storage`).
private struct ParseState {
    var currentLine = 1
    var rowStartLine = 1
    var rowInProgress = false
    var rejectsNUL = false
    /// The dialect's bound, and the line of the first completed record past it.
    var maxRecordBytes: Int
    var tooLongRecordLine: Int?
    var recordIndex = 0
    var bytes = GrowableBuffer<UInt8>()
    var ends = GrowableBuffer<Int>()
    var completed: [CSVRecord] = []

    /// Frees the buffers (the parser's `deinit`).
    mutating func release() {
        bytes.release()
        ends.release()
    }
}

/// A manually managed, growing run of trivial values.
private struct GrowableBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// Appends `n` bytes (a field: most are short, and a `memmove` call for each was a third of
    /// the field callback's time): up to 16 go in as two words (`ShortBytes`), into 16 bytes of
    /// room made first.
    @inline(__always)
    mutating func appendBytes(_ values: UnsafeRawPointer, count n: Int) where Element == UInt8 {
        reserve(count + max(n, 16))
        let destination = UnsafeMutableRawPointer(base + count)
        if n <= 16 {
            let (low, high) = ShortBytes.words(UnsafeRawBufferPointer(start: values, count: n))
            destination.storeBytes(of: low.littleEndian, as: UInt64.self)
            destination.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
        } else {
            destination.copyMemory(from: values, byteCount: n)
        }
        count += n
    }

    @inline(__always)
    mutating func append(_ value: Element) {
        reserve(count + 1)
        base[count] = value
        count += 1
    }

    @inline(__always)
    private mutating func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        var bigger = capacity * 2
        while bigger < needed { bigger *= 2 }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: bigger)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = bigger
    }

    /// The contents, valid until the buffer changes.
    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
    var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(buffer) }

    mutating func removeAll() { count = 0 }

    mutating func release() { base.deallocate() }
}

private func fieldCallback(_ data: UnsafeMutableRawPointer?, _ length: Int, _ context: UnsafeMutableRawPointer?) {
    let state = context!.assumingMemoryBound(to: ParseState.self)
    state.pointee.rowInProgress = true
    if let data, length > 0 {
        state.pointee.bytes.appendBytes(data, count: length)
    }
    state.pointee.ends.append(state.pointee.bytes.count)
}

private func rowCallback(_ terminator: Int32, _ context: UnsafeMutableRawPointer?) {
    let state = context!.assumingMemoryBound(to: ParseState.self)
    if state.pointee.bytes.count > state.pointee.maxRecordBytes && state.pointee.tooLongRecordLine == nil {
        state.pointee.tooLongRecordLine = state.pointee.rowStartLine
    }
    state.pointee.completed.append(CSVRecord(line: state.pointee.rowStartLine, index: state.pointee.recordIndex,
                                             bytes: state.pointee.bytes.raw, ends: state.pointee.ends.buffer))
    state.pointee.recordIndex += 1
    state.pointee.bytes.removeAll()
    state.pointee.ends.removeAll()
    state.pointee.rowInProgress = false
}

/// Reads CSV files from disk in chunks.
public enum CSVReader {
    /// Streams every record of the file at `path` to `body`.
    ///
    /// ```swift
    /// try CSVReader.read(fileAt: "ACFTREF.txt", dialect: .unquoted) { record in
    ///     print(record.line, record[0])
    /// }
    /// ```
    public static func read(fileAt path: String, dialect: CSVDialect = .rfc4180, displayName: String? = nil,
                            chunkSize: Int = 1 << 20, _ body: (CSVRecord) throws -> Void) throws {
        let name = displayName ?? path
        let parser = try CSVParser(dialect: dialect, file: name)
        try stream(fileAt: path, displayName: name, chunkSize: chunkSize) { chunk in try parser.parse(chunk, body) }
        try parser.finish(body)
    }

    /// Streams the bytes of the file at `path` to `body` in chunks of up to `chunkSize` bytes
    /// (for callers that hash or parse elsewhere, such as a `CSVPipeline` producer).
    public static func stream(fileAt path: String, displayName: String? = nil, chunkSize: Int = 1 << 20,
                              _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let name = displayName ?? path
        guard let handle = fopen(path, "rb") else {
            throw LocatedError(.unreadable, file: name, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(handle) }
        let buffer = ReadBuffer.allocate(byteCount: chunkSize)
        defer { buffer.deallocate() }
        while true {
            let count = fread(buffer.baseAddress, 1, chunkSize, handle)
            if count > 0 { try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
            if count < chunkSize {
                if ferror(handle) != 0 {
                    throw LocatedError(.unreadable, file: name, message: "read failed: \(String(cString: strerror(errno)))")
                }
                break
            }
        }
    }
}
