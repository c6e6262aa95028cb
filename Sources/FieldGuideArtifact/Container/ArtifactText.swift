import FieldGuideBytes

/// Text read from an artifact, made into `String`s: short ASCII values without the general
/// decoder's work.
///
/// Why: a lookup's fields are mostly short ASCII (a model code, a state, a city, six Mode S hex
/// digits), and `String(decoding:as:)` spends about 150 instructions on each, validating and
/// copying through a call into the runtime. A Swift string of at most 15 UTF-8 bytes is stored
/// inline, in the string's own two words: the bytes, then a count and flags in the last byte.
/// For ASCII bytes that representation is written here directly, a copy and an OR.
///
/// That layout is the standard library's, not a public API, so it is checked before it is used:
/// `inlineLayoutHolds` compares a literal's words with the words this code would write for it
/// (the compiler folds the check to a constant), and anything else, or text that is longer or
/// not ASCII, goes through `String(decoding:as:)` as before. Either way the result is the same
/// string (`ArtifactTextTests`).
///
/// ```swift
/// ArtifactText.string(bytes)   // "CESSNA" from the six bytes, no heap allocation
/// ```
public enum ArtifactText {
    /// The longest text stored inline in a `String` on 64-bit platforms.
    @inlinable static var inlineCapacity: Int { 15 }

    /// `bytes` (UTF-8, repaired if invalid) as a `String`.
    @inlinable
    public static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        inlinedString(bytes)
    }

    /// `string(_:)`, always inlined: for the hottest callers (a lookup's summary fields), where
    /// the call and the copy of its arguments cost a third of a short field.
    @inlinable @inline(__always)
    static func inlinedString(_ bytes: UnsafeRawBufferPointer) -> String {
        if bytes.count <= inlineCapacity, inlineLayoutHolds, let inline = inlineASCII(bytes) { return inline }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `String` keeps short ASCII text as this type writes it: two little-endian words
    /// holding the bytes, the last byte `0xE0 | count` (immortal, small, ASCII).
    @inlinable
    static var inlineLayoutHolds: Bool {
        guard MemoryLayout<String>.size == 16 else { return false }
        let words = unsafeBitCast("AB", to: (UInt64, UInt64).self)
        return words.0 == 0x4241 && words.1 == 0xE2 << 56
    }

    /// The inline string of `bytes` (at most 15), nil when one of them is not ASCII.
    @inlinable @inline(__always)
    static func inlineASCII(_ bytes: UnsafeRawBufferPointer) -> String? {
        let (low, high) = words(bytes)
        guard (low | high) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return smallString(low, high | (0xE0 | UInt64(bytes.count)) << 56)
    }

    /// The inline string of the `count` bytes at `base`, nil when `count` is over 15 or one of
    /// them is not ASCII. Reads 16 bytes from `base` whatever `count`: the caller guarantees
    /// they lie inside its buffer.
    ///
    /// Why a second form: `inlineASCII(_:)` chooses its loads by the count, and a lookup's fields
    /// have every length, so those branches are mispredicted about as often as not (some 20
    /// cycles each, six fields a lookup). Here the count only shifts the masks: no branch on it.
    @inlinable @inline(__always)
    public static func inlineASCII(padded base: UnsafeRawPointer, count: Int) -> String? {
        guard inlineLayoutHolds, UInt(bitPattern: count) <= UInt(inlineCapacity) else { return nil }
        let n = UInt64(truncatingIfNeeded: count)
        // Smart shifts: a shift by 64 gives 0, so a mask of all ones for 8 bytes and none for 0.
        let low = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)) & ~(UInt64.max << (8 * min(n, 8)))
        let high = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) & ~(UInt64.max << (8 * (max(n, 8) - 8)))
        guard (low | high) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return smallString(low, high | (0xE0 | n) << 56)
    }

    /// The inline string of the first `count` bytes (at most 8) of `word`, its low byte first;
    /// nil when one of them is not ASCII, or `count` is over 8.
    ///
    /// Why: a registration's N-number is its summary's packed key, already a word. Stored to a
    /// buffer and read back through `string(_:)`, whose loads branch on the count, it cost
    /// `.info` about 40 instructions more a call (callgrind: 5,648 against 5,608).
    ///
    /// ```swift
    /// ArtifactText.inlineASCII(word: 0x544A_3035_324E, count: 6)   // "N250JT"
    /// ```
    @inlinable @inline(__always)
    public static func inlineASCII(word: UInt64, count: Int) -> String? {
        guard inlineLayoutHolds, UInt(bitPattern: count) <= 8 else { return nil }
        let n = UInt64(truncatingIfNeeded: count)
        // A smart shift: by 64 it gives 0, so all eight bytes are kept.
        let low = word & ~(UInt64.max << (8 * n))
        guard low & 0x8080_8080_8080_8080 == 0 else { return nil }
        return smallString(low, (0xE0 | n) << 56)
    }

    /// The string whose two words are `low` and `high` (the inline layout `inlineLayoutHolds`
    /// checks), written into a string variable's storage.
    ///
    /// Why not `unsafeBitCast` to `String`: the compiler cannot tell that a bit-cast string needs
    /// no reference count, so it copies it with a call into the runtime (`swift_bridgeObjectRetain`),
    /// one a field, which the runtime then finds has nothing to count. The string written here
    /// replaces an empty literal, which had nothing to count either, and is returned as is.
    @inlinable @inline(__always)
    static func smallString(_ low: UInt64, _ high: UInt64) -> String {
        var text = ""
        withUnsafeMutableBytes(of: &text) { $0.storeBytes(of: (low, high), as: (UInt64, UInt64).self) }
        return text
    }

    /// The first eight UTF-8 bytes of `text` as a little-endian word (zero past its end) and its
    /// count, when `text` is stored inline as ASCII (at most 15 bytes); nil for any other string.
    /// Reads the string's own words: no call, no copy (a registration lookup's key, `N12345`).
    @inlinable @inline(__always)
    public static func inlineASCIIPrefix(_ text: String) -> (word: UInt64, count: Int)? {
        guard inlineLayoutHolds else { return nil }
        let (low, high) = unsafeBitCast(text, to: (UInt64, UInt64).self)
        // Top nibble 0xE: immortal, small, ASCII (`inlineLayoutHolds`); the count is the nibble below.
        guard high >> 60 == 0xE else { return nil }
        return (low, Int(truncatingIfNeeded: (high >> 56) & 0xF))
    }

    /// `bytes` (at most 16) as two little-endian words, zero past the end (`ShortBytes`).
    @inlinable @inline(__always)
    static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) { ShortBytes.words(bytes) }
}
