import Foundation

/// A deduplicated, byte-sorted pool of UTF-8 strings, referenced by 32-bit ids.
///
/// Layout: `count: u32`, `offsets: u32 × (count + 1)`, then the bytes. Id 0 is the empty
/// string. Because the pool is sorted, comparing two ids compares their strings, and a
/// string's id is found by binary search.
///
/// ```swift
/// let pool = try StringPool(file.section(AircraftSchema.Section.strings), path: file.path)
/// pool.string(42)              // "CESSNA"
/// pool.id(of: "CESSNA")        // 42
/// ```
public struct StringPool: @unchecked Sendable {
    public let count: Int
    private let offsets: UnsafeRawPointer
    private let data: UnsafeRawPointer
    @usableFromInline let dataCount: Int

    public init(_ section: UnsafeRawBufferPointer, path: String) throws(ArtifactError) {
        guard section.count >= 8 else {
            throw .malformedSection(path: path, section: "STRS", reason: "shorter than its count and first offset")
        }
        let count = Int(section.le(UInt32.self, 0))
        let dataStart = 4 + (count + 1) * 4
        guard count >= 1, dataStart <= section.count else {
            throw .malformedSection(path: path, section: "STRS", reason: "offset table runs past the section")
        }
        self.count = count
        self.offsets = section.baseAddress! + 4
        self.data = section.baseAddress! + dataStart
        self.dataCount = section.count - dataStart
        // Offsets are not all checked here (that would touch the whole table on every open);
        // `bytes(_:)` clamps each one, so a corrupt pool gives wrong text, never a bad read.
    }

    /// The bytes of string `id` (empty for an out-of-range id).
    @inlinable
    public func bytes(_ id: UInt32) -> UnsafeRawBufferPointer {
        guard Int(id) < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let end = min(Int(offset(Int(id) + 1)), dataCount)
        let start = min(Int(offset(Int(id))), end)
        return UnsafeRawBufferPointer(start: dataPointer + start, count: end - start)
    }

    /// String `id` decoded.
    @inlinable
    public func string(_ id: UInt32) -> String {
        String(decoding: bytes(id), as: UTF8.self)
    }

    /// The id of `text`, if the pool holds it.
    public func id(of text: String) -> UInt32? {
        var text = text
        return text.withUTF8 { id(of: UnsafeRawBufferPointer($0)) }
    }

    /// The id of these bytes, if the pool holds them.
    public func id(of key: UnsafeRawBufferPointer) -> UInt32? {
        let index = lowerBound(key)
        guard index < count, compare(bytes(UInt32(index)), key) == 0 else { return nil }
        return UInt32(index)
    }

    /// The first id whose string is not less than `key`.
    public func lowerBound(_ key: UnsafeRawBufferPointer) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if compare(bytes(UInt32(mid)), key) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    @usableFromInline var dataPointer: UnsafeRawPointer { data }

    @usableFromInline func offset(_ i: Int) -> UInt32 {
        offsets.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self).littleEndian
    }
}

/// Byte-wise comparison (memcmp order, shorter prefix first).
@inlinable
public func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let n = min(a.count, b.count)
    if n > 0 {
        let c = memcmpBytes(a.baseAddress!, b.baseAddress!, n)
        if c != 0 { return c }
    }
    return a.count - b.count
}

@usableFromInline
func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Int {
    Int(memcmp(a, b, n))
}

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
    /// bytes (little-endian, zero filled), else its start in `storage`. Capacity (in slots) is
    /// a power of two, at most 60% full.
    private var slots: [UInt64] = []
    private var capacity = 0
    /// A sink for the batch lookup's early loads.
    private var touched: UInt64 = 0

    /// `expectedStrings` and `expectedBytes` pre-size the tables (no rehashing, no regrowth).
    public init(expectedStrings: Int = 1024, expectedBytes: Int = 0) {
        var capacity = 1 << 12
        while capacity * 3 < expectedStrings * 5 { capacity <<= 1 }
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
            let mask = capacity - 1
            let touched = slots.withUnsafeBufferPointer { table in
                var touched: UInt64 = 0
                for i in 0..<strings.count { touched |= table[(Int(truncatingIfNeeded: keys[i].hash) & mask) &* 2] }
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
        let mask = capacity - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
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
                slot = (slot &+ 1) & mask
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
        if count * 5 > capacity * 3 { grow() }
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
        parts[0].keys.reserveCapacity(below); parts[0].ids.reserveCapacity(below)
        parts[1].keys.reserveCapacity(n - below); parts[1].ids.reserveCapacity(n - below)
        let limit = UInt64(split) << 56
        for id in 0..<n {
            let part = keys[id] < limit || split == 256 ? 0 : 1
            parts[part].keys.append(keys[id])
            parts[part].ids.append(UInt32(id))
        }
        keys = []
        var (firstKeys, firstIDs) = parts[0]
        let second = parts[1]
        parts = []
        let secondSorted = BackgroundTask { [self] in
            var (keys, ids) = second
            sortPart(keys: &keys, ids: &ids)
            return ids
        }
        sortPart(keys: &firstKeys, ids: &firstIDs)
        firstKeys = []
        firstIDs.append(contentsOf: secondSorted.finished())
        return firstIDs
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
        let newCapacity = capacity * 2
        var bigger = [UInt64](repeating: 0, count: newCapacity * 2)
        let mask = newCapacity - 1
        storage.withUnsafeBytes { raw in
            starts.withUnsafeBufferPointer { starts in
                for id in 0..<count {
                    let s = Int(starts[id]), e = Int(starts[id + 1])
                    let bytes = UnsafeRawBufferPointer(rebasing: raw[s..<e])
                    let short = bytes.count <= 8
                    let (hash, word) = Self.hashAndWord(bytes)
                    let tag = (hash >> 40) << 8 | UInt64(min(bytes.count, 255))
                    var slot = Int(truncatingIfNeeded: hash) & mask
                    while bigger[slot * 2] != 0 { slot = (slot + 1) & mask }
                    bigger[slot * 2] = tag << 32 | UInt64(id + 1)
                    bigger[slot * 2 + 1] = short ? word : UInt64(s)
                }
            }
        }
        slots = bigger
        capacity = newCapacity
    }

    /// Up to 8 bytes as a little-endian word, zero filled.
    @inline(__always)
    static func load(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        if bytes.count == 8 { return bytes.loadUnaligned(as: UInt64.self) }
        var word: UInt64 = 0
        if bytes.count > 0 {
            withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        }
        return word
    }

    /// The hash of a string of up to 8 bytes, from its word and length.
    @inline(__always)
    static func hash(word: UInt64, count: Int) -> UInt64 {
        mix((0xCBF2_9CE4_8422_2325 ^ UInt64(count)) &* 0x0000_0100_0000_01B3 ^ word)
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

extension StringPoolBuilder {
    /// Pools sorted by `finish()`, merged into one: the section bytes of the pool holding every
    /// string of them, and for each input its ids mapped to the merged pool's
    /// (`remaps[i][provisional]` for a provisional id of the `i`th builder).
    ///
    /// Strings were interned into several builders (one per thread, say) and each was sorted
    /// apart; a linear pass over them all interleaves the strings and drops the duplicates. The
    /// result is the pool a single builder of all the strings gives: ids depend only on the set
    /// of strings, never on how they were spread over the builders. From `parallelThreshold`
    /// strings on, the strings below the middle one of the largest pool and the others are
    /// merged on two threads.
    ///
    /// ```swift
    /// let (bytes, remaps) = StringPoolBuilder.merge([first.finish(), second.finish()])
    /// remaps[1][id]   // the merged id of `second`'s provisional `id`
    /// ```
    public static func merge(_ pools: consuming [(bytes: [UInt8], remap: [UInt32])],
                             parallelThreshold: Int = parallelSortThreshold) -> (bytes: [UInt8], remaps: [[UInt32]]) {
        precondition(!pools.isEmpty, "nothing to merge")
        if pools.count == 1 { return (pools[0].bytes, [pools[0].remap]) }
        let counts = pools.map { Int($0.bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }.littleEndian) }
        /// `finals[i][j]`: the merged id of string `j` of sorted pool `i`.
        let finals = counts.map { UnsafeMutableBufferPointer<UInt32>.allocate(capacity: $0) }
        defer { for final in finals { final.deallocate() } }
        var cuts: [Int] = [], firstRunCount: UInt32 = 0
        let bytes = pools.map(\.bytes).withUnsafeBufferPointers { sections in
            // Sections made by `finish()` are well formed.
            let pools = sections.map { try! StringPool(UnsafeRawBufferPointer($0), path: "a pool to merge") }
            let total = pools.map(\.count).reduce(0, +), totalBytes = pools.map(\.dataCount).reduce(0, +)
            // Two runs: the strings below the middle one of the largest pool, and the others.
            let parallel = total >= parallelThreshold
            let pivot = pools.max { $0.count < $1.count }.map { $0.bytes(UInt32($0.count / 2)) }!
            cuts = parallel ? pools.map { $0.lowerBound(pivot) } : counts
            let firstCount = cuts.reduce(0, +)
            let firstBytes = zip(pools, cuts).map { Int($0.offset($1)) }.reduce(0, +)
            // Merged strings are written as if every one were distinct: the first run's end
            // offsets from byte 8 and its bytes from `dataStart`, the second run's after room for
            // the whole first run. Both move down into place at the end.
            let dataStart = 4 + (total + 1) * 4
            return [UInt8](unsafeUninitializedCapacity: dataStart + totalBytes) { out, initialized in
                let base = UncheckedSendable(value: UnsafeMutableRawPointer(out.baseAddress!))
                let shared = UncheckedSendable(value: (pools, finals, cuts))
                let second = !parallel ? nil : BackgroundTask {
                    let (pools, finals, cuts) = shared.value
                    return mergeRun(pools, zip(cuts, pools).map { $0..<$1.count }, finals: finals,
                                    offsets: base.value + 8 + firstCount * 4, data: base.value + dataStart + firstBytes)
                }
                let first = mergeRun(pools, cuts.map { 0..<$0 }, finals: finals, offsets: base.value + 8, data: base.value + dataStart)
                let rest = second?.finished() ?? (count: 0, length: 0)
                let out = base.value, count = first.count + rest.count
                for id in 0..<rest.count {
                    let end = out.loadUnaligned(fromByteOffset: 8 + (firstCount + id) * 4, as: UInt32.self).littleEndian
                    out.storeBytes(of: (end + UInt32(first.length)).littleEndian, toByteOffset: 8 + (first.count + id) * 4, as: UInt32.self)
                }
                out.storeBytes(of: UInt32(count).littleEndian, toByteOffset: 0, as: UInt32.self)
                out.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
                let packedStart = 4 + (count + 1) * 4
                memmove(out + packedStart, out + dataStart, first.length)
                memmove(out + packedStart + first.length, out + dataStart + firstBytes, rest.length)
                initialized = packedStart + first.length + rest.length
                firstRunCount = UInt32(first.count)
            }
        }
        // Provisional → sorted → merged, in place (the second run's ids follow the first run's),
        // a thread per pool.
        var remaps: [[UInt32]] = []
        for i in pools.indices {
            remaps.append(pools[i].remap)
            pools[i].remap = []  // `remaps[i]` is now the only reference: rewritten in place
        }
        let shared = UncheckedSendable(value: (finals, cuts, firstRunCount))
        _ = Concurrently.update(&remaps) { pool, remap in
            let (finals, cuts, firstRunCount) = shared.value
            let final = finals[pool], cut = cuts[pool]
            remap.withUnsafeMutableBufferPointer { remap in
                for id in remap.indices {
                    let sorted = Int(remap[id])
                    remap[id] = final[sorted] &+ (sorted < cut ? 0 : firstRunCount)
                }
            }
        }
        return (bytes, remaps)
    }

    /// Merges `ranges` of sorted `pools` (`ranges[i]` of `pools[i]`): writes the merged strings'
    /// end offsets (from 0) to `offsets` and their bytes to `data`, and the merged id (from 0)
    /// of every string of the ranges to `finals`. Returns how many strings and bytes it wrote.
    ///
    /// Heads are compared by their 8-byte prefixes (`PackedKey`), their bytes only on a tie.
    private static func mergeRun(_ pools: [StringPool], _ ranges: [Range<Int>], finals: [UnsafeMutableBufferPointer<UInt32>],
                                 offsets: UnsafeMutableRawPointer, data: UnsafeMutableRawPointer) -> (count: Int, length: Int) {
        let k = pools.count
        var heads = ranges.map(\.lowerBound), keys = [UInt64](repeating: 0, count: k), ties = [Int](repeating: 0, count: k)
        for pool in 0..<k where heads[pool] < ranges[pool].upperBound { keys[pool] = PackedKey.pack(pools[pool].bytes(UInt32(heads[pool]))) }
        var count = 0, length = 0
        while true {
            // The least head, and every pool whose head it is.
            var tied = 0
            for pool in 0..<k where heads[pool] < ranges[pool].upperBound {
                if tied > 0 {
                    let least = ties[0]
                    var order = keys[pool] < keys[least] ? -1 : keys[pool] > keys[least] ? 1 : 0
                    if order == 0 { order = compare(pools[pool].bytes(UInt32(heads[pool])), pools[least].bytes(UInt32(heads[least]))) }
                    if order > 0 { continue }
                    if order == 0 {
                        ties[tied] = pool
                        tied += 1
                        continue
                    }
                }
                ties[0] = pool
                tied = 1
            }
            if tied == 0 { break }
            let least = pools[ties[0]].bytes(UInt32(heads[ties[0]]))
            if least.count > 0 {
                (data + length).copyMemory(from: least.baseAddress!, byteCount: least.count)
                length += least.count
            }
            offsets.storeBytes(of: UInt32(length).littleEndian, toByteOffset: count * 4, as: UInt32.self)
            for pool in ties[0..<tied] {
                finals[pool][heads[pool]] = UInt32(count)
                heads[pool] += 1
                if heads[pool] < ranges[pool].upperBound { keys[pool] = PackedKey.pack(pools[pool].bytes(UInt32(heads[pool]))) }
            }
            count += 1
        }
        return (count, length)
    }
}

/// LSD radix sort of `UInt64` keys carrying `UInt32` values, a byte per pass; passes where every
/// key has the same byte are skipped. Stable.
public enum RadixSort {
    public static func sort(keys: inout [UInt64], values: inout [UInt32]) {
        let n = keys.count
        guard n > 1 else { return }
        var counts = [Int](repeating: 0, count: 8 * 256)
        keys.withUnsafeBufferPointer { keys in
            counts.withUnsafeMutableBufferPointer { counts in
                for key in keys {
                    for pass in 0..<8 { counts[pass * 256 + Int((key >> (pass * 8)) & 0xFF)] += 1 }
                }
            }
        }
        var otherKeys = [UInt64](repeating: 0, count: n)
        var otherValues = [UInt32](repeating: 0, count: n)
        for pass in 0..<8 {
            let base = pass * 256
            if counts[base..<base + 256].contains(n) { continue }  // one byte value: nothing moves
            var next = [Int](repeating: 0, count: 256)
            var sum = 0
            for b in 0..<256 { next[b] = sum; sum += counts[base + b] }
            let shift = UInt64(pass * 8)
            keys.withUnsafeBufferPointer { keys in
                values.withUnsafeBufferPointer { values in
                    otherKeys.withUnsafeMutableBufferPointer { outKeys in
                        otherValues.withUnsafeMutableBufferPointer { outValues in
                            next.withUnsafeMutableBufferPointer { next in
                                for i in 0..<n {
                                    let key = keys[i]
                                    let b = Int((key >> shift) & 0xFF)
                                    let to = next[b]
                                    next[b] = to + 1
                                    outKeys[to] = key
                                    outValues[to] = values[i]
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &otherKeys)
            swap(&values, &otherValues)
        }
    }
}
