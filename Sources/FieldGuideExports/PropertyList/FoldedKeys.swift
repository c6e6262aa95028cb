/// A property list dictionary with its keys folded once, for the score of lookups one app
/// record makes (`AppRecord`): each key folds (ASCII case, `_`, `-` and spaces, as
/// ``PropertyListValue/subscript(_:)`` matches) into two machine words when it can, so a lookup
/// compares words instead of walking two strings per entry. The same entry is found as through
/// the subscript: the first in file order; a key that does not pack (not ASCII, or longer than
/// 16 bytes once folded) is compared through the subscript's own test.
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
    private let packed: [Packed?]

    init(_ value: PropertyListValue) {
        var cache = Cache()
        self.init(value, cache: &cache)
    }

    /// The packed keys of the dictionaries folded before, by position: the records of an export
    /// repeat their keys in one order, so a key equal to the one at its position last time packs
    /// the same, a string compare instead of folding it again (folding was a quarter of `AppRecord`).
    struct Cache {
        fileprivate var keys: [String] = []
        fileprivate var packed: [Packed?] = []
        /// Positions remembered: an app record's keys, with room.
        static let positions = 32
    }

    /// What `init(value)` gives, packing only keys not at their position in `cache` (updated).
    init(_ value: PropertyListValue, cache: inout Cache) {
        self.value = value
        if case .dictionary(let entries) = value { self.entries = entries } else { entries = [] }
        var packed: [Packed?] = []
        packed.reserveCapacity(entries.count)
        for index in entries.indices {
            if index < cache.keys.count, cache.keys[index] == entries[index].key {
                packed.append(cache.packed[index])
                continue
            }
            let folded = Packed(entries[index].key)
            packed.append(folded)
            if index < cache.keys.count {
                (cache.keys[index], cache.packed[index]) = (entries[index].key, folded)
            } else if index == cache.keys.count, index < Cache.positions {
                cache.keys.append(entries[index].key)
                cache.packed.append(folded)
            }
        }
        self.packed = packed
    }

    /// A wanted key folded once: `AppRecord` keeps its key lists as static constants, as folding
    /// every wanted key on every lookup cost about a sixth of reading a property list.
    struct Key: ExpressibleByStringLiteral {
        let text: String
        fileprivate let packed: Packed?

        init(_ text: String) {
            self.text = text
            packed = Packed(text)
        }

        init(stringLiteral text: String) { self.init(text) }
    }

    /// What `value[key]` gives.
    subscript(key: String) -> PropertyListValue? { self[Key(key)] }

    /// What `value[key.text]` gives.
    subscript(key: Key) -> PropertyListValue? {
        guard let wanted = key.packed else { return value[key.text] }
        // By index, the entry touched only when it matches: walking `entries` copied each
        // (key, value) pair, a retain and a release apiece, for a score of lookups per record.
        for index in packed.indices {
            if let folded = packed[index] {
                if folded == wanted { return entries[index].value }
            } else if PropertyListValue.matches(entries[index].key, ascii: key.text) {
                return entries[index].value
            }
        }
        return nil
    }

    /// What `value.first(keys)` gives.
    func first(_ keys: [Key]) -> PropertyListValue? {
        for key in keys { if let found = self[key] { return found } }
        return nil
    }
}
