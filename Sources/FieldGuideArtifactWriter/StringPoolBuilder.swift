import FieldGuideArtifact
import FieldGuideBytes
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideWorkers
import Foundation

/// Collects strings while records are built, then sorts them into a `StringPool` section.
///
/// Bytes are interned straight from their source buffers (no `String` per field): one
/// contiguous byte store, an open-addressing hash table, and ids handed out in arrival order.
/// `finish()` sorts the pool and returns the map from these provisional ids to final ones.
///
/// The table is built for millions of strings, where every probe is a cache miss: a slot is
/// two words holding the hash tag, the length, the id, and either the string itself (up to 8
/// bytes) or its offset in the byte store, so a lookup touches one slot and, only for a longer
/// string whose tag matches, its bytes.
///
/// ```swift
/// var pool = StringPoolBuilder()
/// let id = pool.intern("CESSNA")
/// let (bytes, remap) = pool.finish()   // remap[id] is CESSNA's id in the sorted pool
/// ```
public struct StringPoolBuilder: Sendable {
    private var storage: [UInt8] = []
    /// `starts[id]` is where string `id` begins in `storage`; one extra entry marks the end.
    private var starts: [UInt32] = [0]
    /// Two words per slot. Word 0: `tag << 32 | (id + 1)`, 0 when empty, where the tag is 24
    /// bits of hash above the length clamped to 255. Word 1: the bytes of a string of up to 8
    /// bytes (little-endian, zero filled), else its start in `storage`. A string's first slot
    /// scales 40 bits of its hash (below the tag's) to the capacity, so the capacity (in slots)
    /// need not be a power of two: sized for `expectedStrings` about 65% full, grown by half
    /// past 75%. (A power of two, at most 60% full, left a table for a million strings of
    /// 2M slots, 32 MB, twice: a registration half of `emit-aircraft` each.)
    private var slots: [UInt64] = []
    private var capacity = 0
    /// A sink for the batch lookup's early loads.
    private var touched: UInt64 = 0

    /// `expectedStrings` and `expectedBytes` pre-size the tables (no rehashing, no regrowth).
    public init(expectedStrings: Int = 1024, expectedBytes: Int = 0) {
        let capacity = max(1 << 12, expectedStrings / 13 * 20)
        self.capacity = capacity
        slots = [UInt64](repeating: 0, count: capacity * 2)
        storage.reserveCapacity(expectedBytes)
        starts.reserveCapacity(expectedStrings + 1)
        _ = intern(UnsafeRawBufferPointer(start: nil, count: 0))  // id 0 is ""
    }

    public var count: Int { starts.count - 1 }

    /// The provisional id of `text`.
    public mutating func intern(_ text: String) -> UInt32 {
        var text = text
        return text.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// The provisional id of these bytes.
    public mutating func intern(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        if bytes.isEmpty, count > 0 { return 0 }
        let (hash, word) = Self.hashAndWord(bytes)
        return intern(bytes, hash: hash, word: word)
    }

    /// The provisional ids of several strings: `ids[i]` for `strings[i]`.
    ///
    /// Every string's slot is loaded before any is compared, so on a pool far larger than the
    /// caches the misses overlap instead of queueing one after another (a record's fields at
    /// once is a good batch).
    public mutating func intern(_ strings: UnsafeBufferPointer<UnsafeRawBufferPointer>, into ids: UnsafeMutableBufferPointer<UInt32>) {
        precondition(ids.count >= strings.count, "one id per string")
        withUnsafeTemporaryAllocation(of: (hash: UInt64, word: UInt64).self, capacity: strings.count) { keys in
            for (i, bytes) in strings.enumerated() { keys[i] = Self.hashAndWord(bytes) }
            // A tight loop of independent loads: all of them fit the CPU's window at once.
            let capacity = self.capacity
            let touched = slots.withUnsafeBufferPointer { table in
                var touched: UInt64 = 0
                for i in 0..<strings.count { touched |= table[Self.home(keys[i].hash, capacity) &* 2] }
                return touched
            }
            self.touched = touched  // keeps the loads above from being optimised away
            for (i, bytes) in strings.enumerated() {
                ids[i] = bytes.isEmpty && count > 0 ? 0 : intern(bytes, hash: keys[i].hash, word: keys[i].word)
            }
        }
    }

    /// The hash of `bytes`, and the bytes themselves as a word when there are at most 8.
    @inline(__always)
    private static func hashAndWord(_ bytes: UnsafeRawBufferPointer) -> (hash: UInt64, word: UInt64) {
        if bytes.count <= 8 {
            let word = load(bytes)
            return (hash(word: word, count: bytes.count), word)
        }
        return (hash(bytes), 0)
    }

    @inline(__always)
    private mutating func intern(_ bytes: UnsafeRawBufferPointer, hash: UInt64, word: UInt64) -> UInt32 {
        let length = bytes.count
        let short = length <= 8
        let tag = (hash >> 40) << 8 | UInt64(min(length, 255))
        let capacity = self.capacity
        var slot = Self.home(hash, capacity)
        let found: UInt32? = slots.withUnsafeBufferPointer { table in
            while true {
                let entry = table[slot &* 2]
                if entry == 0 { return nil }
                if entry >> 32 == tag {
                    let id = UInt32(truncatingIfNeeded: entry) &- 1
                    let second = table[slot &* 2 &+ 1]
                    if short {
                        if second == word { return id }
                    } else if matches(id: id, start: Int(second), bytes) {
                        return id
                    }
                }
                slot &+= 1
                if slot == capacity { slot = 0 }
            }
        }
        if let found { return found }
        let id = UInt32(count)
        let start = storage.count
        if length > 0 {
            storage.append(contentsOf: UnsafeBufferPointer(start: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: length))
        }
        starts.append(UInt32(storage.count))
        slots.withUnsafeMutableBufferPointer { table in
            table[slot &* 2] = tag << 32 | UInt64(id + 1)
            table[slot &* 2 &+ 1] = short ? word : UInt64(start)
        }
        if count * 4 > capacity * 3 { grow() }
        return id
    }

    /// Sorts the pool; returns the section bytes and `remap[provisional] == final`.
    public func finish() -> (bytes: [UInt8], remap: [UInt32]) {
        sorted()
    }

    /// Frees the lookup table once every string is in: the pool can then only be `finish()`ed
    /// (by another thread, say), not interned into.
    public mutating func dropLookupTable() {
        slots = []
        capacity = 0
    }

    /// `finish()` for a large pool: releases the hash table before sorting and leaves the
    /// builder empty, which keeps peak memory down.
    public mutating func finishReleasingTables() -> (bytes: [UInt8], remap: [UInt32]) {
        slots = []
        capacity = 0
        let result = sorted()
        self = StringPoolBuilder(expectedStrings: 0)
        return result
    }

    private func sorted() -> (bytes: [UInt8], remap: [UInt32]) {
        let n = count
        let order = sortedIDs()
        var remap = [UInt32](repeating: 0, count: n)
        let total = 4 + (n + 1) * 4 + storage.count
        // 16 bytes of slack: a string of up to 16 bytes is copied as two 8-byte words (most are),
        // the bytes past its end overwritten by the next one or left in the spare capacity.
        let bytes = [UInt8](unsafeUninitializedCapacity: total + 16) { out, initialized in
            let raw = UnsafeMutableRawBufferPointer(out)
            raw.storeBytes(of: UInt32(n).littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
            var offset: UInt32 = 0
            var cursor = 4 + (n + 1) * 4
            storage.withUnsafeBytes { source in
                starts.withUnsafeBufferPointer { starts in
                    remap.withUnsafeMutableBufferPointer { remap in
                        for (final, id) in order.enumerated() {
                            remap[Int(id)] = UInt32(final)
                            let s = Int(starts[Int(id)]), e = Int(starts[Int(id) + 1])
                            offset += UInt32(e - s)
                            raw.storeBytes(of: offset.littleEndian, toByteOffset: 8 + final * 4, as: UInt32.self)
                            if e - s <= 16 && s + 16 <= source.count {
                                raw.storeBytes(of: source.loadUnaligned(fromByteOffset: s, as: UInt64.self), toByteOffset: cursor, as: UInt64.self)
                                raw.storeBytes(of: source.loadUnaligned(fromByteOffset: s + 8, as: UInt64.self), toByteOffset: cursor + 8, as: UInt64.self)
                            } else if e > s {
                                (raw.baseAddress! + cursor).copyMemory(from: source.baseAddress! + s, byteCount: e - s)
                            }
                            cursor += e - s
                        }
                    }
                }
            }
            initialized = total
        }
        return (bytes, remap)
    }

    /// Pools of at least this many strings are sorted (and merged) in two parts on two threads.
    public static let parallelSortThreshold = 200_000

    /// Provisional ids in byte order of their strings.
    ///
    /// An LSD radix sort on the 8-byte big-endian prefix, then each run of equal prefixes (longer
    /// strings that share their first 8 bytes) is sorted by comparing the rest. Strings are
    /// unique, so the order is total and the result cannot depend on the sort's stability, nor
    /// on how the work is split: a large pool is cut by first byte into two parts of about
    /// equal size (every string of the first part sorts before every string of the second),
    /// each sorted on a thread of its own.
    private func sortedIDs() -> [UInt32] {
        let n = count
        var keys = [UInt64](repeating: 0, count: n)
        storage.withUnsafeBytes { raw in
            starts.withUnsafeBufferPointer { starts in
                keys.withUnsafeMutableBufferPointer { keys in
                    for id in 0..<n {
                        let s = Int(starts[id]), e = Int(starts[id + 1])
                        keys[id] = PackedKey.pack(UnsafeRawBufferPointer(rebasing: raw[s..<e]))
                    }
                }
            }
        }
        guard n >= Self.parallelSortThreshold else {
            var ids = [UInt32](unsafeUninitializedCapacity: n) { buffer, initialized in
                for id in 0..<n { buffer[id] = UInt32(id) }
                initialized = n
            }
            sortPart(keys: &keys, ids: &ids)
            return ids
        }
        // The first byte value below which about half the strings fall.
        var histogram = [Int](repeating: 0, count: 256)
        for key in keys { histogram[Int(key >> 56)] += 1 }
        var split = 0, below = 0
        while split < 256 && below + histogram[split] <= n / 2 { below += histogram[split]; split += 1 }
        if below == 0 { below = histogram[split]; split += 1 }  // one huge bucket: still two parts
        var parts: [(keys: [UInt64], ids: [UInt32])] = [([], []), ([], [])]
        // The first part's ids have room for the second's too: they are appended there at the end.
        parts[0].keys.reserveCapacity(below); parts[0].ids.reserveCapacity(n)
        parts[1].keys.reserveCapacity(n - below); parts[1].ids.reserveCapacity(n - below)
        let limit = UInt64(split) << 56
        for id in 0..<n {
            let part = keys[id] < limit || split == 256 ? 0 : 1
            parts[part].keys.append(keys[id])
            parts[part].ids.append(UInt32(id))
        }
        keys = []
        // Both parts sorted at once, each in place: `update` leaves each part's arrays referenced
        // by that part alone, where a copy captured by the thread made sorting copy them.
        _ = Concurrently.update(&parts) { [self] _, part in sortPart(keys: &part.keys, ids: &part.ids) }
        var ids = parts[0].ids
        let second = parts[1].ids
        parts = []
        ids.append(contentsOf: second)
        return ids
    }

    /// Sorts `ids` (with their 8-byte prefixes `keys`) into byte order of their strings.
    private func sortPart(keys: inout [UInt64], ids: inout [UInt32]) {
        RadixSort.sort(keys: &keys, values: &ids)
        // Ties on the prefix (strings that share their first 8 bytes): order by the next 8, and so on.
        storage.withUnsafeBytes { raw in
            starts.withUnsafeBufferPointer { starts in
                Self.sortTies(&ids, keys: keys, 0..<ids.count, depth: 0, raw: raw, starts: starts)
            }
        }
    }

    /// Within `range` of `ids`, sorted by the 8-byte word at `depth` (given as `keys`), orders every
    /// run of equal words by the rest of the strings.
    private static func sortTies(_ ids: inout [UInt32], keys: [UInt64], _ range: Range<Int>, depth: Int,
                                 raw: UnsafeRawBufferPointer, starts: UnsafeBufferPointer<UInt32>) {
        func string(_ id: UInt32) -> UnsafeRawBufferPointer {
            let s = Int(starts[Int(id)]), e = Int(starts[Int(id) + 1])
            return UnsafeRawBufferPointer(rebasing: raw[s..<e])
        }
        var i = range.lowerBound
        while i < range.upperBound {
            var j = i + 1
            while j < range.upperBound && keys[j - range.lowerBound] == keys[i - range.lowerBound] { j += 1 }
            if j - i > 1 {
                let next = (depth + 1) * 8
                if ids[i..<j].allSatisfy({ string($0).count > next }) {
                    // All go on past this word: sort by the next one.
                    var run = ids[i..<j].map { id in (key: PackedKey.pack(UnsafeRawBufferPointer(rebasing: string(id)[next...])), id: id) }
                    run.sort { $0.key != $1.key ? $0.key < $1.key : $0.id < $1.id }
                    for (k, entry) in run.enumerated() { ids[i + k] = entry.id }
                    sortTies(&ids, keys: run.map(\.key), i..<j, depth: depth + 1, raw: raw, starts: starts)
                } else {
                    ids[i..<j].sort { a, b in
                        let c = compare(string(a), string(b))
                        return c < 0 || (c == 0 && a < b)
                    }
                }
            }
            i = j
        }
    }

    /// Whether the stored string `id`, starting at `start`, equals `bytes` (a tag matched, so
    /// the lengths agree unless both are 255 or longer).
    private func matches(id: UInt32, start: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        storage.withUnsafeBytes { raw in
            if bytes.count >= 255 {
                let end = starts.withUnsafeBufferPointer { Int($0[Int(id) + 1]) }
                guard end - start == bytes.count else { return false }
            }
            return memcmpBytes(raw.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0
        }
    }

    private mutating func grow() {
        let newCapacity = capacity + capacity / 2
        var bigger = [UInt64](repeating: 0, count: newCapacity * 2)
        storage.withUnsafeBytes { raw in
            starts.withUnsafeBufferPointer { starts in
                for id in 0..<count {
                    let s = Int(starts[id]), e = Int(starts[id + 1])
                    let bytes = UnsafeRawBufferPointer(rebasing: raw[s..<e])
                    let short = bytes.count <= 8
                    let (hash, word) = Self.hashAndWord(bytes)
                    let tag = (hash >> 40) << 8 | UInt64(min(bytes.count, 255))
                    var slot = Self.home(hash, newCapacity)
                    while bigger[slot * 2] != 0 { slot = slot + 1 == newCapacity ? 0 : slot + 1 }
                    bigger[slot * 2] = tag << 32 | UInt64(id + 1)
                    bigger[slot * 2 + 1] = short ? word : UInt64(s)
                }
            }
        }
        slots = bigger
        capacity = newCapacity
    }

    /// Up to 8 bytes as a little-endian word, zero filled: from overlapping loads inside them
    /// (`ShortBytes`), not a `memcpy` call of a variable count, which most fields took here.
    @inline(__always)
    static func load(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        ShortBytes.words(UnsafeRawBufferPointer(rebasing: bytes.prefix(8))).0
    }

    /// The hash of a string of up to 8 bytes, from its word and length.
    @inline(__always)
    static func hash(word: UInt64, count: Int) -> UInt64 {
        mix((0xCBF2_9CE4_8422_2325 ^ UInt64(count)) &* 0x0000_0100_0000_01B3 ^ word)
    }

    /// The first slot of a string with `hash` in a table of `capacity` slots: the hash's low 40
    /// bits (the tag takes the top 24) scaled to the capacity.
    @inline(__always)
    private static func home(_ hash: UInt64, _ capacity: Int) -> Int {
        Int(truncatingIfNeeded: (hash &<< 24).multipliedFullWidth(by: UInt64(capacity)).high)
    }

    /// FNV-1a over 8-byte words, then a final mix: quick, and good enough for a string table.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
            i += 8
        }
        if i < bytes.count {
            h = (h ^ load(UnsafeRawBufferPointer(rebasing: bytes[i...]))) &* 0x0000_0100_0000_01B3
        }
        return mix(h)
    }

    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }
}

