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
    private let dataCount: Int

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
        var previous: UInt32 = 0
        for i in 0...count {
            let offset = offsets.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self).littleEndian
            guard offset >= previous, Int(offset) <= dataCount else {
                throw .malformedSection(path: path, section: "STRS", reason: "offset \(i) out of order or out of range")
            }
            previous = offset
        }
    }

    /// The bytes of string `id` (empty for an out-of-range id).
    @inlinable
    public func bytes(_ id: UInt32) -> UnsafeRawBufferPointer {
        guard Int(id) < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = Int(offset(Int(id)))
        let end = Int(offset(Int(id) + 1))
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
    for i in 0..<n {
        let x = a.load(fromByteOffset: i, as: UInt8.self), y = b.load(fromByteOffset: i, as: UInt8.self)
        if x != y { return Int(x) - Int(y) }
    }
    return 0
}

/// Collects strings while records are built, then sorts them into a `StringPool` section.
///
/// Ids handed out by `intern` are provisional; `finish()` returns the map to final ids.
public struct StringPoolBuilder: Sendable {
    private var ids: [String: UInt32] = ["": 0]
    private var strings: [String] = [""]

    public init() {}

    /// The provisional id of `text`.
    public mutating func intern(_ text: String) -> UInt32 {
        if let id = ids[text] { return id }
        let id = UInt32(strings.count)
        ids[text] = id
        strings.append(text)
        return id
    }

    public var count: Int { strings.count }

    /// Sorts the pool; returns the section bytes and `remap[provisional] == final`.
    public func finish() -> (bytes: [UInt8], remap: [UInt32]) {
        var utf8 = strings.map { Array($0.utf8) }
        let order = utf8.indices.sorted { utf8[$0].lexicographicallyPrecedes(utf8[$1]) }
        var remap = [UInt32](repeating: 0, count: strings.count)
        var out = ByteWriter()
        out.u32(UInt32(order.count))
        var offset: UInt32 = 0
        out.u32(0)
        for (final, provisional) in order.enumerated() {
            remap[provisional] = UInt32(final)
            offset += UInt32(utf8[provisional].count)
            out.u32(offset)
        }
        for provisional in order { out.append(utf8[provisional]) }
        utf8.removeAll()
        return (out.bytes, remap)
    }
}
