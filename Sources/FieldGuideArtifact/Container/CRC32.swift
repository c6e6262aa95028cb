import CCRC32Fold

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), the checksum of every section.
///
/// On x86-64 with carry-less multiplication, buffers of 64 bytes and more are folded in C
/// (`CCRC32Fold`, about 7 GB/s against the table loop's 1 GB/s); the table loop does the rest and
/// every other processor.
///
/// ```swift
/// CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926
/// ```
public enum CRC32 {
    /// Slicing-by-8 tables: `tables[k][b]` is the CRC of byte `b` followed by `k` zero bytes.
    static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[0][byte] = crc
        }
        for byte in 0..<256 {
            for k in 1..<8 {
                let previous = tables[k - 1][byte]
                tables[k][byte] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// Whether `fieldguide_crc32_fold` runs here (asked once).
    package static let folds = fieldguide_crc32_can_fold() != 0

    /// The CRC-32 of `bytes`, continuing from `seed` (the result of an earlier call).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        guard bytes.count >= 64, folds, let base = bytes.baseAddress else { return ~register(bytes, from: ~seed) }
        // The fold leaves 16 bytes whose register from 0 is the register of all it consumed.
        var rest = (UInt64(0), UInt64(0))
        let consumed = withUnsafeMutableBytes(of: &rest) {
            fieldguide_crc32_fold(~seed, base.assumingMemoryBound(to: UInt8.self), bytes.count, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        guard consumed > 0 else { return ~register(bytes, from: ~seed) }
        let folded = withUnsafeBytes(of: &rest) { register($0, from: 0) }
        return ~register(UnsafeRawBufferPointer(rebasing: bytes[consumed...]), from: folded)
    }

    /// The CRC register after the table loop runs over `bytes` from register `crc`.
    package static func register(_ bytes: UnsafeRawBufferPointer, from crc: UInt32) -> UInt32 {
        var crc = crc
        let t = tables
        var index = 0
        let count = bytes.count
        t.withUnsafeBufferPointer { t in
            let t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3], t4 = t[4], t5 = t[5], t6 = t[6], t7 = t[7]
            while index + 8 <= count {
                let lo = bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
                let hi = bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                crc = t7[Int(lo & 0xFF)] ^ t6[Int((lo >> 8) & 0xFF)] ^ t5[Int((lo >> 16) & 0xFF)] ^ t4[Int(lo >> 24)]
                    ^ t3[Int(hi & 0xFF)] ^ t2[Int((hi >> 8) & 0xFF)] ^ t1[Int((hi >> 16) & 0xFF)] ^ t0[Int(hi >> 24)]
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
                index += 1
            }
        }
        return crc
    }

    /// The CRC-32 of a byte array.
    public static func checksum(_ bytes: [UInt8], seed: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, seed: seed) }
    }
}
