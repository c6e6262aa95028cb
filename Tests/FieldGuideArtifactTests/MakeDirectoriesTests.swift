import FieldGuideCore
import Foundation
import Testing
import TestSupport

@Suite("AtomicFile.makeDirectories: mkdir -p with the operating system's reason")
struct MakeDirectoriesTests {
    @Test("missing directories are made; one already there is fine; a file in the way is named")
    func reasons() throws {
        let root = try TestPaths.temporaryDirectory("mkdir").path
        #expect(AtomicFile.makeDirectories(root + "/a/b//c/") == nil)
        #expect(FileManager.default.fileExists(atPath: root + "/a/b/c"))
        #expect(AtomicFile.makeDirectories(root + "/a/b") == nil)
        _ = FileManager.default.createFile(atPath: root + "/f", contents: Data("x".utf8))
        #expect(AtomicFile.makeDirectories(root + "/f") == "File exists (not a directory)")
        // FileManager said only that it failed.
        #expect(AtomicFile.makeDirectories(root + "/f/out") == "Not a directory (\(root)/f is a file)")
        #expect(AtomicFile.makeDirectories(root + "/f/out/deeper") == "Not a directory (\(root)/f is a file)")
    }
}
