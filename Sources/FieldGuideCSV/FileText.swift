import FieldGuideDiagnostics

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

    /// The first control character of `text` (`isControlCharacter`): a byte scan first
    /// (`mayHoldControl`), so text without one (nearly all) is not walked scalar by scalar.
    package static func firstControlCharacter(in text: String) -> Unicode.Scalar? {
        guard text.utf8.withContiguousStorageIfAvailable(mayHoldControl) ?? text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            return nil
        }
        return text.unicodeScalars.first(where: isControlCharacter)
    }

    /// Whether `bytes` hold a byte below 0x20 (a tab or a line break too) or DEL: eight bytes at
    /// a time, each test exact for the whole word (a byte below 0x20 is the only one that
    /// borrows from its high bit without having it set; DEL the only one that XOR 0x7F zeroes).
    ///
    /// Why: every observation of `ingest-exports` is checked, a GPX track's hundreds of
    /// thousands of them; `utf8.contains(where:)` cost 1.8% of the stage's instructions there.
    static func mayHoldControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let raw = UnsafeRawBufferPointer(bytes)
        var i = 0
        while i + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self), del = word ^ (ones &* 0x7F)
            if ((word &- ones &* 0x20) & ~word | (del &- ones) & ~del) & highs != 0 { return true }
            i += 8
        }
        while i < raw.count {
            if raw[i] < 0x20 || raw[i] == 0x7F { return true }
            i += 1
        }
        return false
    }

    /// What a control character in a field becomes when a reader keeps the field.
    package static let controlReplacement: Unicode.Scalar = "\u{FFFD}"

    /// `text` with every control character (`isControlCharacter`) replaced by U+FFFD, and the
    /// first one it held; `text` itself and nil when it holds none (nearly always: one byte scan).
    ///
    /// ```swift
    /// FileText.replacingControlCharacters(in: "PETERSEN\u{1B}[2J")   // ("PETERSEN\u{FFFD}[2J", "\u{1B}")
    /// ```
    package static func replacingControlCharacters(in text: String) -> (text: String, first: Unicode.Scalar?) {
        guard let first = firstControlCharacter(in: text) else { return (text, nil) }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.lazy.map { isControlCharacter($0) ? controlReplacement : $0 })
        return (String(scalars), first)
    }

    /// The words every reader's warning uses for a control character it replaced.
    package static func controlReason(_ scalar: Unicode.Scalar) -> String {
        "expected text, found the control character \(codePoint(scalar)); replaced with U+FFFD"
    }

    /// What a reader of text says about a NUL byte: text never holds one, a binary file or one
    /// in another encoding does.
    package static let nulMessage = "expected text, found a NUL byte (binary or wrongly encoded file)"

    /// `FF FE` or `FE FF` when `bytes` start with a UTF-16 byte-order mark (Notepad's
    /// "Unicode", Excel's "Unicode Text"), nil otherwise: a reader says so at line 1 instead of
    /// reading every other byte as a NUL.
    package static func utf16ByteOrderMark(_ bytes: some Sequence<UInt8>) -> String? {
        var iterator = bytes.makeIterator()
        switch (iterator.next(), iterator.next()) {
        case (0xFF, 0xFE): return "FF FE"
        case (0xFE, 0xFF): return "FE FF"
        default: return nil
        }
    }

    /// The error for a file in UTF-16 (`utf16ByteOrderMark`): `FILE:1:1: text in UTF-16; ADVICE
    /// (expected UTF-8 text; found UTF-16 (the byte-order mark FF FE))`.
    package static func utf16Error(file: String, mark: String, advice: String = "save it as UTF-8") -> LocatedError {
        LocatedError(.encoding, file: file, line: 1, column: 1, expected: "UTF-8 text", found: "UTF-16 (the byte-order mark \(mark))",
                     message: "text in UTF-16; " + advice)
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

