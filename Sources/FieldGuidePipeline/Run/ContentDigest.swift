import FieldGuideCore
import Foundation

/// SHA-256 fingerprints of files and directory trees, for deciding whether a stage must run.
enum ContentDigest {
    /// One file under a path: its path relative to the listed root, size and SHA-256.
    struct Entry: Sendable, Equatable {
        var relative: String
        var bytes: Int
        var sha256: String
    }

    /// Every regular file at or under `path` (symbolic links followed, hidden names skipped),
    /// sorted by relative path.
    static func entries(under path: String) throws(PipelineError) -> [Entry] {
        var out: [Entry] = []
        func visit(_ full: String, _ relative: String) throws(PipelineError) {
            if Glob.isDirectory(full) {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: full)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
                for name in names {
                    try visit(full + "/" + name, relative.isEmpty ? name : relative + "/" + name)
                }
            } else {
                do {
                    let (digest, bytes) = try FileDigest.sha256(ofFileAt: full)
                    out.append(Entry(relative: relative, bytes: bytes, sha256: digest))
                } catch {
                    throw PipelineError(.io, "\(full): cannot read for fingerprinting: \(SystemReason.of(error))")
                }
            }
        }
        try visit(path, "")
        return out
    }

    /// One digest over several paths: each path's name, then its files' names, sizes and hashes.
    static func digest(of paths: [String]) throws(PipelineError) -> (sha256: String, bytes: Int) {
        var lines: [String] = []
        var bytes = 0
        for path in paths {
            lines.append("path \(path)")
            for entry in try entries(under: path) {
                lines.append("file \(entry.relative) \(entry.bytes) \(entry.sha256)")
                bytes += entry.bytes
            }
        }
        return (FileDigest.sha256(Array(lines.joined(separator: "\n").utf8)), bytes)
    }
}
