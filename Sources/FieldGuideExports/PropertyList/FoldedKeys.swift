/// A property list dictionary with its keys folded once, for the score of lookups one app
/// record makes (`AppRecord`): each key folds (ASCII case, `_`, `-` and spaces, as
/// ``PropertyListValue/subscript(_:)`` matches) into two machine words when it can, and those
/// naming a key app records read become a small slot number, so a lookup tests a bit and
/// compares bytes instead of walking two strings per entry. The same entry is found as through
/// the subscript: the first in file order; any other key is looked up through the subscript itself.
///
/// ```swift
/// let keys = FoldedKeys(.dictionary([("Audio_File_Name", .string("a.m4a"))]))
/// keys["audioFileName"]   // .string("a.m4a")
/// ```
struct FoldedKeys {
    /// A folded key of at most 16 ASCII bytes, zero-padded, and its length.
    fileprivate struct Packed: Equatable {
        var low: UInt64 = 0, high: UInt64 = 0, count = 0

        init?(_ key: String) {
            // The bytes in place (`withUTF8` takes a small string's inline bytes too, where
            // `withContiguousStorageIfAvailable` made an array): walking `utf8` cost more than the rest.
            var key = key
            guard let packed = key.withUTF8(Self.pack) else { return nil }
            self = packed
        }

        private init() {}

        private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> Packed? {
            var packed = Packed()
            // Masking shifts (`&<<`): the checked `<<` and the `where` filter cost ~30 instructions a byte.
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") { continue }
                guard byte < 0x80, packed.count < 16 else { return nil }
                let lower = UInt64(byte &- 0x41 < 26 ? byte &+ 0x20 : byte)
                if packed.count < 8 { packed.low |= lower &<< UInt64(8 &* packed.count) } else { packed.high |= lower &<< UInt64(8 &* (packed.count &- 8)) }
                packed.count += 1
            }
            return packed
        }
    }

    let value: PropertyListValue
    private let entries: [(key: String, value: PropertyListValue)]
    /// Each entry's key as a slot: its index in `known` once folded, `noSlot` when it folds to
    /// none of them (or does not pack).
    private let slots: [UInt8]
    /// Bit `s` set when some entry has slot `s`: most lookups an app record makes miss (a
    /// recording has no `registration`), and a miss is then one bit test, not a walk.
    private let present: UInt64

    /// The keys app records look up (`AppRecord.Keys`), folded: a key among them is found by its
    /// slot (its index here) instead of comparing folded keys entry by entry, about a score of
    /// lookups per record. A key not listed is still found, through the subscript's own test.
    fileprivate static let known: [Packed] = [
        "registration", "icaoType", "icao", "typeDesignator", "manufacturer", "model", "nearAirport", "airport", "notes",
        "captureDate", "date", "timestamp", "species", "audioFileName", "audioFile", "scientificName", "title", "recordedAt",
        "recordingDate", "family", "category", "class", "name", "observedAt", "observationDate", "Entry Text", "Creation Date",
        "location", "placeName", "Locality", "latitude", "lat", "longitude", "lon", "lng",
    ].compactMap { Packed($0) }
    fileprivate static let noSlot = UInt8.max

    /// The slot of a key as written.
    fileprivate static func slot(_ key: String) -> UInt8 {
        guard let packed = Packed(key), let index = known.firstIndex(of: packed), index < 64 else { return noSlot }
        return UInt8(index)
    }

    init(_ value: PropertyListValue) {
        var cache = Cache()
        self.init(value, cache: &cache)
    }

    /// The slots of the dictionaries' keys seen before, by position: the records of an export
    /// repeat their keys in one order, so a key equal to the one at its position last time has
    /// the same slot, a string compare instead of folding it again (folding was a quarter of `AppRecord`).
    struct Cache {
        fileprivate var keys: [String] = []
        fileprivate var slots: [UInt8] = []
        /// Positions remembered: an app record's keys, with room.
        static let positions = 32
    }

    /// What `init(value)` gives, folding only keys not at their position in `cache` (updated).
    init(_ value: PropertyListValue, cache: inout Cache) {
        self.value = value
        if case .dictionary(let entries) = value { self.entries = entries } else { entries = [] }
        var slots: [UInt8] = []
        slots.reserveCapacity(entries.count)
        var present: UInt64 = 0
        for index in entries.indices {
            let slot: UInt8
            if index < cache.keys.count, cache.keys[index] == entries[index].key {
                slot = cache.slots[index]
            } else {
                slot = Self.slot(entries[index].key)
                if index < cache.keys.count {
                    (cache.keys[index], cache.slots[index]) = (entries[index].key, slot)
                } else if index == cache.keys.count, index < Cache.positions {
                    cache.keys.append(entries[index].key)
                    cache.slots.append(slot)
                }
            }
            slots.append(slot)
            if slot != Self.noSlot { present |= 1 &<< UInt64(slot) }
        }
        (self.slots, self.present) = (slots, present)
    }

    /// A wanted key folded once: `AppRecord` keeps its key lists as static constants, as folding
    /// every wanted key on every lookup cost about a sixth of reading a property list.
    struct Key: ExpressibleByStringLiteral {
        let text: String
        /// Its slot in `known`, or `noSlot` (a key no app record reads, or one that does not pack).
        fileprivate let slot: UInt8

        init(_ text: String) {
            self.text = text
            slot = FoldedKeys.slot(text)
        }

        init(stringLiteral text: String) { self.init(text) }
    }

    /// What `value[key]` gives.
    subscript(key: String) -> PropertyListValue? { self[Key(key)] }

    /// What `value[key.text]` gives.
    subscript(key: Key) -> PropertyListValue? {
        // A known key: no entry matches it unless its bit is set, and then the first entry with
        // its slot is the first that folds the same (an entry that does not pack never matches
        // a key that does). By index: walking `entries` copied each (key, value) pair.
        guard key.slot != Self.noSlot else { return value[key.text] }
        guard present & (1 &<< UInt64(key.slot)) != 0 else { return nil }
        for index in slots.indices where slots[index] == key.slot { return entries[index].value }
        return nil
    }

    /// What `value.first(keys)` gives.
    func first(_ keys: [Key]) -> PropertyListValue? {
        for key in keys { if let found = self[key] { return found } }
        return nil
    }
}
