/// Values by a nonzero 64-bit key (string ids, with a table's place in the high bits where
/// several share one table): open addressing with a multiplicative hash and linear probing.
/// The slots double once more than half full, so a probe always meets an empty slot; at most
/// `limit` values are kept, later ones are dropped.
///
/// Why not a `Dictionary`: it hashes each key with SipHash, and on `.info`'s path a lookup was
/// about 120 instructions; here it is a multiply, a load and a compare. `CodeValueIndex` and
/// `SharedRecordCache` are both this table.
///
/// ```swift
/// var table = IDTable<String>(limit: 4_096)
/// table.insert(42, "CESSNA")
/// table.value(42)   // "CESSNA"
/// ```
struct IDTable<Value> {
    /// The key of each slot, 0 for an empty one.
    private var keys: [UInt64]
    private var values: [Value?]
    /// 64 minus the slots' bit count: the hash's top bits pick the slot.
    private var shift: UInt64
    /// The most values kept.
    let limit: Int
    private(set) var count = 0

    /// An empty table keeping at most `limit` values, with slots for `expected` values from the
    /// start (it grows past them).
    init(limit: Int, expected: Int = 8) {
        self.limit = limit
        var slots = 16
        while slots < 2 * min(expected, limit) { slots *= 2 }
        keys = [UInt64](repeating: 0, count: slots)
        values = [Value?](repeating: nil, count: slots)
        shift = UInt64(64 - slots.trailingZeroBitCount)
    }

    /// Fibonacci hashing's multiplier (2^64 over the golden ratio).
    private static var multiplier: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// The value kept for `key`, nil when none is.
    @inline(__always)
    func value(_ key: UInt64) -> Value? {
        var slot = Int(truncatingIfNeeded: (key &* Self.multiplier) >> shift)
        while keys[slot] != key {
            if keys[slot] == 0 { return nil }
            slot = (slot + 1) & (keys.count - 1)
        }
        return values[slot]
    }

    /// Keeps `value` for `key` (nonzero), replacing an earlier one; past `limit` values a new
    /// key is dropped.
    mutating func insert(_ key: UInt64, _ value: Value) {
        precondition(key != 0, "0 marks an empty slot")
        let slot = slot(of: key)
        if keys[slot] == 0 {
            guard count < limit else { return }
            count += 1
        }
        keys[slot] = key
        values[slot] = value
        if count * 2 > keys.count { grow() }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    @inline(__always)
    private func slot(of key: UInt64) -> Int {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: (key &* Self.multiplier) >> shift)
        while keys[slot] != key && keys[slot] != 0 { slot = (slot + 1) & mask }
        return slot
    }

    private mutating func grow() {
        var larger = IDTable(limit: limit, expected: 0)
        let slots = keys.count * 2
        larger.keys = [UInt64](repeating: 0, count: slots)
        larger.values = [Value?](repeating: nil, count: slots)
        larger.shift = UInt64(64 - slots.trailingZeroBitCount)
        for old in keys.indices where keys[old] != 0 {
            let slot = larger.slot(of: keys[old])
            (larger.keys[slot], larger.values[slot]) = (keys[old], values[old])
        }
        larger.count = count
        self = larger
    }
}

extension IDTable: Sendable where Value: Sendable {}
