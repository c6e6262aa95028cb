import FieldGuideDiagnostics
import Foundation

/// Reads a whole file only when its size is within a documented bound: a larger file is
/// refused (`.tooLarge`) from its size, before a byte of it is read.
///
/// For the inputs read whole rather than streamed: the bird seed JSON (parsed with positions
/// for its findings) and the BirdNET labels lists.
///
/// ```swift
/// let bytes = try BoundedRead.bytes(atPath: "bird_database.json", limit: BoundedRead.seedFileBytes, what: "a bird seed file")
/// ```
public enum BoundedRead {
    /// The largest bird seed file read: 128 MiB (a world checklist of 11,000 species with
    /// field marks is about 15 MB).
    public static let seedFileBytes = 128 << 20
    /// The largest BirdNET labels list read: 16 MiB (the real ones are about 250 KB).
    public static let labelsFileBytes = 16 << 20
    /// The largest pipeline file read: 1 MiB (`pipelines/nightly.yaml` is about 10 KB).
    public static let pipelineFileBytes = 1 << 20
    /// The largest watchlist rules file read (`fieldguide watchlist --rules`): 1 MiB (a
    /// watchlist's rules are a few hundred bytes).
    public static let rulesFileBytes = 1 << 20

    /// The file's bytes; `.tooLarge` when it holds more than `limit`, `.missingFile` or
    /// `.unreadable` in the system's words when it cannot be read, `.unreadable` for a
    /// directory or anything else that is not a regular file.
    public static func bytes(atPath path: String, limit: Int, what: String) throws(LocatedError) -> [UInt8] {
        [UInt8](try data(atPath: path, limit: limit, what: what))
    }

    /// The same as ``bytes(atPath:limit:what:)``, as `Data`.
    public static func data(atPath path: String, limit: Int, what: String) throws(LocatedError) -> Data {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)) } catch { throw LocatedError(path, failed: error) }
        defer { try? handle.close() }
        // Its size is what the bound is checked on: a directory's "size" is the largest offset.
        var info = stat()
        guard fstat(handle.fileDescriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw LocatedError(.unreadable, file: path, expected: what, found: (info.st_mode & S_IFMT) == S_IFDIR ? "a directory" : "not a regular file",
                               message: "not a file to read")
        }
        do {
            let size = try handle.seekToEnd()
            guard size <= UInt64(limit) else {
                throw LocatedError(.tooLarge, file: path,
                                   message: "expected \(what) of at most \(mebibytes(limit)), found \(mebibytes(Int(size))); refused before reading it")
            }
            try handle.seek(toOffset: 0)
            // One more byte than the limit: a file that grew while read is refused too.
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else {
                throw LocatedError(.tooLarge, file: path, message: "expected \(what) of at most \(mebibytes(limit)), found more (it grew while read)")
            }
            return data
        } catch let error as LocatedError {
            throw error
        } catch {
            throw LocatedError(path, failed: error)
        }
    }
}

/// `16 MiB`, `1.5 MiB`: whole mebibytes as such, others to a tenth (never "found 1 MiB" for a
/// file over a 1 MiB bound).
private func mebibytes(_ bytes: Int) -> String {
    // Rounded up, so that past the bound shows past it; whole mebibytes first, so no size overflows.
    let tenths = (bytes >> 20) * 10 + ((bytes & ((1 << 20) - 1)) * 10 + (1 << 20) - 1) >> 20
    return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
}
