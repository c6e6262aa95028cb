/// The first 8 bytes of a key as a big-endian integer: integer order is byte order.
///
/// Short keys (N-numbers, ACFTREF and ENGINE codes) fit whole, so a lookup is a binary search
/// over a dense `UInt64` array rather than over strings.
///
/// ```swift
/// PackedKey.pack(Array("N90".utf8)) < PackedKey.pack(Array("N900".utf8))   // true
/// ```
public enum PackedKey {
    @inlinable
    public static func pack(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var key: UInt64 = 0
        let n = min(bytes.count, 8)
        for i in 0..<8 {
            key = key << 8 | (i < n ? UInt64(bytes[i]) : 0)
        }
        return key
    }

    public static func pack(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { pack($0) }
    }

    public static func pack(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { pack(UnsafeRawBufferPointer($0)) }
    }
}

/// A section of `UInt64` keys, one per row of the table it indexes, in the same (sorted) order.
public struct KeyTable: @unchecked Sendable {
    public let count: Int
    @usableFromInline let base: UnsafeRawPointer?

    public init(_ section: UnsafeRawBufferPointer, rows: Int, tag: FourCC, path: String) throws(ArtifactError) {
        guard section.count == rows * 8 else {
            throw .malformedSection(path: path, section: tag.description,
                                    reason: "expected \(rows) keys of 8 bytes, found \(section.count) bytes")
        }
        count = rows
        base = section.baseAddress
    }

    @inlinable
    public subscript(row: Int) -> UInt64 {
        // Out of range reads as the largest key (see `RowTable.value`: never a bad read).
        guard UInt(bitPattern: row) < UInt(bitPattern: count) else { return .max }
        return UInt64(littleEndian: base!.loadUnaligned(fromByteOffset: row * 8, as: UInt64.self))
    }

    /// The first row whose key is greater than `key`.
    @inlinable
    public func upperBound(_ key: UInt64) -> Int {
        key == .max ? count : lowerBound(key + 1)
    }

    /// The first row whose key is not less than `key`.
    @inlinable
    public func lowerBound(_ key: UInt64) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low &+ high) >> 1
            if self[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
