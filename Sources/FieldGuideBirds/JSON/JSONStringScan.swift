import FieldGuideBytes

/// The word-at-a-time part of `JSONParser`'s string scan.
///
/// ```swift
/// let bytes = Array(#""plain text here", "next""#.utf8)
/// // From 1: "plain te" is plain; the next word holds the closing quote.
/// bytes.withUnsafeBufferPointer { JSONStringScan.plainWords($0, from: 1) }   // (end: 9, ascii: true)
/// ```
enum JSONStringScan {
    /// Where the whole words of eight bytes from `start` that hold no quote, backslash or
    /// control character end, and whether all their bytes were ASCII. The bytes from `end` on
    /// are left to a byte loop: the word there holds a byte that may end the string (or the
    /// buffer has fewer than eight bytes left).
    ///
    /// Why: byte by byte, the scan was a fifth of the parser's instructions on a world-size
    /// seed (callgrind, `birds-bench`), and making the string then read every byte again to
    /// tell ASCII from the rest.
    @inline(__always)
    static func plainWords(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, ascii: Bool) {
        typealias W = WordBytes
        guard let base = bytes.baseAddress else { return (start, true) }
        var at = start, seen: UInt64 = 0
        while at + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)
            // Whether a byte is a quote, a backslash or below 0x20 (the same word test as the
            // CSV writer's quoting test).
            let stops = W.zeroBits(word ^ W.repeated(0x22)) | W.zeroBits(word ^ W.repeated(0x5C)) | W.belowBits(word, 0x20)
            if stops & W.highs != 0 { break }
            seen |= word
            at += 8
        }
        return (at, seen & W.highs == 0)
    }
}
