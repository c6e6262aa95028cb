import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SHA-256 of every source file and tool a run hashed, by path, with the file's stamp
/// (device, inode, size, modification and change times) when it was hashed: a later run takes
/// the digest of a file whose stamp is still the same instead of reading it again.
///
/// Why: an unchanged nightly rerun read and hashed every source (210 MB of FAA files at full
/// size) and every tool only to find them unchanged; with this it stats them.
///
/// The trade-off, and why it holds: a file whose content changed while its stamp stayed the same
/// would be missed. Every write, truncation or replacement sets the change time (`ctime`), which
/// no system call can set back (only a change of the system clock, or writing the disk behind
/// the file system, could fake it), and a replaced file has a new inode. Two cases are left to
/// the content hash: a file changed less than a second before it was hashed (a write in the same
/// timestamp tick would leave the stamp as it was) is never taken from here, and
/// `pipeline run --force` hashes everything again. The cache lives in the pipeline's state
/// directory (`OUTPUT/.pipeline/NAME/digests.json`), written atomically at the end of a run with
/// the entries that run used; a missing or unreadable one is simply rebuilt.
///
/// ```swift
/// let cache = DigestCache(path: state + "/digests.json", trusted: !force)
/// let (sha256, bytes) = try cache.sha256(ofFileAt: "input/faa/MASTER.txt", stamp: stamp)
/// cache.save()
/// ```
final class DigestCache: @unchecked Sendable {
    /// One file's digest and what `stat` said when it was hashed.
    struct Entry: Codable, Equatable {
        var stamp: ContentDigest.Stamp
        /// Wall-clock nanoseconds when hashing started.
        var hashedAt: Int64
        var sha256: String

        init(_ stamp: ContentDigest.Stamp, hashedAt: Int64, sha256: String) {
            (self.stamp, self.hashedAt, self.sha256) = (stamp, hashedAt, sha256)
        }

        /// Whether this entry may stand for a file stamped `stamp` now: the same file, unchanged
        /// since it was hashed, and not changed within the second before (see the type's comment).
        func vouches(for stamp: ContentDigest.Stamp) -> Bool {
            self.stamp == stamp && stamp.changed < hashedAt - 1_000_000_000
        }
    }

    /// The cache's file name in the pipeline's state directory.
    static let fileName = "digests.json"

    struct Stored: Codable {
        var version = 1
        var files: [String: Entry]
    }

    private let path: String?
    private let lock = NSLock()
    private let known: [String: Entry]
    private var used: [String: Entry] = [:]

    /// The cache stored at `path`; `trusted: false` (a forced run) hashes every file again and
    /// stores the new digests. `path: nil` keeps nothing (hashes everything, saves nothing).
    init(path: String?, trusted: Bool = true) {
        self.path = path
        guard trusted, let path, let data = FileManager.default.contents(atPath: path),
              let stored = try? JSONDecoder().decode(Stored.self, from: data), stored.version == 1 else {
            known = [:]
            return
        }
        known = stored.files
    }

    /// The SHA-256 and size of the file at `path`, whose stamp, taken just before, is `stamp`:
    /// from the cache when it vouches for that stamp, else read and hashed.
    func sha256(ofFileAt path: String, stamp: ContentDigest.Stamp) throws(LocatedError) -> (digest: String, bytes: Int) {
        if let entry = known[path], entry.vouches(for: stamp) {
            remember(path, entry)
            return (entry.sha256, Int(entry.stamp.size))
        }
        let hashedAt = Self.now()
        let (digest, bytes) = try FileDigest.sha256(ofFileAt: path)
        // A file that grew or shrank while it was read is not vouched for next time.
        if bytes == Int(stamp.size) { remember(path, Entry(stamp, hashedAt: hashedAt, sha256: digest)) }
        return (digest, bytes)
    }

    /// Writes the entries this run used, atomically; a cache that cannot be written is only a
    /// slower next run, so a failure is ignored.
    func save() {
        guard let path else { return }
        let files = lock.withLock { used }
        guard files != known else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(Stored(files: files)) else { return }
        try? AtomicFile.write(Array(data), to: path)
    }

    /// Records `sha256` for the file at `path` with `stamp`, its bytes read by a stage that
    /// started at `readSince` (the stage's report gave the digest): vouched for next time
    /// like a digest hashed then.
    func record(_ path: String, stamp: ContentDigest.Stamp, sha256: String, readSince: Int64) {
        remember(path, Entry(stamp, hashedAt: readSince, sha256: sha256))
    }

    private func remember(_ path: String, _ entry: Entry) {
        lock.withLock { used[path] = entry }
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
