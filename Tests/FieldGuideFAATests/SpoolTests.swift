import Foundation
import Testing
import FieldGuideCore
import TestSupport

/// `Spool`, the scratch file a stage streams an output into before it knows the run keeps it
/// (`observations.csv`, every rejects report): made without a name, linked into place at
/// `prepare` where the file system allows it, copied there where it does not.
@Suite("Spool")
struct SpoolTests {
    /// 3 MB of bytes that differ from offset to offset, appended in pieces of varying size.
    static func filled(_ spool: Spool, bytes count: Int = 3 << 20) throws -> [UInt8] {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
        var at = 0, piece = 1
        while at < count {
            let end = min(count, at + piece)
            try spool.append(Array(bytes[at..<end]))
            (at, piece) = (end, piece * 3 % 700_001 + 1)
        }
        return bytes
    }

    /// Commits what `spool` prepares at `destination`; checks the bytes, their SHA-256 and that
    /// nothing but the outputs is left in `destination`'s directory.
    static func committed(_ spool: Spool, to destination: String) throws -> [UInt8] {
        let (writer, sha256) = try spool.prepare(destination)
        try writer.commit()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: destination)))
        #expect(sha256 == FileDigest.sha256(bytes))
        let directory = (destination as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).allSatisfy { !$0.hasPrefix(".") }, "no scratch file left")
        return bytes
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test("an anonymous file, linked into place: the bytes and SHA-256 appended, the mode of any committed output, nothing left")
    func linked() throws {
        let directory = try TestPaths.temporaryDirectory("spool-linked").path
        let spool = try Spool(directory: directory, name: "observations.csv")
        #expect(spool.isAnonymous, "this machine's file system takes O_TMPFILE (ext4, tmpfs, xfs, btrfs)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "a spool has no name")
        let bytes = try Self.filled(spool)
        #expect(try Self.committed(spool, to: directory + "/observations.csv") == bytes)
        try AtomicFile.write([1, 2, 3], to: directory + "/other.csv")
        #expect(Self.mode(directory + "/observations.csv") == Self.mode(directory + "/other.csv"))
    }

    @Test("cut back to a mark, then appended to: the committed file ends at the mark plus what came after")
    func rolledBack() throws {
        let directory = try TestPaths.temporaryDirectory("spool-rollback").path
        let spool = try Spool(directory: directory, name: "observations.csv")
        let first = try Self.filled(spool, bytes: 1 << 20)
        let mark = spool.size
        _ = try Self.filled(spool, bytes: 2 << 20)
        try spool.rollBack(to: mark)
        try spool.append([0x41, 0x0A])
        #expect(try Self.committed(spool, to: directory + "/observations.csv") == first + [0x41, 0x0A])
    }

    @Test("a destination the link cannot reach (another file system, a directory not made yet): copied there, the same bytes")
    func copied() throws {
        let directory = try TestPaths.temporaryDirectory("spool-copied").path
        var destinations = [directory + "/not/made/yet/observations.csv"]
        // /dev/shm is tmpfs, the test directory is not: the link fails with EXDEV.
        if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            destinations.append("/dev/shm/fieldguide-spool-\(getpid())/observations.csv")
        } else {
            print("SpoolTests: /dev/shm not writable here; the copy across file systems is not tested")
        }
        defer { try? FileManager.default.removeItem(atPath: "/dev/shm/fieldguide-spool-\(getpid())") }
        for destination in destinations {
            let spool = try Spool(directory: directory, name: "observations.csv")
            let bytes = try Self.filled(spool)
            #expect(try Self.committed(spool, to: destination) == bytes)
        }
    }

    @Test("an empty spool: an empty file, the SHA-256 of nothing")
    func empty() throws {
        let directory = try TestPaths.temporaryDirectory("spool-empty").path
        let spool = try Spool(directory: directory, name: "observations.csv")
        #expect(try Self.committed(spool, to: directory + "/observations.csv").isEmpty)
    }
}
