import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import ZIPFoundation

/// One FAA file to read: a file on disk or an entry of `ReleasableAircraft.zip`.
public struct FAASourceFile: Sendable, Hashable {
    public enum Location: Sendable, Hashable {
        case file(path: String)
        case zipEntry(archive: String, entry: String)
    }

    /// The largest ZIP entry read, uncompressed: 512 MiB, nearly three times the real MASTER.txt
    /// (about 190 MB). An entry that declares more is refused before anything is extracted; one
    /// whose declared size lies is refused once that many bytes have come out.
    public static let maxEntryBytes = 512 << 20

    static func entryTooLarge(_ name: String, declared: UInt64?) -> LocatedError {
        let found = declared.map { "one of \($0 >> 20) MiB" } ?? "more bytes coming out than that"
        return LocatedError(.tooLarge, file: name,
                            message: "expected a ZIP entry of at most \(maxEntryBytes >> 20) MiB uncompressed, found \(found); refused before extracting the rest")
    }

    /// The name reports use (`MASTER-2.txt`).
    public let name: String
    public let location: Location

    /// Streams the file's bytes in chunks to `body`.
    func stream(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch location {
        case let .file(path):
            try CSVReader.stream(fileAt: path, displayName: name, body)
        case let .zipEntry(archivePath, entryPath):
            let archive: Archive
            do { archive = try Archive(url: URL(fileURLWithPath: archivePath), accessMode: .read) } catch {
                throw zipError(error, file: archivePath, reading: "the ZIP archive")
            }
            guard let entry = archive[entryPath] else {
                throw LocatedError(.missingFile, file: archivePath, message: "no entry \(entryPath)")
            }
            let limit = Self.maxEntryBytes
            guard entry.uncompressedSize <= UInt64(limit) else {
                throw Self.entryTooLarge(name, declared: entry.uncompressedSize)
            }
            do {
                // The declared size may lie: the bytes that come out are counted too.
                var extracted = 0
                // ZIPFoundation computes the CRC-32 of what it hands a consumer but leaves the
                // check to the caller: a damaged entry would otherwise build with exit 0.
                let checksum = try archive.extract(entry, bufferSize: 1 << 20, skipCRC32: false) { data in
                    extracted += data.count
                    if extracted > limit { throw Self.entryTooLarge(name, declared: nil) }
                    try data.withUnsafeBytes { try body($0) }
                }
                guard checksum == entry.checksum else {
                    throw LocatedError(.malformed, file: name, expected: "the CRC-32 \(hex(entry.checksum)) the archive records",
                                       found: hex(checksum), message: "damaged in \(archivePath); download it again")
                }
            } catch let error as LocatedError {
                throw error
            } catch {
                throw zipError(error, file: name, reading: archivePath)
            }
        }
    }
}

/// The files of one FAA download, found in a directory or in `ReleasableAircraft.zip`.
public struct FAASources: Sendable {
    public var aircraftReference: FAASourceFile
    public var engine: FAASourceFile
    /// `MASTER.txt`, or its parts `MASTER-1.txt`, `MASTER-2.txt` … in part order; empty for a
    /// download located with `requireMaster: false` that has none (reference data only).
    public var master: [FAASourceFile]
    /// `DEREG.txt` (deregistered aircraft) and `RESERVED.txt` (reserved N-numbers), when the
    /// download has them: both optional (an older export, or a directory without them, still builds).
    public var deregistered: FAASourceFile? = nil
    public var reserved: FAASourceFile? = nil

    /// Finds the files under `path`: a directory, a `.zip`, or a directory holding one `.zip` and
    /// no ACFTREF.txt. File names match case-insensitively. Without `requireMaster`, a download
    /// with no MASTER is the reference data alone (what the manufacturer index is built from).
    ///
    /// ```swift
    /// let sources = try FAASources.locate("downloads/ReleasableAircraft.zip")
    /// ```
    public static func locate(_ path: String, requireMaster: Bool = true) throws(LocatedError) -> FAASources {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LocatedError(.missingFile, file: path, message: "no such file or directory")
        }
        var candidates: [(name: String, location: FAASourceFile.Location)] = []
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            // A directory holding only the download (`faa/ReleasableAircraft.zip`) reads as the archive.
            let archives = names.filter { $0.lowercased().hasSuffix(".zip") }
            if archives.count == 1, !names.contains(where: { $0.uppercased() == "ACFTREF.TXT" }) {
                return try locate((path as NSString).appendingPathComponent(archives[0]), requireMaster: requireMaster)
            }
            for name in names.sorted() {
                candidates.append((name, .file(path: (path as NSString).appendingPathComponent(name))))
            }
        } else {
            let archive: Archive
            do { archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read) } catch {
                var refused = zipError(error, file: path, reading: "the ZIP archive")
                refused.expected = "a directory or a ZIP archive of the FAA files"
                throw refused
            }
            for entry in archive where entry.type == .file {
                let name = (entry.path as NSString).lastPathComponent
                candidates.append((name, .zipEntry(archive: path, entry: entry.path)))
            }
            candidates.sort { $0.name < $1.name }
        }
        /// The one file named `wanted` (in any case); two are refused rather than chosen between.
        func find(_ wanted: String) throws(LocatedError) -> FAASourceFile? {
            let found = candidates.filter { $0.name.uppercased() == wanted }
            guard found.count <= 1 else {
                let names = found.map { candidate in
                    if case let .zipEntry(_, entry) = candidate.location { entry } else { candidate.name }
                }
                throw LocatedError(.usage, file: path, expected: "one \(found[0].name)", found: "\(found.count): \(names.joined(separator: ", "))",
                                   message: "two files could be \(found[0].name); keep one")
            }
            return found.first.map { FAASourceFile(name: $0.name, location: $0.location) }
        }
        guard let reference = try find("ACFTREF.TXT") else {
            throw LocatedError(.missingFile, file: path, message: "expected ACFTREF.txt (the aircraft reference file), found none")
        }
        guard let engine = try find("ENGINE.TXT") else {
            throw LocatedError(.missingFile, file: path, message: "expected ENGINE.txt (the engine reference file), found none")
        }
        let master = try masterFiles(whole: find("MASTER.TXT"), candidates, path: path)
        guard !master.isEmpty || !requireMaster else {
            throw LocatedError(.missingFile, file: path, message: "expected MASTER.txt or its parts MASTER-1.txt…, found none")
        }
        return FAASources(aircraftReference: reference, engine: engine, master: master,
                          deregistered: try find("DEREG.TXT"), reserved: try find("RESERVED.TXT"))
    }
}

extension FAASources {
    /// MASTER as a whole file or as its parts `MASTER-1.txt`, `MASTER-2.txt` … in order; none
    /// when the download has neither.
    ///
    /// Refused rather than chosen between (exit 2: a usage error, or a missing file for a gap):
    /// a whole file beside parts (two downloads in one directory: which is current?), and parts
    /// that do not run from 1 without a gap or a repeat (`MASTER-1.txt`, `MASTER-3.txt`: a part
    /// that did not download would otherwise build a registry short of a third of its aircraft,
    /// with exit 0).
    static func masterFiles(whole: FAASourceFile?, _ candidates: [(name: String, location: FAASourceFile.Location)],
                            path: String) throws(LocatedError) -> [FAASourceFile] {
        let parts = candidates.compactMap { candidate -> (number: Int, file: FAASourceFile)? in
            let upper = candidate.name.uppercased()
            guard upper.hasPrefix("MASTER-"), upper.hasSuffix(".TXT"),
                  let n = Int(upper.dropFirst(7).dropLast(4)) else { return nil }
            return (n, FAASourceFile(name: candidate.name, location: candidate.location))
        }.sorted { $0.number < $1.number }
        if let whole {
            guard let part = parts.first else { return [whole] }
            throw LocatedError(.usage, file: path, expected: "MASTER.txt or its parts MASTER-1.txt…",
                               found: "both \(whole.name) and \(part.file.name)", message: "two MASTER downloads side by side; keep one")
        }
        for (index, part) in parts.enumerated() where part.number != index + 1 {
            let found = parts.map(\.file.name).joined(separator: ", ")
            throw LocatedError(part.number <= index ? .usage : .missingFile, file: path,
                               expected: part.number <= index ? "each part of MASTER once" : "MASTER-\(index + 1).txt among the parts",
                               found: found, message: part.number <= index ? "a part of MASTER twice" : "a part of MASTER is missing")
        }
        return parts.map(\.file)
    }
}

/// A ZIP archive that could not be read or extracted, in words (ZIPFoundation names its
/// errors only by case): a file that is no archive is a usage error (exit 2: the wrong file
/// was given, such as an HTML error page saved as the ZIP), a damaged entry `.malformed`, a
/// file that cannot be opened `.unreadable`.
func zipError(_ error: any Error, file: String, reading what: String) -> LocatedError {
    guard let error = error as? Archive.ArchiveError else { return LocatedError(file, failed: error, doing: "cannot read \(what)") }
    switch error {
    case .missingEndOfCentralDirectoryRecord:
        return LocatedError(.usage, file: file, found: "no ZIP end of central directory record", message: "not a ZIP archive")
    case .unreadableArchive:
        return LocatedError(.unreadable, file: file, message: "cannot read \(what): damaged or inaccessible")
    case .invalidCRC32:
        return LocatedError(.malformed, file: file, message: "cannot extract from \(what): CRC-32 mismatch")
    case .invalidCompressionMethod:
        return LocatedError(.malformed, file: file, expected: "an entry stored or deflated (the methods ZIP readers share)",
                            found: "another compression method", message: "cannot extract from \(what)")
    default:
        return LocatedError(.malformed, file: file, message: "cannot extract from \(what): damaged archive (\(error))")
    }
}

/// `0x1A2B3C4D`: a CRC-32 as archive tools print it.
private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
