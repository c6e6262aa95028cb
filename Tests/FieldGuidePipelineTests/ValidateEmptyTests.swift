import Foundation
import Testing
import TestSupport

/// A CI job pointed at the wrong path must not pass: checking zero files is an error unless
/// asked for, and archives under history/ are read only when asked for.
@Suite("validate: zero files and history/")
struct ValidateEmptyTests {
    @Test("an empty directory or input/faa: exit 2 naming the path; --allow-empty passes")
    func zeroFiles() throws {
        let empty = try TestPaths.temporaryDirectory("validate-empty")
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try TestPaths.run("validate", [empty.path])
        #expect(none.status == 2 && none.stderr.contains("checked 0 files: no seed JSON or taxonomy CSV in \(empty.path)"), "\(none.stderr)")
        #expect(try TestPaths.run("validate", ["input/faa"]).status == 2)
        #expect(try TestPaths.run("validate", [empty.path, "--allow-empty"]).status == 0)
    }

    @Test("the real SkyTrails directory passes without descending into history/; --include-history checks it (exit 1)")
    func history() throws {
        guard let skytrails = TestPaths.shared("birds/skytrails") else { return }
        let current = try TestPaths.run("validate", [skytrails.path])
        #expect(current.status == 0, "\(current.stderr)")
        #expect(!current.stderr.contains("history/"))
        let all = try TestPaths.run("validate", [skytrails.path, "--include-history"])
        #expect(all.status == 1 && all.stderr.contains("history/"), "\(all.stderr)")
    }
}
