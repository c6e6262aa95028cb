import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a fetch keeps across runs in its state directory: `fetch-state.json` (the last N
/// distinct downloads, newest first, each with its SHA-256 and the validators the server sent)
/// and the files themselves under `downloads/`.
///
/// ```json
/// { "downloads": [ { "file": "downloads/ReleasableAircraft-3f9a0c1d2e4b5a69.zip", "sha256": "3f9a…",
///                    "bytes": 61234567, "url": "https://…", "fetched": "2026-11-24T03:00:05Z",
///                    "etag": "\"5f1e-63a\"", "lastModified": "Mon, 23 Nov 2026 23:31:02 GMT" } ] }
/// ```
struct FetchState: Codable, Sendable, Equatable {
    struct Download: Codable, Sendable, Equatable {
        /// Relative to the state directory.
        var file: String
        var sha256: String
        var bytes: Int
        var url: String
        /// When it was fetched (or last confirmed by a 200 with the same bytes), UTC.
        var fetched: String
        var etag: String?
        var lastModified: String?
    }

    static let fileName = "fetch-state.json"
    static let downloadsDirectory = "downloads"

    var downloads: [Download] = []

    /// The state in `directory`, empty when there is none; a file that does not decode is
    /// reported through `warn` and replaced at the next save (a lost state costs one full download).
    static func load(from directory: String, warn: (String) -> Void) -> FetchState {
        let path = directory + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else { return FetchState() }
        do { return try JSONDecoder().decode(FetchState.self, from: data) } catch {
            warn("\(path): not a fetch state (\(StageReport.reason(error))); starting afresh: the next download is unconditional")
            return FetchState()
        }
    }

    /// The newest download of `url` whose file is still there with its recorded SHA-256:
    /// the one a 304 answer stands for. Hashes the file (a damaged copy is never reused).
    func newestIntact(of url: String, in directory: String) -> Download? {
        guard let newest = downloads.first, newest.url == url,
              let actual = try? FileDigest.sha256(ofFileAt: directory + "/" + newest.file),
              actual.digest == newest.sha256, actual.bytes == newest.bytes else { return nil }
        return newest
    }

    /// Puts `download` first (replacing an entry with the same bytes), drops the entries past
    /// `keep` and deletes their files.
    mutating func record(_ download: Download, keep: Int, in directory: String) {
        downloads.removeAll { $0.sha256 == download.sha256 }
        downloads.insert(download, at: 0)
        while downloads.count > keep {
            let dropped = downloads.removeLast()
            if !downloads.contains(where: { $0.file == dropped.file }) { unlink(directory + "/" + dropped.file) }
        }
    }

    /// Writes `fetch-state.json` atomically.
    func save(in directory: String) throws(FetchError) {
        do { try JSON.write(self, to: directory + "/" + Self.fileName) } catch {
            throw .io("\(directory)/\(Self.fileName): cannot write the fetch state: \(error)")
        }
    }

    /// Removes what `downloads/` holds besides the listed downloads: a killed fetch's partial
    /// body (`.incoming.zip.tmp-…`, `incoming.zip`), or with `unlisted` the files a lost state left. Called
    /// under the state lock.
    func sweep(in directory: String, unlisted: Bool) {
        let listed = Set(downloads.map(\.file))
        let folder = directory + "/" + Self.downloadsDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix(".incoming.zip.tmp-") || name == "incoming.zip" || (unlisted && !listed.contains(Self.downloadsDirectory + "/" + name)) {
            unlink(folder + "/" + name)
        }
    }

    /// The kept file's name for bytes with this SHA-256.
    static func keptName(sha256: String) -> String {
        downloadsDirectory + "/ReleasableAircraft-" + sha256.prefix(16) + ".zip"
    }

    /// Now, as the state records it (`2026-11-24T03:00:05Z`).
    static func now() -> String { UTCTimestamp.iso8601(Date()) }
}

/// An exclusive lock on a state directory, so two fetches never write the same downloads.
final class StateLock {
    private let fd: Int32

    init(directory: String) throws(FetchError) {
        do { try FileManager.default.createDirectory(atPath: directory + "/" + FetchState.downloadsDirectory, withIntermediateDirectories: true) } catch {
            throw .io("\(directory): cannot create the state directory: \(SystemReason.of(error))")
        }
        let fd = open(directory + "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io("\(directory)/.lock: cannot open: \(SystemReason.errnoText)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw .io("\(directory): another fetch is using this state directory")
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
