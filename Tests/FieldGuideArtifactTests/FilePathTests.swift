import FieldGuideCore
import Foundation
import Testing

@Suite("FilePath: a path's directory without Foundation's path methods")
struct FilePathTests {
    @Test("one relative component has no directory; the root's components have /")
    func shortPaths() {
        // NSString.deletingLastPathComponent traps on the first three on Linux.
        for path in ["a", ".", "a/", "", "ab", "ab//"] { #expect(FilePath.directory(of: path) == "", "\(path)") }
        for path in ["/", "/a", "/ab/", "//", "//a"] { #expect(FilePath.directory(of: path) == "/", "\(path)") }
    }

    @Test("longer paths: the same as NSString gives where it does not trap")
    func asFoundation() {
        let paths = ["e/x.json", "ab/cd", "ab//cd", "ab/cd/", "/ab/cd", "./ab", "../ab", "..", "ab/./cd", "/a/b/c.txt",
                     "héllo/wörld", "a b/c d", "/ab//cd", ".hidden/f", "x/y/z"]
        for path in paths {
            #expect(FilePath.directory(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
        #expect(FilePath.directory(of: "seeds/bird_database.json") == "seeds")
        #expect(FilePath.directory(of: "a//b/") == "a")
    }
}
