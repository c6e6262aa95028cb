/// Eight bytes of a word tested at once: which are a given byte, which are below a bound.
///
/// Each test leaves a high bit in every byte that passes it, and maybe in a byte above one
/// that does (the subtraction's borrow), so it is exact as to whether any byte does. The tests
/// leave the other bits unmasked: a caller ORs several and masks once with `highs`.
///
/// ```swift
/// let word: UInt64 = 0x6F6C_6C65_6822_2C61   // a,"hello (little-endian)
/// let stops = (WordBytes.zeroBits(word ^ WordBytes.repeated(0x22)) | WordBytes.belowBits(word, 0x20)) & WordBytes.highs
/// stops != 0                                  // true: byte 2 is a quote
/// ```
public enum WordBytes {
    /// 0x01 in every byte.
    public static let ones: UInt64 = 0x0101_0101_0101_0101
    /// 0x80 in every byte: the mask the tests are read through.
    public static let highs: UInt64 = 0x8080_8080_8080_8080

    /// `byte` in every byte of a word (XOR it with a word: its bytes equal to `byte` become zero).
    @inlinable @inline(__always)
    public static func repeated(_ byte: UInt8) -> UInt64 { ones &* UInt64(byte) }

    /// A high bit in every zero byte of `word`, before masking with `highs`.
    @inlinable @inline(__always)
    public static func zeroBits(_ word: UInt64) -> UInt64 { (word &- ones) & ~word }

    /// A high bit in every byte of `word` below `bound` (at most 0x80), before masking with `highs`.
    @inlinable @inline(__always)
    public static func belowBits(_ word: UInt64, _ bound: UInt8) -> UInt64 { (word &- repeated(bound)) & ~word }
}
