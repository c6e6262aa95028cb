import BenchSupport

/// A fixed set of values drawn with fixed relative weights.
///
/// ```swift
/// let status = Weighted([("V", 90), ("M", 2), ("7", 8)])
/// let code = status.draw(&rng)
/// ```
struct Weighted<Value: Sendable>: Sendable {
    private let values: [Value]
    private let cumulative: [Int]

    init(_ entries: [(Value, Int)]) {
        precondition(!entries.isEmpty && entries.allSatisfy { $0.1 > 0 }, "weights must be positive")
        values = entries.map(\.0)
        var total = 0
        cumulative = entries.map { total += $0.1; return total }
    }

    /// One value, with probability proportional to its weight.
    func draw(_ rng: inout SplitMix64) -> Value {
        let r = rng.below(cumulative[cumulative.count - 1])
        var i = 0
        while cumulative[i] <= r { i += 1 }
        return values[i]
    }
}
