import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics

extension KeyTable {
    /// The section bytes for `keys` (already in row order).
    public static func serialize(_ keys: [UInt64]) -> [UInt8] {
        var out = ByteWriter(capacity: keys.count * 8)
        for key in keys { out.u64(key) }
        return out.bytes
    }
}
