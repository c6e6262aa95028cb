import CCSV
import FieldGuideBytes

/// Writes CSV records, quoting a field through libcsv only when it needs it.
///
/// Output is deterministic: `\n` line ends, fields quoted when they hold the delimiter, a
/// quote, a line break, or leading/trailing white space.
///
/// ```swift
/// var writer = CSVWriter()
/// writer.write(["code", "name"])
/// writer.write(["0020901", "AAR AIRLIFT GROUP INC"])
/// let bytes = writer.bytes
/// ```
public struct CSVWriter: Sendable {
    public let dialect: CSVDialect
    // Internal but usable from inlinable code: `writeField(_:)`'s short path is inlined into
    // the FAA fast paths (25 million fields at full size), where its call cost a fifth of it.
    /// The output: its first `count` bytes are what was written; the rest is room to write
    /// into without a capacity check a byte (see `writeField(_:)`).
    @usableFromInline var storage: [UInt8] = []
    /// Bytes written so far (`count`).
    @usableFromInline var written = 0
    /// Whether `writeField(_:)` has started a record that `endRecord()` has not ended.
    @usableFromInline var inRecord = false
    /// `dialect`'s delimiter and quote repeated in every byte of a word, for the quoting test.
    @usableFromInline let delimiterWord: UInt64, quoteWord: UInt64

    /// Bytes written so far.
    public var count: Int { written }

    public init(dialect: CSVDialect = .rfc4180) {
        precondition(dialect.quote != nil, "CSVWriter needs a quoting dialect")
        self.dialect = dialect
        delimiterWord = WordBytes.repeated(dialect.delimiter)
        quoteWord = WordBytes.repeated(dialect.quote!)
    }

    /// Everything written so far (a copy: `count` and `takeBytes()` do not copy).
    public var bytes: [UInt8] { Array(storage[0..<count]) }

    /// Everything written so far, handed over; the writer starts again empty.
    public mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &storage)
        taken.removeSubrange(written...)
        written = 0
        return taken
    }

    /// Appends one record.
    public mutating func write(_ fields: [String]) {
        for field in fields { writeField(field) }
        endRecord()
    }

    /// Appends one text field of a record written field by field (`writeField(_:)` on its UTF-8).
    @inlinable
    public mutating func writeField(_ text: String) {
        // Native and small strings have contiguous UTF-8 (no copy of the string, unlike `withUTF8`).
        if text.utf8.withContiguousStorageIfAvailable({ writeField(UnsafeRawBufferPointer($0)) }) == nil {
            var text = text
            text.withUTF8 { writeField(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Appends one text field, empty when `text` is nil (no string made for it).
    @inlinable @inline(__always)
    public mutating func writeField(_ text: String?) {
        if let text { writeField(text) } else { writeEmptyFields(1) }
    }

    /// Appends one integer field in decimal (no quotes needed), without making a `String`.
    public mutating func writeField(_ value: Int) {
        // The delimiter, a sign and the digits.
        reserve(1 + 1 + DecimalText.maxDigits)
        let delimiter = dialect.delimiter, separate = inRecord, start = written
        inRecord = true
        written = storage.withUnsafeMutableBytes { out in
            var at = start
            if separate { out[at] = delimiter; at += 1 }
            if value < 0 { out[at] = UInt8(ascii: "-"); at += 1 }
            return at + DecimalText.write(UInt64(value.magnitude), into: out, at: at)
        }
    }

    /// Appends `count` empty fields of a record written field by field: their delimiters.
    @inlinable
    public mutating func writeEmptyFields(_ count: Int) {
        guard count > 0 else { return }
        let delimiters = inRecord ? count : count - 1
        inRecord = true
        guard delimiters > 0 else { return }
        reserve(delimiters)
        let delimiter = dialect.delimiter, start = written
        for i in start..<start + delimiters { storage[i] = delimiter }
        written = start + delimiters
    }

    /// Appends one field of a record written field by field: the delimiter first, unless it
    /// is the record's first field. `endRecord()` ends the record.
    ///
    /// The hot path of writing the FAA hand-off (25 million fields at full size, most under
    /// 16 bytes): room is made first (for a short unquoted field the delimiter and two words,
    /// for any other the worst case of quoting), so the field goes in with plain stores, a
    /// short one as two words, and the quoting test reads it a word at a time.
    /// Through `Array.append` a field took about 30 ns, a sixth of `ingest-faa`'s time.
    @inlinable
    public mutating func writeField(_ utf8: UnsafeRawBufferPointer) {
        // The common case on a path of its own: a short field that needs no quotes. Folded into
        // the general store below it cost 15% more instructions in this function (callgrind).
        let n = utf8.count
        if n <= 16 {
            let (low, high) = ShortBytes.words(utf8)
            if !needsQuoting(utf8, low, high) {
                // The delimiter and the field's two words.
                reserve(1 + 16)
                let delimiter = dialect.delimiter, separate = inRecord, start = written
                inRecord = true
                written = storage.withUnsafeMutableBytes { out in
                    var at = start
                    if separate { out[at] = delimiter; at += 1 }
                    out.storeBytes(of: low.littleEndian, toByteOffset: at, as: UInt64.self)
                    out.storeBytes(of: high.littleEndian, toByteOffset: at + 8, as: UInt64.self)
                    return at + n
                }
                return
            }
        }
        writeLongOrQuoted(utf8)
    }

    /// `writeField(_:)` for a field longer than 16 bytes or one that needs quotes.
    @usableFromInline
    mutating func writeLongOrQuoted(_ utf8: UnsafeRawBufferPointer) {
        let n = utf8.count
        // Worst case: the delimiter, every byte a quote doubled, the two enclosing quotes.
        reserve(1 + 2 * n + 2)
        let delimiter = dialect.delimiter, separate = inRecord, start = written
        inRecord = true
        // A short field that reaches here needs quotes; a longer one is tested here.
        let quoting = n <= 16 || needsQuoting(utf8, 0, 0)
        let quote = dialect.quote!
        written = storage.withUnsafeMutableBytes { out in
            var at = start
            if separate { out[at] = delimiter; at += 1 }
            if quoting {
                at += csv_write2(out.baseAddress! + at, 2 * n + 2, utf8.baseAddress, n, quote)
            } else {
                (out.baseAddress! + at).copyMemory(from: utf8.baseAddress!, byteCount: n)
                at += n
            }
            return at
        }
    }

    /// Ends a record written with `writeField(_:)`.
    public mutating func endRecord() {
        reserve(1)
        storage[written] = UInt8(ascii: "\n")
        written += 1
        inRecord = false
    }

    /// Appends bytes that already are CSV records of this dialect (from another writer).
    public mutating func append(encoded: UnsafeRawBufferPointer) {
        precondition(!inRecord, "a record is half written")
        guard encoded.count > 0 else { return }
        reserve(encoded.count)
        let start = written
        storage.withUnsafeMutableBytes { out in
            (out.baseAddress! + start).copyMemory(from: encoded.baseAddress!, byteCount: encoded.count)
        }
        written += encoded.count
    }

    /// Hands the bytes written so far to `body` without copying them.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<written])) }
    }

    /// Keeps the first `count` bytes written (a count the writer had) and drops the rest,
    /// keeping its buffer for what comes next.
    public mutating func truncate(to count: Int) {
        precondition(!inRecord && count >= 0 && count <= written, "a record is half written, or the writer never had that count")
        written = count
    }

    /// Hands the bytes written so far to `sink` and starts a new buffer (for streaming writes).
    public mutating func drain(_ sink: ([UInt8]) throws -> Void) rethrows {
        guard written > 0 else { return }
        try sink(bytes)
        written = 0
    }

    /// Makes room for `extra` more bytes past `count`, at least doubling when it grows.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) {
        if written + extra > storage.count { grow(written + extra) }
    }

    /// Reserves room for `bytes` of output without touching it (only pages written become
    /// memory): the writer then grows in place up to it, with no copy (see `grow(_:)`).
    public mutating func reserveCapacity(_ bytes: Int) { storage.reserveCapacity(bytes) }

    @usableFromInline
    mutating func grow(_ needed: Int) {
        // Within the capacity the room grows in place, 1 MiB at a time: doubling there would
        // zero-fill pages past the end of the output. Past it, at least doubling.
        let room = needed <= storage.capacity
            ? min(storage.capacity, max(needed, storage.count + (1 << 20)))
            : max(needed, 2 * storage.count, 4096)
        storage.append(contentsOf: repeatElement(0, count: room - storage.count))
    }

    /// Whether a field must be quoted: it holds the delimiter, the quote, a line feed or a
    /// carriage return, or starts or ends with a space or a tab. `low` and `high` are a field
    /// of at most 16 bytes as `ShortBytes.words(_:)` gives them; a longer one is read here.
    @inlinable @inline(__always)
    func needsQuoting(_ utf8: UnsafeRawBufferPointer, _ low: UInt64, _ high: UInt64) -> Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return true }
        // The zero bytes past a short field are none of the four.
        if utf8.count <= 16 { return specialBytes(low) | specialBytes(high) != 0 }
        var i = 0
        while i + 8 <= utf8.count {
            if holdsSpecial(utf8.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian) { return true }
            i += 8
        }
        return i < utf8.count && holdsSpecial(utf8.loadUnaligned(fromByteOffset: utf8.count - 8, as: UInt64.self).littleEndian)
    }

    /// Whether a byte of `word` is the delimiter, the quote, `\n` or `\r`.
    @inlinable @inline(__always)
    func holdsSpecial(_ word: UInt64) -> Bool { specialBytes(word) != 0 }

    /// A high bit in each byte of `word` that is the delimiter, the quote, `\n` or `\r` (and
    /// maybe in a byte above one): zero when there is none.
    ///
    /// The four tests' masks are combined and tested once (two words of a short field too).
    /// Tested one by one, each was a compare and a branch of its own, and the tests were about a
    /// third of `writeField(_:)`'s instructions; combined, it runs 8% fewer (callgrind).
    @inlinable @inline(__always)
    func specialBytes(_ word: UInt64) -> UInt64 {
        typealias W = WordBytes
        return (W.zeroBits(word ^ delimiterWord) | W.zeroBits(word ^ quoteWord)
            | W.zeroBits(word ^ W.repeated(0x0A)) | W.zeroBits(word ^ W.repeated(0x0D))) & W.highs
    }
}
