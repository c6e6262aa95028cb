import Foundation

/// Values decoded once per bundle and then shared, behind a lock: what many registrations
/// have in common, such as their list of approved operations.
///
/// Why: `RegistrationRecord.info` split and decoded its approved operations on every call
/// (about 1,200 instructions and an array), though the registry has a few dozen distinct lists.
/// Kept here, a later one is a table lookup and a retain. The cache never holds more than
/// `limit` entries, so its memory is bounded whatever the lookups or the file.
///
/// (Models and engines were tried too: on the benchmark's registry, whose 94,000 models are
/// about equally common, most lookups missed a bounded cache and paid for it, and copying a
/// cached model's dozen strings into the record cost a third of decoding them.)
///
/// Keyed by string id, in a table of its own: open addressing with a multiplicative hash.
/// A `Dictionary` hashed each key with SipHash, and its lookup was 120 of a hit's 280
/// instructions; here it is a dozen.
///
/// ```swift
/// let lists = SharedRecordCache<[String]>(limit: 4_096)
/// lists.value(for: id) { bundle.list(id) }
/// ```
final class SharedRecordCache<Value>: @unchecked Sendable {
    /// `id + 1` per slot (0 for an empty one) and its value; the slots a power of two.
    private struct Table {
        var keys: UnsafeMutablePointer<UInt64>
        var values: UnsafeMutablePointer<Value?>
        var slots: Int
        var count = 0

        init(slots: Int) {
            keys = .allocate(capacity: slots)
            keys.initialize(repeating: 0, count: slots)
            values = .allocate(capacity: slots)
            values.initialize(repeating: nil, count: slots)
            self.slots = slots
        }

        func free() {
            keys.deallocate()
            values.deinitialize(count: slots)
            values.deallocate()
        }

        /// The slot holding `id`, or the empty slot where it would go (never full: see `insert`).
        func slot(of id: UInt32) -> Int {
            let mask = slots - 1, key = UInt64(id) + 1
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while keys[slot] != 0 && keys[slot] != key { slot = (slot + 1) & mask }
            return slot
        }

        /// Keeps `value` for `id`, doubling the table once it is more than half full.
        mutating func insert(_ value: Value, for id: UInt32) {
            let slot = slot(of: id)
            if keys[slot] == 0 { count += 1 }
            (keys[slot], values[slot]) = (UInt64(id) + 1, value)
            guard count * 2 > slots else { return }
            var larger = Table(slots: slots * 2)
            for old in 0..<slots where keys[old] != 0 {
                let slot = larger.slot(of: UInt32(keys[old] - 1))
                (larger.keys[slot], larger.values[slot]) = (keys[old], values[old])
            }
            larger.count = count
            free()
            self = larger
        }
    }

    private let lock = NSLock()
    private let limit: Int
    /// Behind a pointer, not a stored `var`: a class's stored `var` is checked for exclusive
    /// access on every read and write (two runtime calls), which the lock already guarantees.
    private let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)

    /// A cache that keeps at most `limit` values (later ones are decoded each time).
    init(limit: Int) {
        self.limit = limit
        table.initialize(to: Table(slots: 16))
    }

    deinit {
        table.pointee.free()
        table.deallocate()
    }

    /// How many values are kept.
    var count: Int { lock.withLock { table.pointee.count } }

    /// The value kept for `id`, or `decode()`'s, kept when there is room. `decode` runs outside
    /// the lock: two threads may both decode a value the first time, and both get equal ones.
    func value(for id: UInt32, decode: () -> Value) -> Value {
        lock.lock()
        let kept = table.pointee.values[table.pointee.slot(of: id)]
        lock.unlock()
        if let kept { return kept }
        let value = decode()
        lock.lock()
        if table.pointee.count < limit { table.pointee.insert(value, for: id) }
        lock.unlock()
        return value
    }
}

extension AircraftBundle {
    /// Distinct approved-operations lists kept decoded (the FAA's registry has a few dozen; a
    /// crafted file cannot grow the cache past this).
    static let operationListLimit = 4_096

    /// The approved operations stored as string `id`, decoded once (`operationLists`).
    func approvedOperations(_ id: UInt32) -> [String] {
        operationLists.value(for: id) { list(id) }
    }
}
