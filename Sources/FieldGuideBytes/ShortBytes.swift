/// Short byte strings (at most 16 bytes) as two machine words, for code that handles a field
/// a word at a time instead of a byte at a time: the artifact's short strings
/// (`ArtifactText`), the CSV writer's and reader's fields, the string pool builder's hash.
///
/// ```swift
/// let (low, high) = ShortBytes.words(bytes)   // "CESSNA" → (0x414E_5353_4543, 0)
/// ```
public enum ShortBytes {
    /// `bytes` (at most 16) as two little-endian words, zero past the end: two overlapping
    /// loads for each word instead of a `memcpy` call. Every load stays inside `bytes`.
    @inlinable @inline(__always)
    public static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let n = bytes.count
        assert(n <= 16, "ShortBytes.words takes at most 16 bytes, not \(n)")
        guard let base = bytes.baseAddress, n > 0 else { return (0, 0) }
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> UInt64 {
            UInt64(T(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: T.self)))
        }
        switch n {
        case 8...:
            // Bytes 8..<n are the top n - 8 bytes of the word ending at n.
            let high = n == 8 ? 0 : load(n - 8, UInt64.self) >> (8 * UInt64(16 - n))
            return (load(0, UInt64.self), high)
        case 4...:
            // The word of bytes 0..<4 and the one of n-4..<n overlap on equal bytes.
            return (load(0, UInt32.self) | load(n - 4, UInt32.self) << (8 * UInt64(n - 4)), 0)
        default:
            let middle = n / 2
            return (load(0, UInt8.self) | load(middle, UInt8.self) << (8 * UInt64(middle)) | load(n - 1, UInt8.self) << (8 * UInt64(n - 1)), 0)
        }
    }
}
