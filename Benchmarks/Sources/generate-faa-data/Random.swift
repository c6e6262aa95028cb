/// SplitMix64: a tiny, fast pseudo-random generator fully determined by its seed.
///
/// The generator deliberately avoids the standard library's `random(in:using:)`, whose
/// algorithm may change between toolchains: the same seed must give the same bytes forever.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<n` (multiply-shift; the bias is far below 2⁻³² for these ranges).
    mutating func below(_ n: Int) -> Int {
        precondition(n > 0, "below(\(n))")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// A uniform integer in `range`.
    mutating func within(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `perMille`/1000.
    mutating func chance(perMille: Int) -> Bool { below(1000) < perMille }

    /// A uniform element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    /// A uniform `Double` in `0..<1` (53 random bits).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}

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

/// Proleptic Gregorian dates as day numbers, so that every generated date is a real one.
///
/// Day 0 is 1970-01-01; the conversions are Howard Hinnant's `days_from_civil` and
/// `civil_from_days`.
enum CivilDate {
    /// The day number of `year`-`month`-`day`.
    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date of day number `n`.
    static func date(_ n: Int) -> (year: Int, month: Int, day: Int) {
        let z = n + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `YYYYMMDD` of day number `n`, as an integer (`20230426`).
    static func yyyymmdd(_ n: Int) -> Int {
        let d = date(n)
        return d.year * 10_000 + d.month * 100 + d.day
    }

    /// The last day of `month` in `year`.
    static func endOfMonth(_ year: Int, _ month: Int) -> Int {
        month == 12 ? day(year + 1, 1, 1) - 1 : day(year, month + 1, 1) - 1
    }
}
