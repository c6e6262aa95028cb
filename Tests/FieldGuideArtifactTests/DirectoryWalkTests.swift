import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

@Suite("DirectoryWalk: the files below a directory, links followed, each once")
struct DirectoryWalkTests {
    /// A tree: `a/1.csv`, `a/b/2.json`, `z.txt`, a hidden file and a hidden directory.
    private static func tree(_ name: String) throws -> URL {
        let root = try TestPaths.temporaryDirectory(name)
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent(".cache"), withIntermediateDirectories: true)
        for file in ["a/1.csv", "a/b/2.json", "z.txt", ".hidden.csv", ".cache/3.csv"] {
            try Data(file.utf8).write(to: root.appendingPathComponent(file))
        }
        return root
    }

    private static func link(_ path: URL, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path.path, withDestinationPath: destination)
    }

    @Test("depth first, names sorted, hidden ones skipped; a root that is a link is entered")
    func order() throws {
        let root = try Self.tree("walk-order")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try DirectoryWalk.files(under: root.path) == ["a/1.csv", "a/b/2.json", "z.txt"])
        let linked = root.deletingLastPathComponent().appendingPathComponent(root.lastPathComponent + "-link")
        try Self.link(linked, to: root.path)
        defer { try? FileManager.default.removeItem(at: linked) }
        #expect(try DirectoryWalk.files(under: linked.path) == ["a/1.csv", "a/b/2.json", "z.txt"])
        #expect(try DirectoryWalk.files(under: linked.path + "/") == ["a/1.csv", "a/b/2.json", "z.txt"])
    }

    @Test("links inside are read as what they point to; loops, second links and dangling links add nothing")
    func links() throws {
        let root = try Self.tree("walk-links")
        defer { try? FileManager.default.removeItem(at: root) }
        let outside = try TestPaths.temporaryDirectory("walk-outside")
        defer { try? FileManager.default.removeItem(at: outside) }
        try Data("o".utf8).write(to: outside.appendingPathComponent("o.gpx"))
        try Self.link(root.appendingPathComponent("m-outside"), to: outside.path)   // a directory elsewhere
        try Self.link(root.appendingPathComponent("a/b/up"), to: "../..")           // back to the root
        try Self.link(root.appendingPathComponent("a/again"), to: ".")              // two links to its own directory
        try Self.link(root.appendingPathComponent("a/more"), to: ".")
        try Self.link(root.appendingPathComponent("n-same"), to: "a/b")             // a second path to a/b
        try Self.link(root.appendingPathComponent("zz.csv"), to: "z.txt")           // a second name for a file
        try Self.link(root.appendingPathComponent("x.csv"), to: "nowhere.csv")      // dangling
        #expect(try DirectoryWalk.files(under: root.path) == ["a/1.csv", "a/b/2.json", "m-outside/o.gpx", "z.txt"])
    }

    @Test("bounds and refusals: a tree too deep is tooLarge at its directory, a file or a missing path is refused")
    func bounds() throws {
        let root = try TestPaths.temporaryDirectory("walk-deep")
        defer { try? FileManager.default.removeItem(at: root) }
        let deep = (1...DirectoryWalk.maxDepth).map { "d\($0)" }.joined(separator: "/")
        try FileManager.default.createDirectory(at: root.appendingPathComponent(deep), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent(deep + "/x.csv"))
        #expect(try DirectoryWalk.files(under: root.path) == [deep + "/x.csv"])
        try FileManager.default.createDirectory(at: root.appendingPathComponent(deep + "/one-more"), withIntermediateDirectories: true)
        let error = #expect(throws: LocatedError.self) { try DirectoryWalk.files(under: root.path) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.file == root.path + "/" + deep + "/one-more")
        #expect(error?.description.contains("expected at most 32 directories below \(root.path)") == true, "\(String(describing: error))")

        let file = #expect(throws: LocatedError.self) { try DirectoryWalk.files(under: root.path + "/" + deep + "/x.csv") }
        #expect(file?.kind == .usage)
        let missing = #expect(throws: LocatedError.self) { try DirectoryWalk.files(under: root.path + "/nothing") }
        #expect(missing?.kind == .missingFile)
    }

    @Test("a file name that is not UTF-8 is an error naming it, not a file left out without a word; a hidden one is skipped")
    func notUTF8Name() throws {
        let root = try Self.tree("walk-latin1")
        defer { try? FileManager.default.removeItem(at: root) }
        let hidden = try TestPaths.createFile(named: Array(".caf".utf8) + [0xE9], in: root)
        defer { hidden() }
        #expect(try DirectoryWalk.files(under: root.path) == ["a/1.csv", "a/b/2.json", "z.txt"])
        let latin1 = try TestPaths.createFile(named: Array("caf".utf8) + [0xE9] + Array(" \\.gpx".utf8), in: root.appendingPathComponent("a"))
        defer { latin1() }
        let error = #expect(throws: LocatedError.self) { try DirectoryWalk.files(under: root.path) }
        #expect(error?.kind == .unreadable)
        #expect(error?.file == root.path + "/a/caf\\xE9 \\x5C.gpx", "\(String(describing: error?.file))")
        #expect(error?.description.contains("a file name FieldGuide cannot read (rename the file)") == true, "\(String(describing: error))")
    }
}
