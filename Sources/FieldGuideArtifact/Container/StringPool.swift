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
    @usableFromInline package let dataCount: Int

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

    @usableFromInline package func offset(_ i: Int) -> UInt32 {
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
package func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Int {
    Int(memcmp(a, b, n))
}
