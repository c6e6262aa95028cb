import CPrefetch
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
    /// The section's tag, for errors (`STRS`, or another pool's). A `FourCC`, not its text:
    /// a pool is copied on every string it decodes, and a `String` here was retained with
    /// each copy.
    private let tag: FourCC

    /// Reads the pool in `section` (tagged `tag`, named in errors).
    public init(_ section: UnsafeRawBufferPointer, path: String, tag: FourCC = FourCC("STRS")) throws(ArtifactError) {
        self.tag = tag
        guard section.count >= 8 else {
            throw .malformedSection(path: path, section: tag.description, reason: "shorter than its count and first offset")
        }
        let count = Int(section.le(UInt32.self, 0))
        let dataStart = 4 + (count + 1) * 4
        guard count >= 1, dataStart <= section.count else {
            throw .malformedSection(path: path, section: tag.description, reason: "offset table runs past the section")
        }
        self.count = count
        self.offsets = section.baseAddress! + 4
        self.data = section.baseAddress! + dataStart
        self.dataCount = section.count - dataStart
        // Offsets are not all checked here (that would touch the whole table on every open);
        // `bytes(_:)` clamps each one, so a corrupt pool gives wrong text, never a bad read.
    }

    /// Checks the pool's structure once (for `.full` opening): offsets never decrease and stay
    /// inside the data, every string starts on a character boundary, and the bytes are valid
    /// UTF-8, so every string decodes as written. (Reads past a corrupt offset are clamped
    /// either way; this turns a corrupt pool into an error instead of wrong text.)
    public func verify(path: String) throws(ArtifactError) {
        var previous = 0
        for id in 0...count {
            let offset = Int(self.offset(id))
            guard offset >= previous, offset <= dataCount else {
                throw .malformedSection(path: path, section: tag.description, reason: "string \(id) starts at \(offset), outside \(previous)...\(dataCount)")
            }
            if offset < dataCount, data.load(fromByteOffset: offset, as: UInt8.self) & 0xC0 == 0x80 {
                throw .malformedSection(path: path, section: tag.description, reason: "string \(id) starts inside a UTF-8 character")
            }
            previous = offset
        }
        if let bad = Self.firstInvalidUTF8(UnsafeRawBufferPointer(start: data, count: dataCount)) {
            throw .malformedSection(path: path, section: tag.description, reason: "not valid UTF-8 at byte \(bad) of the string data")
        }
    }

    /// The offset of the first byte that breaks UTF-8 (overlongs, surrogates and code points
    /// past U+10FFFF included), or nil.
    ///
    /// ASCII goes 16 bytes a step (two words whose high bits are all clear): the FAA's text is
    /// nearly all ASCII, and byte by byte this check was a quarter of a `.full` open of the
    /// full-size aircraft artifact (40 MB of strings).
    static func firstInvalidUTF8(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            if i + 16 <= n {
                let words = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    | bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                if words & 0x8080_8080_8080_8080 == 0 { i += 16; continue }
            }
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int, low: UInt8, high: UInt8
            switch b {
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
            default: return i
            }
            guard i + length <= n, (low...high).contains(bytes[i + 1]) else { return i }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    /// The bytes of string `id` (empty for an out-of-range id).
    @inlinable
    public func bytes(_ id: UInt32) -> UnsafeRawBufferPointer {
        guard Int(id) < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let end = min(Int(offset(Int(id) + 1)), dataCount)
        let start = min(Int(offset(Int(id))), end)
        return UnsafeRawBufferPointer(start: dataPointer + start, count: end - start)
    }

    /// Starts loading the offsets of string `id` (`bytes(_:)`'s first read), without waiting;
    /// nothing for an id outside the pool.
    @inlinable @inline(__always)
    public func prefetchOffsets(_ id: UInt32) {
        guard Int(id) < count else { return }
        fieldguide_prefetch(offsetsPointer + Int(id) * 4)
    }

    /// Starts loading the first bytes of string `id`, without waiting for them; nothing for an
    /// id outside the pool. Reads (and waits for) its offset, clamped to the data like
    /// `bytes(_:)`'s, so call it once `prefetchOffsets(_:)` has had time to bring it.
    @inlinable @inline(__always)
    public func prefetchBytes(_ id: UInt32) {
        guard Int(id) < count else { return }
        fieldguide_prefetch(dataPointer + min(Int(offset(Int(id))), dataCount))
    }

    /// String `id` decoded (short ASCII ones without the general decoder: `ArtifactText`).
    ///
    /// Short ASCII is made without a branch on its length (`ArtifactText.inlineASCII(padded:count:)`)
    /// when 16 bytes from the string's start lie in the data (all but the data's last 16 bytes):
    /// a record's strings have every length, and choosing loads by the length was mispredicted
    /// about as often as not.
    @inlinable
    public func string(_ id: UInt32) -> String {
        let bytes = bytes(id)
        if let start = bytes.baseAddress, start + 16 <= dataPointer + dataCount,
           let text = ArtifactText.inlineASCII(padded: start, count: bytes.count) {
            return text
        }
        return ArtifactText.string(bytes)
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
    @usableFromInline var offsetsPointer: UnsafeRawPointer { offsets }

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
