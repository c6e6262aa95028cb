/// SplitMix64: a tiny, fast pseudo-random generator fully determined by its seed.
///
/// The benchmarks avoid the standard library's `random(in:using:)`, whose algorithm may change
/// between toolchains: the same seed must give the same data and the same lookup keys forever.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let die = rng.within(1...6)
/// ```
@frozen
public struct SplitMix64 {
    @usableFromInline var state: UInt64

    @inlinable
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<n` (multiply-shift; the bias is far below 2⁻³² for these ranges).
    @inlinable
    public mutating func below(_ n: Int) -> Int {
        precondition(n > 0, "below(\(n))")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// A uniform integer in `range`.
    @inlinable
    public mutating func within(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `perMille`/1000.
    @inlinable
    public mutating func chance(perMille: Int) -> Bool { below(1000) < perMille }

    /// A uniform element of a non-empty array.
    @inlinable
    public mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    /// A uniform `Double` in `0..<1` (53 random bits).
    @inlinable
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
