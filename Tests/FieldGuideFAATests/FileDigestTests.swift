import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

@Suite("SHA-256 of a file, streamed through one reused buffer")
struct FileDigestTests {
    @Test("a file of several chunks and a partial one hashes as its bytes do; an empty one as nothing")
    func chunks() throws {
        let directory = try TestPaths.temporaryDirectory("digest")
        for size in [0, 1, (1 << 20) - 1, 1 << 20, (2 << 20) + 12_345] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
            let path = directory.appendingPathComponent("f\(size)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let (digest, count) = try FileDigest.sha256(ofFileAt: path)
            #expect(digest == FileDigest.sha256(bytes) && count == size, "\(size) bytes")
        }
    }

    @Test("a missing file and a directory: typed errors with the system's reason")
    func errors() throws {
        let directory = try TestPaths.temporaryDirectory("digest-errors")
        let missing = #expect(throws: LocatedError.self) { try FileDigest.sha256(ofFileAt: directory.path + "/nope.txt") }
        #expect(missing?.kind == .missingFile)
        let folder = #expect(throws: LocatedError.self) { try FileDigest.sha256(ofFileAt: directory.path) }
        #expect(folder?.kind == .unreadable)
        #expect(folder?.description == "\(directory.path): cannot read for hashing: Is a directory", "\(String(describing: folder))")
    }
}
