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
/// Keyed by string id in an `IDTable`: a `Dictionary` hashed each key with SipHash, and its
/// lookup was 120 of a hit's 280 instructions.
///
/// ```swift
/// let lists = SharedRecordCache<[String]>(limit: 4_096)
/// lists.value(for: id) { bundle.list(id) }
/// ```
final class SharedRecordCache<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Behind a pointer, not a stored `var`: a class's stored `var` is checked for exclusive
    /// access on every read and write (two runtime calls), which the lock already guarantees.
    /// Keyed by `id + 1` (0 marks an empty slot).
    private let table = UnsafeMutablePointer<IDTable<Value>>.allocate(capacity: 1)

    /// A cache that keeps at most `limit` values (later ones are decoded each time).
    init(limit: Int) {
        table.initialize(to: IDTable(limit: limit))
    }

    deinit {
        table.deinitialize(count: 1)
        table.deallocate()
    }

    /// How many values are kept.
    var count: Int { lock.withLock { table.pointee.count } }

    /// The value kept for `id`, or `decode()`'s, kept when there is room. `decode` runs outside
    /// the lock: two threads may both decode a value the first time, and both get equal ones.
    func value(for id: UInt32, decode: () -> Value) -> Value {
        let key = UInt64(id) + 1
        lock.lock()
        let kept = table.pointee.value(key)
        lock.unlock()
        if let kept { return kept }
        let value = decode()
        lock.lock()
        table.pointee.insert(key, value)
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
