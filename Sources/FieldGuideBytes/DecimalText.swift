/// Unsigned integers written as decimal digits straight into a buffer, without making a `String`.
///
/// ```swift
/// var bytes = [UInt8](repeating: 0, count: 20)
/// let n = bytes.withUnsafeMutableBytes { DecimalText.write(2026, into: $0, at: 0) }   // 4: "2026"
/// ```
public enum DecimalText {
    /// The most digits a `UInt64` has.
    public static let maxDigits = 20

    /// Writes `value`'s digits (no sign, no leading zeros; `0` for zero) at `out[at...]`, which
    /// has room for `maxDigits` bytes; returns how many it wrote.
    @inlinable
    public static func write(_ value: UInt64, into out: UnsafeMutableRawBufferPointer, at: Int) -> Int {
        var digits = 1, rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        var remaining = value, index = at + digits
        repeat {
            index -= 1
            out[index] = UInt8(truncatingIfNeeded: remaining % 10) &+ UInt8(ascii: "0")
            remaining /= 10
        } while remaining > 0
        return digits
    }
}
