/// Levenshtein distance (insertions, deletions, substitutions of Unicode scalars), with a
/// bound so that far-apart strings cost little.
///
/// ```swift
/// EditDistance.distance("Dessert", "Desert")                  // 1
/// EditDistance.distance("Urban", "Wetlands", limit: 2)        // nil (more than 2)
/// ```
public enum EditDistance {
    /// The distance, or nil when it is greater than `limit`.
    public static func distance(_ a: String, _ b: String, limit: Int = .max) -> Int? {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        return distance(x, y, limit: limit)
    }

    public static func distance<T: Equatable>(_ x: [T], _ y: [T], limit: Int = .max) -> Int? {
        if abs(x.count - y.count) > limit { return nil }
        if x.isEmpty { return y.count <= limit ? y.count : nil }
        if y.isEmpty { return x.count <= limit ? x.count : nil }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[y.count] <= limit ? previous[y.count] : nil
    }

    /// The values nearest `value` (case ignored): those within a third of its length in edits
    /// (at least 2), nearest first, at most `count`; or those it is a prefix of.
    ///
    /// ```swift
    /// EditDistance.closest(to: "Corvid", among: ["Corvidae", "Anatidae"])   // ["Corvidae"]
    /// ```
    public static func closest(to value: String, among candidates: [String], count: Int = 3) -> [String] {
        let target = value.lowercased()
        let limit = max(2, target.count / 3)
        var scored: [(Int, String)] = []
        for candidate in Set(candidates) {
            let folded = candidate.lowercased()
            if folded.hasPrefix(target) || target.hasPrefix(folded) { scored.append((0, candidate)); continue }
            if let d = distance(target, folded, limit: limit) { scored.append((d, candidate)) }
        }
        return scored.sorted { $0 < $1 }.prefix(max(0, count)).map(\.1)   // prefix(-1) traps
    }
}
