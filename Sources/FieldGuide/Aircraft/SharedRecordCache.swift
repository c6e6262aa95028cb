import Foundation

/// Values decoded once per bundle and then shared, behind a lock: what many registrations
/// have in common (their model, their engine, their list of approved operations).
///
/// Why: `RegistrationRecord.info` decodes its model's and engine's records in full (some ten
/// strings and five code values, three more cache misses in the file) although a few thousand
/// models cover most registrations. Kept here, a later `.info` of the same model is a dictionary
/// lookup and a few retains. The cache never holds more than `limit` entries, so its memory is
/// bounded whatever the lookups.
///
/// ```swift
/// let models = SharedRecordCache<Int, ModelInfo>(limit: 8_192)
/// models.value(for: row) { ModelRecord(bundle: bundle, row: row).decodedInfo }
/// ```
final class SharedRecordCache<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]
    private let limit: Int

    /// A cache that keeps at most `limit` values (later ones are decoded each time).
    init(limit: Int) { self.limit = limit }

    /// How many values are kept.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return values.count
    }

    /// The value kept for `key`, or `decode()`'s, kept when there is room. `decode` runs outside
    /// the lock: two threads may both decode a value the first time, and both get equal ones.
    func value(for key: Key, decode: () -> Value) -> Value {
        lock.lock()
        let kept = values[key]
        lock.unlock()
        if let kept { return kept }
        let value = decode()
        lock.lock()
        if values.count < limit { values[key] = value }
        lock.unlock()
        return value
    }
}

extension AircraftBundle {
    /// Models and engines kept decoded, each: about 3 MB of models at most. The registry's
    /// most common few thousand models cover most registrations; past the limit a model is
    /// decoded each time, as before.
    static let sharedRecordLimit = 8_192

    /// Distinct approved-operations lists kept decoded (the FAA's registry has a few dozen; a
    /// crafted file cannot grow the cache past this).
    static let operationListLimit = 4_096

    /// The approved operations stored as string `id`, decoded once (`operationLists`).
    func approvedOperations(_ id: UInt32) -> [String] {
        operationLists.value(for: id) { list(id) }
    }
}
