/// An open-addressing hash map from non-zero `UInt64` keys to `UInt32` values: 12 bytes a
/// slot, grown at 70% full, no per-entry allocation. The aggregation's checklist table (one
/// entry per checklist, the memory it holds for the whole file) and its (checklist, taxon) set.
///
/// ```swift
/// var table = PackedHashTable()
/// let (value, inserted) = table.findOrInsert(42, value: 7)   // (7, true)
/// table.findOrInsert(42, value: 9).value                     // 7: already there
/// ```
struct PackedHashTable {
    private var keys: [UInt64]
    private var values: [UInt32]
    private var mask: Int
    private(set) var count = 0

    init(capacity: Int = 1 << 12) {
        var size = 16
        while size < capacity { size <<= 1 }
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: 0, count: size)
        mask = size - 1
    }

    /// Bytes held by the slots (for the log's memory figure).
    var bytes: Int { keys.count * 12 }

    /// The value stored under `key`, or `value` stored under it now. `key` must not be 0.
    @inline(__always)
    mutating func findOrInsert(_ key: UInt64, value: UInt32) -> (value: UInt32, inserted: Bool) {
        if (count + 1) * 10 > keys.count * 7 { grow() }
        var slot = Self.slot(key, mask)
        while true {
            let found = keys[slot]
            if found == key { return (values[slot], false) }
            if found == 0 {
                keys[slot] = key
                values[slot] = value
                count += 1
                return (value, true)
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// Fibonacci hashing: the key's bits spread over the slot index.
    @inline(__always)
    private static func slot(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 24) & mask
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        mask = keys.count - 1
        keys.withUnsafeMutableBufferPointer { newKeys in
            values.withUnsafeMutableBufferPointer { newValues in
                for (i, key) in oldKeys.enumerated() where key != 0 {
                    var slot = Self.slot(key, mask)
                    while newKeys[slot] != 0 { slot = (slot &+ 1) & mask }
                    newKeys[slot] = key
                    newValues[slot] = oldValues[i]
                }
            }
        }
    }
}
