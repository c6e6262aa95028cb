import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics

extension KeyTable {
    /// The section bytes for `keys` (already in row order): little-endian words, so on a
    /// little-endian machine the keys' own bytes (one copy instead of an append per key).
    public static func serialize(_ keys: [UInt64]) -> [UInt8] {
        #if _endian(little)
        return keys.withUnsafeBytes { Array($0) }
        #else
        var out = ByteWriter(capacity: keys.count * 8)
        for key in keys { out.u64(key) }
        return out.bytes
        #endif
    }
}
