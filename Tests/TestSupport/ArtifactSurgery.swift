import FieldGuideArtifact
import FieldGuideArtifactWriter
import Foundation

/// Structure-aware mutation of artifacts for hostile-input tests: a changed word inside a
/// section, with that section's CRC-32 and the header checksum recomputed, so the file passes
/// every checksum and reaches the readers (a checksum is not a proof of structure).
///
/// ```swift
/// let variants = try ArtifactSurgery.wordVariants(of: "birds.fgb", values: [0xFFFF_FF00])
/// for bytes in variants { try Data(bytes.data).write(to: crafted) /* open and query */ }
/// ```
public enum ArtifactSurgery {
    public struct Variant {
        public let section: String
        public let offset: Int
        public let value: UInt32
        public let data: [UInt8]
    }

    /// One variant per (section, 4-byte word among the first `words` of it, value); only the
    /// sections tagged in `sections` when given.
    public static func wordVariants(of path: String, words: Int = 16, values: [UInt32], sections: Set<String>? = nil) throws -> [Variant] {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try ArtifactFile(path: path, verification: .full)
        var out: [Variant] = []
        for (index, section) in file.sections.enumerated() where sections?.contains(section.tag) ?? true {
            let start = Int(section.offset)
            for word in 0..<min(words, Int(section.length) / 4) {
                for value in values {
                    var bytes = original
                    withUnsafeBytes(of: value.littleEndian) { for i in 0..<4 { bytes[start + word * 4 + i] = $0[i] } }
                    reseal(&bytes, sectionIndex: index)
                    out.append(Variant(section: section.tag, offset: word * 4, value: value, data: bytes))
                }
            }
        }
        return out
    }

    /// The artifact with section `tag` renamed `newTag` in the section table (header checksum
    /// recomputed): to a tag no reader knows, the section is as good as absent.
    ///
    /// ```swift
    /// let bytes = try ArtifactSurgery.renamingSection(of: "aircraft.fgb", "OWRD", to: "ZZZZ")
    /// ```
    public static func renamingSection(of path: String, _ tag: String, to newTag: String) throws -> [UInt8] {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try ArtifactFile(path: path, verification: .full)
        guard let index = file.sections.firstIndex(where: { $0.tag == tag }), newTag.utf8.count == 4 else { return bytes }
        let entry = ArtifactFormat.headerSize + index * ArtifactFormat.sectionEntrySize
        for (offset, byte) in newTag.utf8.enumerated() { bytes[entry + offset] = byte }
        reseal(&bytes, sectionIndex: index)
        return bytes
    }

    /// Recomputes one section's CRC-32 in the section table, then the header's.
    public static func reseal(_ bytes: inout [UInt8], sectionIndex: Int) {
        bytes.withUnsafeMutableBytes { ArtifactBuilder.reseal($0, section: sectionIndex) }
    }
}
