/// A hash map from packed 8-byte keys (N-numbers, join codes) to values, for the MASTER merge's
/// hundreds of thousands of lookups: open addressing with linear probing and a multiplicative
/// hash, where `Dictionary` spends most of a lookup in its seeded hasher.
///
/// Values are kept in insertion order; the table holds each key and its value's index.
///
/// ```swift
/// var seen = PackedKeyTable<Int>(expectedCount: 316_000)
/// if seen[key] == nil { seen[key] = line }
/// ```
struct PackedKeyTable<Value> {
    /// Keys by slot; `empty` marks a free slot (the key 0 lives in `zero`).
    private var keys: [UInt64]
    private var indices: [Int32]
    private var values: [Value] = []
    private var zero: Value?
    private var mask: Int
    private var shift: UInt64
    private static var empty: UInt64 { 0 }

    init(expectedCount: Int = 16) {
        var capacity = 16
        while capacity < expectedCount * 2 { capacity <<= 1 }
        keys = [UInt64](repeating: Self.empty, count: capacity)
        indices = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        values.reserveCapacity(expectedCount)
    }

    var count: Int { values.count + (zero == nil ? 0 : 1) }

    /// The first slot to probe for `key`: the top bits of a Fibonacci hash.
    @inline(__always)
    private func home(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    @inline(__always)
    private func slot(of key: UInt64) -> (slot: Int, found: Bool) {
        var slot = home(key)
        while true {
            let stored = keys[slot]
            if stored == key { return (slot, true) }
            if stored == Self.empty { return (slot, false) }
            slot = (slot + 1) & mask
        }
    }

    // Always inlined: the merge's loop over every row looks each N-number up and stores it, and
    // there a called accessor cost the merge about 40% more instructions (callgrind, release).
    subscript(key: UInt64) -> Value? {
        @inline(__always) get {
            if key == Self.empty { return zero }
            let (slot, found) = slot(of: key)
            return found ? values[Int(indices[slot])] : nil
        }
        @inline(__always) set {
            precondition(newValue != nil, "PackedKeyTable does not remove keys")
            if key == Self.empty { zero = newValue; return }
            let (slot, found) = slot(of: key)
            if found { values[Int(indices[slot])] = newValue!; return }
            keys[slot] = key
            indices[slot] = Int32(values.count)
            values.append(newValue!)
            if values.count * 2 > keys.count { grow() }
        }
    }

    private mutating func grow() {
        let old = keys, oldIndices = indices
        keys = [UInt64](repeating: Self.empty, count: old.count * 2)
        indices = [Int32](repeating: 0, count: old.count * 2)
        mask = keys.count - 1
        shift -= 1
        for (key, index) in zip(old, oldIndices) where key != Self.empty {
            let (slot, _) = slot(of: key)
            keys[slot] = key
            indices[slot] = index
        }
    }
}

extension PackedKeyTable: Sendable where Value: Sendable {}
