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
/// ```swift
/// var pool = StringPoolBuilder()
/// let id = pool.intern("CESSNA")
/// let (bytes, remap) = pool.finish()   // remap[id] is CESSNA's id in the sorted pool
/// ```
public struct StringPoolBuilder: Sendable {
    private var storage: [UInt8] = []
    /// `starts[id]` is where string `id` begins in `storage`; one extra entry marks the end.
    private var starts: [UInt32] = [0]
    /// Slots hold the hash's high 32 bits and `id + 1` (low 32 bits); 0 is empty. The tag
    /// settles most mismatches without touching the string bytes. Capacity is a power of two,
    /// at most half full.
    private var slots: [UInt64] = [UInt64](repeating: 0, count: 1 << 12)

    /// `expectedStrings` and `expectedBytes` pre-size the tables (no rehashing, no regrowth).
    public init(expectedStrings: Int = 1024, expectedBytes: Int = 0) {
        var capacity = 1 << 12
        while capacity * 3 < expectedStrings * 5 { capacity <<= 1 }
        slots = [UInt64](repeating: 0, count: capacity)
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
        let hash = Self.hash(bytes)
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry & 0xFFFF_FFFF_0000_0000 == tag {
                let id = UInt32(truncatingIfNeeded: entry) - 1
                if equal(Int(id), bytes) { return id }
            }
            slot = (slot + 1) & mask
        }
        let id = UInt32(count)
        storage.append(contentsOf: bytes)
        starts.append(UInt32(storage.count))
        slots[slot] = tag | UInt64(id + 1)
        if count * 5 > slots.count * 3 {
            grow()
            mask = slots.count - 1
        }
        return id
    }

    /// Sorts the pool; returns the section bytes and `remap[provisional] == final`.
    public func finish() -> (bytes: [UInt8], remap: [UInt32]) {
        let n = count
        // Sort by an 8-byte big-endian prefix first; only ties compare the rest. Strings are
        // unique, so no two entries are equal and an unstable order cannot differ.
        var order = [(prefix: UInt64, id: UInt32)]()
        order.reserveCapacity(n)
        storage.withUnsafeBytes { raw in
            for id in 0..<n {
                let s = Int(starts[id]), e = Int(starts[id + 1])
                order.append((PackedKey.pack(UnsafeRawBufferPointer(rebasing: raw[s..<e])), UInt32(id)))
            }
            order.sort { a, b in
                if a.prefix != b.prefix { return a.prefix < b.prefix }
                let a0 = Int(starts[Int(a.id)]), a1 = Int(starts[Int(a.id) + 1])
                let b0 = Int(starts[Int(b.id)]), b1 = Int(starts[Int(b.id) + 1])
                let c = compare(UnsafeRawBufferPointer(rebasing: raw[a0..<a1]), UnsafeRawBufferPointer(rebasing: raw[b0..<b1]))
                return c < 0 || (c == 0 && a.id < b.id)
            }
        }
        var remap = [UInt32](repeating: 0, count: n)
        var out = ByteWriter(capacity: 4 + (n + 1) * 4 + storage.count)
        out.u32(UInt32(n))
        out.u32(0)
        var offset: UInt32 = 0
        for (final, entry) in order.enumerated() {
            remap[Int(entry.id)] = UInt32(final)
            offset += starts[Int(entry.id) + 1] - starts[Int(entry.id)]
            out.u32(offset)
        }
        storage.withUnsafeBytes { raw in
            for entry in order {
                let s = Int(starts[Int(entry.id)]), e = Int(starts[Int(entry.id) + 1])
                out.append(UnsafeRawBufferPointer(rebasing: raw[s..<e]))
            }
        }
        return (out.bytes, remap)
    }

    private func equal(_ id: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let s = Int(starts[id]), e = Int(starts[id + 1])
        guard e - s == bytes.count else { return false }
        if bytes.count == 0 { return true }
        return storage.withUnsafeBytes { compare(UnsafeRawBufferPointer(rebasing: $0[s..<e]), bytes) == 0 }
    }

    private mutating func grow() {
        var bigger = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        storage.withUnsafeBytes { raw in
            for id in 0..<count {
                let s = Int(starts[id]), e = Int(starts[id + 1])
                let hash = Self.hash(UnsafeRawBufferPointer(rebasing: raw[s..<e]))
                var slot = Int(truncatingIfNeeded: hash) & mask
                while bigger[slot] != 0 { slot = (slot + 1) & mask }
                bigger[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
            }
        }
        slots = bigger
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
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        return h
    }
}
