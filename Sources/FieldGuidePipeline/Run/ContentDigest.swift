import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SHA-256 fingerprints of files and directory trees, for deciding whether a stage must run,
/// and the file stamps that tell whether a source changed while a stage read it.
enum ContentDigest {
    /// One file under a path: its path relative to the listed root, size and SHA-256.
    struct Entry: Sendable, Equatable {
        var relative: String
        var bytes: Int
        var sha256: String
        /// What `stat` said just before the file was hashed.
        var stamp = Stamp()
    }

    /// A file's identity and change times: any write, truncation or replacement changes one
    /// of them (`ctime` cannot be set back).
    struct Stamp: Sendable, Equatable, Codable {
        var device: UInt64 = 0
        var inode: UInt64 = 0
        var size: Int64 = 0
        var modified: Int64 = 0
        var changed: Int64 = 0

        /// The stamp of the file at `path` (links followed), nil when it cannot be read.
        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            #if canImport(Darwin)
            let (m, c) = (info.st_mtimespec, info.st_ctimespec)
            #else
            let (m, c) = (info.st_mtim, info.st_ctim)
            #endif
            modified = Int64(m.tv_sec) * 1_000_000_000 + Int64(m.tv_nsec)
            changed = Int64(c.tv_sec) * 1_000_000_000 + Int64(c.tv_nsec)
        }

        init() {}
    }

    /// A source as it was fingerprinted: one digest, its size, and every file's entry.
    struct Source: Sendable {
        var sha256: String
        var bytes: Int
        var paths: [String]
        var files: [(path: String, entry: Entry)]
        /// Wall-clock nanoseconds when hashing started: a file changed less than a second
        /// before it may change again within the same timestamp tick, so it is hashed again.
        var hashedAt: Int64
    }

    /// A file's SHA-256 and size as the stage that wrote or read it reported them.
    struct ReportedFile: Sendable, Equatable {
        var sha256: String
        var bytes: Int
        /// For a source: its stamp when the stage started (the digest holds only while the file
        /// still has it) and when that was (what `DigestCache` records as its hashing time).
        var startedWith: Stamp? = nil
        var startedAt: Int64 = 0
    }

    /// Reported files by full path (as the walk below names them: the listed root, then `/`
    /// and the relative path).
    typealias Reported = [String: ReportedFile]

    /// Every regular file at or under `path` (symbolic links followed, hidden names skipped),
    /// sorted by relative path; a file in `reported` whose size is the reported one takes the
    /// reported digest instead of being read (`StageRecord.make`).
    static func entries(under path: String, reported: Reported = [:]) throws(PipelineError) -> [Entry] {
        try files(under: path, reported: reported).map(\.entry)
    }

    /// Every regular file at or under `path` with its full path; digests from `reported` (at
    /// the reported size, and a source's stamp unchanged since the stage started), then from
    /// `digests` when it vouches for a file's stamp, else read and hashed.
    static func files(under path: String, digests: DigestCache = DigestCache(path: nil),
                      reported: Reported = [:]) throws(PipelineError) -> [(path: String, entry: Entry)] {
        var out: [(path: String, entry: Entry)] = []
        func visit(_ full: String, _ relative: String) throws(PipelineError) {
            if Glob.isDirectory(full) {
                // The files the stage will find there: links followed, each file once, no loop.
                let inside: [String]
                do { inside = try DirectoryWalk.files(under: full) } catch {
                    throw PipelineError(.io, "\(error.location): cannot read for fingerprinting: \(error.message)")
                }
                for inner in inside { try visit(full + "/" + inner, inner) }
            } else {
                let stamp = Stamp(path: full) ?? Stamp()
                if let known = reported[full], Int64(known.bytes) == stamp.size, isSHA256(known.sha256),
                   known.startedWith.map({ $0 == stamp }) ?? true {
                    if known.startedWith != nil { digests.record(full, stamp: stamp, sha256: known.sha256, readSince: known.startedAt) }
                    out.append((full, Entry(relative: relative, bytes: known.bytes, sha256: known.sha256, stamp: stamp)))
                    return
                }
                do {
                    let (digest, bytes) = try digests.sha256(ofFileAt: full, stamp: stamp)
                    out.append((full, Entry(relative: relative, bytes: bytes, sha256: digest, stamp: stamp)))
                } catch {
                    throw PipelineError(.io, "\(full): cannot read for fingerprinting: \(SystemReason.of(error))")
                }
            }
        }
        try visit(path, "")
        return out
    }

    /// Whether `text` is a SHA-256 as the reports write it: 64 lower-case hex digits.
    static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// One digest over several paths: each path's name, then its files' names, sizes and hashes.
    static func digest(of paths: [String]) throws(PipelineError) -> (sha256: String, bytes: Int) {
        let source = try source(paths)
        return (source.sha256, source.bytes)
    }

    /// A source's digest with the stamps of the files that went into it.
    static func source(_ paths: [String], digests: DigestCache = DigestCache(path: nil),
                       reported: Reported = [:]) throws(PipelineError) -> Source {
        let hashedAt = DigestCache.now()
        var lines: [String] = []
        var bytes = 0
        var files: [(path: String, entry: Entry)] = []
        for path in paths {
            lines.append("path \(path)")
            for file in try Self.files(under: path, digests: digests, reported: reported) {
                lines.append("file \(file.entry.relative) \(file.entry.bytes) \(file.entry.sha256)")
                bytes += file.entry.bytes
                files.append(file)
            }
        }
        return Source(sha256: FileDigest.sha256(Array(lines.joined(separator: "\n").utf8)), bytes: bytes, paths: paths,
                      files: files, hashedAt: hashedAt)
    }

    /// The stamps of every file under `paths` (nothing hashed), nil when one cannot be read.
    static func stamps(_ paths: [String]) -> [String: Stamp]? {
        var stamps: [String: Stamp] = [:]
        for path in paths {
            guard let files = try? files(stampsOnly: path) else { return nil }
            for file in files { stamps[file.path] = file.entry.stamp }
        }
        return stamps
    }

    /// What changed in `source` since it was fingerprinted, or nil: a file added, removed,
    /// written or replaced (by its stamp; a file changed just before hashing is hashed again).
    /// `startedWith`, the stamps taken when a stage that was fingerprinted while it ran started:
    /// a file that changed between then and its hashing counts as changed too.
    static func change(in source: Source, startedWith: [String: Stamp]? = nil) -> String? {
        if let startedWith, let change = change(from: startedWith, to: source) { return change }
        var now: [String: Entry] = [:]
        for path in source.paths {
            guard let files = try? Self.files(stampsOnly: path) else { return "\(path) can no longer be read" }
            for file in files { now[file.path] = file.entry }
        }
        let before = Dictionary(source.files.map { ($0.path, $0.entry) }, uniquingKeysWith: { a, _ in a })
        if let added = now.keys.sorted().first(where: { before[$0] == nil }) { return "\(added) appeared" }
        for (path, entry) in source.files {
            guard let stamp = now[path]?.stamp else { return "\(path) disappeared" }
            if stamp.size != entry.stamp.size { return "\(path) went from \(entry.stamp.size) to \(stamp.size) bytes" }
            if stamp != entry.stamp { return "\(path) was rewritten or replaced" }
            if entry.stamp.changed >= source.hashedAt - 1_000_000_000,
               (try? FileDigest.sha256(ofFileAt: path).digest) != entry.sha256 {
                return "\(path) was rewritten"
            }
        }
        return nil
    }

    /// What differs between the stamps a stage started with and those its source was hashed with.
    private static func change(from started: [String: Stamp], to source: Source) -> String? {
        let hashed = Dictionary(source.files.map { ($0.path, $0.entry.stamp) }, uniquingKeysWith: { a, _ in a })
        if let added = hashed.keys.sorted().first(where: { started[$0] == nil }) { return "\(added) appeared" }
        if let removed = started.keys.sorted().first(where: { hashed[$0] == nil }) { return "\(removed) disappeared" }
        for (path, stamp) in started.sorted(by: { $0.key < $1.key }) where hashed[path] != stamp {
            let size = hashed[path]!.size
            return size != stamp.size ? "\(path) went from \(stamp.size) to \(size) bytes" : "\(path) was rewritten or replaced"
        }
        return nil
    }

    /// The files under `path` with their stamps only (nothing hashed).
    private static func files(stampsOnly path: String) throws -> [(path: String, entry: Entry)] {
        if Glob.isDirectory(path) {
            return try DirectoryWalk.files(under: path).map { inner in
                let full = path + "/" + inner
                guard let stamp = Stamp(path: full) else { throw PipelineError(.io, "\(full): cannot stat") }
                return (full, Entry(relative: "", bytes: Int(stamp.size), sha256: "", stamp: stamp))
            }
        }
        guard let stamp = Stamp(path: path) else { throw PipelineError(.io, "\(path): cannot stat") }
        return [(path, Entry(relative: "", bytes: Int(stamp.size), sha256: "", stamp: stamp))]
    }
}
