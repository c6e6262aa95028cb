/// Text from a file's bytes: UTF-8 when they are valid UTF-8, otherwise Latin-1 (ISO-8859-1,
/// each byte the code point of the same number), so `JON\u{C9}THON` written by a Latin-1 system
/// reads `JONÉTHON`, never `JON\u{FFFD}THON`. The caller warns about every Latin-1 reading
/// (file, line, field): nothing is replaced or guessed silently.
///
/// Valid UTF-8 costs one validation pass (ASCII is checked a word at a time by the standard
/// library); only bytes that fail it take the Latin-1 path.
///
/// ```swift
/// let (text, isLatin1) = FileText.decode([0x4A, 0x4F, 0x4E, 0xC9, 0x54, 0x48, 0x4F, 0x4E])
/// // ("JONÉTHON", true)
/// ```
public enum FileText {
    /// The words every reader's warning uses for a value read as Latin-1.
    public static let latin1Reason = "not valid UTF-8; read as Latin-1 (ISO-8859-1)"

    /// `bytes` as UTF-8, or as Latin-1 when they are not UTF-8 (`isLatin1` says which).
    ///
    /// ASCII (almost every FAA field) goes straight to `String(decoding:as:)`, which is exact
    /// for it; `String(validating:as:)`, generic and unspecialized here, was a sixth of
    /// `ingest-faa`'s CPU time on DEREG-sized files.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, isLatin1: Bool) {
        if isASCII(UnsafeRawBufferPointer(bytes)) { return (String(decoding: bytes, as: UTF8.self), false) }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, false) }
        return (latin1(bytes), true)
    }

    /// No byte with the high bit set (eight bytes at a time).
    package static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0, bits: UInt64 = 0
        while i + 8 <= bytes.count {
            bits |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < bytes.count { bits |= UInt64(bytes[i]); i += 1 }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// Printable ASCII only: no byte with the high bit set, below 0x20 (tab included) or DEL
    /// (0x7F). The FAA fast paths take only such records; a record with anything else goes
    /// the general way, which words what it finds.
    ///
    /// Sixteen bytes at a time, lane by lane (no carries between bytes): a byte of 0x80 or
    /// more has its high bit set, a control byte gets it from `byte &- 0x20`, DEL from
    /// `byte &+ 1`, and a printable byte from none of the three; their `|` over the record is
    /// tested once at the end. The last sixteen bytes are read again from the end rather than
    /// one at a time. (`pointwiseMax` over `byte &- 0x20` needs fewer operations but is an
    /// unspecialized call per block here: callgrind counted 19.1M instructions for ingest-faa
    /// on 126K records against 29.5M for a word-at-a-time test and 12.9M for this.)
    package static func isPrintableASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        typealias Lanes = SIMD16<UInt8>
        @inline(__always) func flags(_ v: Lanes) -> Lanes { v | (v &- Lanes(repeating: 0x20)) | (v &+ Lanes(repeating: 1)) }
        guard bytes.count >= 16 else {
            for byte in bytes where byte &- 0x20 >= 0x5F { return false }
            return true
        }
        var seen = Lanes(repeating: 0)
        var i = 0
        while i + 16 <= bytes.count {
            seen |= flags(bytes.loadUnaligned(fromByteOffset: i, as: Lanes.self))
            i += 16
        }
        if i < bytes.count { seen |= flags(bytes.loadUnaligned(fromByteOffset: bytes.count - 16, as: Lanes.self)) }
        let words = unsafeBitCast(seen, to: (UInt64, UInt64).self)
        return (words.0 | words.1) & 0x8080_8080_8080_8080 == 0
    }

    /// Whether `scalar` is a control character no name, note or label means: C0 but tab, line
    /// feed and carriage return, or DEL. A NUL cuts text where C strings meet it; an escape
    /// sequence recolours or clears a terminal. The seed check (`validate`) refuses them and the
    /// FAA ingest replaces them (a line break cannot reach an FAA field: it ends the record).
    package static func isControlCharacter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0x7F
    }

    /// The first control character of `text` (`isControlCharacter`): a byte scan first, so
    /// text without one (nearly all) is not walked scalar by scalar.
    package static func firstControlCharacter(in text: String) -> Unicode.Scalar? {
        guard text.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) else { return nil }
        return text.unicodeScalars.first(where: isControlCharacter)
    }

    /// `U+001B` for ESC: a code point as messages name it.
    package static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `bytes` as UTF-8, or as Latin-1 when they are not UTF-8.
    public static func decode(_ bytes: some Collection<UInt8>) -> (text: String, isLatin1: Bool) {
        if let text = bytes.withContiguousStorageIfAvailable({ decode($0) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { decode($0) }
    }

    /// Every byte as the code point of its value.
    static func latin1(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.lazy.map { Unicode.Scalar($0) })
        return String(scalars)
    }
}

extension CSVRecord {
    /// Field `i` as text, untrimmed: UTF-8, or Latin-1 when it is not valid UTF-8 (`isLatin1`
    /// true: the reader warns with the record's line and the field's name).
    ///
    /// ```swift
    /// let (name, isLatin1) = record.text(6)
    /// if isLatin1 { warn(line: record.line, field: "NAME", FileText.latin1Reason) }
    /// ```
    public func text(_ i: Int) -> (text: String, isLatin1: Bool) {
        withField(i) { FileText.decode($0) }
    }
}

/// A value that was not valid UTF-8 and was read as Latin-1: where it was and what it became.
/// Readers that have no rejects report of their own collect these for their stage to report
/// as warnings.
///
/// ```swift
/// let reading = Latin1Reading(file: "taxonomy.csv", line: 12, field: "PRIMARY_COM_NAME", value: "Pinson des Ardennes é")
/// reading.description   // taxonomy.csv:12: PRIMARY_COM_NAME "Pinson des Ardennes é": not valid UTF-8; read as Latin-1 (ISO-8859-1)
/// ```
public struct Latin1Reading: Sendable, Hashable, CustomStringConvertible {
    /// The file as the reader was given it.
    public let file: String
    /// The record's first line (1-based).
    public let line: Int
    /// The column's name, or what the format calls the field (`label`, `period 3`).
    public let field: String
    /// The value as read, Latin-1 decoded.
    public let value: String

    public init(file: String, line: Int, field: String, value: String) {
        self.file = file; self.line = line; self.field = field; self.value = value
    }

    /// The warning's words without its place: `FIELD "value": not valid UTF-8; read as Latin-1 (ISO-8859-1)`.
    public var message: String { "\(field) \"\(value)\": \(FileText.latin1Reason)" }

    public var description: String { "\(file):\(line): \(message)" }
}
