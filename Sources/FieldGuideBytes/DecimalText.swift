/// Unsigned integers written as decimal digits straight into a buffer, without making a `String`.
///
/// ```swift
/// var bytes = [UInt8](repeating: 0, count: 20)
/// let n = bytes.withUnsafeMutableBytes { DecimalText.write(2026, into: $0, at: 0) }   // 4: "2026"
/// let m = bytes.withUnsafeMutableBytes { DecimalText.write(42, into: $0, at: 0, minimumDigits: 5) }   // 5: "00042"
/// ```
public enum DecimalText {
    /// The most digits a `UInt64` has.
    public static let maxDigits = 20

    /// Writes `value`'s digits (no sign; `0` for zero), zero-padded on the left to at least
    /// `minimumDigits` (at most `maxDigits`), at `out[at...]`, which has room for `maxDigits`
    /// bytes; returns how many it wrote.
    @inlinable
    public static func write(_ value: UInt64, into out: UnsafeMutableRawBufferPointer, at: Int, minimumDigits: Int = 1) -> Int {
        var digits = 1, rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        digits = max(digits, min(minimumDigits, maxDigits))
        var remaining = value, index = at + digits
        while index > at {
            index -= 1
            out[index] = UInt8(truncatingIfNeeded: remaining % 10) &+ UInt8(ascii: "0")
            remaining /= 10
        }
        return digits
    }
}
