import FieldGuideDiagnostics
import Foundation
import ZIPFoundation

/// A downloaded `ReleasableAircraft.zip` checked before anything downstream reads it: a ZIP
/// whose central directory reads, holding ACFTREF, ENGINE and MASTER (or its parts) under
/// the names ``FAASources/locate(_:requireMaster:)`` finds, each declaring at most
/// ``FAASourceFile/maxEntryBytes`` uncompressed.
///
/// ```swift
/// let check = try FAAArchiveCheck(path: "downloads/ReleasableAircraft.zip")
/// check.entries   // ["ACFTREF.txt", "DEALER.txt", "ENGINE.txt", "MASTER.txt", …]
/// ```
public struct FAAArchiveCheck: Sendable {
    /// The file entries' names, sorted.
    public let entries: [String]
    /// The located FAA files.
    public let sources: FAASources

    /// A file that is no ZIP, lacks a file the ingest needs, or declares an entry past the
    /// bound throws a located error naming `path`.
    public init(path: String) throws(LocatedError) {
        let archive: Archive
        do { archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read) } catch {
            throw zipError(error, file: path, reading: "the ZIP archive")
        }
        var names: [String] = []
        for entry in archive where entry.type == .file {
            let name = (entry.path as NSString).lastPathComponent
            names.append(name)
            guard entry.uncompressedSize <= UInt64(FAASourceFile.maxEntryBytes) else {
                throw FAASourceFile.entryTooLarge(name, declared: entry.uncompressedSize)
            }
        }
        entries = names.sorted()
        do { sources = try FAASources.locate(path, requireMaster: true) } catch {
            var missing = error
            missing.message += " (the ZIP holds \(entries.isEmpty ? "no files" : entries.joined(separator: ", ")))"
            throw missing
        }
    }
}
