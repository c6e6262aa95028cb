import FieldGuide
import Foundation
import Testing
import TestSupport

/// The documented exit statuses (0 ok, 1 data rejected, 2 usage or I/O) reach the caller
/// through the make targets, not make's own 2 for every failed recipe.
///
/// make runs with `SWIFT=true` (no release build inside a test) and `BIN` pointing at the
/// executables this test run built.
@Suite("make targets pass the stage's exit status through")
struct MakeExitStatusTests {
    static func make(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let bin = TestPaths.executable("pipeline").deletingLastPathComponent().path
        process.arguments = ["make", "--no-print-directory", "SWIFT=true", "BIN=\(bin)"] + arguments
        process.currentDirectoryURL = TestPaths.packageRoot
        let output = try TestPaths.temporaryDirectory("make-output").appendingPathComponent("log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8))
    }

    @Test("make validate: 0 for good seeds, 1 for problems found (not make's own 2)")
    func validate() throws {
        let out = try TestPaths.temporaryDirectory("make-validate")
        defer { try? FileManager.default.removeItem(at: out) }
        let good = try Self.make(["validate", "PATHS=input/birds", "OUT=\(out.path)"])
        #expect(good.status == 0, "\(good.output)")
        let bad = try Self.make(["validate", "PATHS=Tests/Fixtures/birds/rules", "OUT=\(out.path)"])
        #expect(bad.status == 1, "\(bad.output)")
        #expect(bad.output.contains("validate: error:"))
        // A path with no seed file is a usage error, not a pass.
        let wrongPath = try Self.make(["validate", "PATHS=input/faa", "OUT=\(out.path)"])
        #expect(wrongPath.status == 2, "\(wrongPath.output)")
    }

    @Test("make ebd: 0 for an EBD, 1 for a file that is not one, 2 without EBD= or for a sampling file alone")
    func ebd() throws {
        let out = try TestPaths.temporaryDirectory("make-ebd")
        defer { try? FileManager.default.removeItem(at: out) }
        let ok = try Self.make(["ebd", "EBD=Tests/Fixtures/birds/ebd/ebd-small.txt", "OUT=\(out.path)", "LEVEL=county"])
        #expect(ok.status == 0 && FileManager.default.fileExists(atPath: out.path + "/barchart-US-NY-061.txt"), "\(ok.output)")
        let wrong = try Self.make(["ebd", "EBD=README.md", "OUT=\(out.path)/b"])
        #expect(wrong.status == 1 && wrong.output.contains("README.md:1: not an eBird EBD header"), "\(wrong.output)")
        let none = try Self.make(["ebd", "OUT=\(out.path)/c"])
        #expect(none.status == 2 && none.output.contains("make ebd: give EBD=FILE"), "\(none.output)")
        let sampling = try Self.make(["ebd", "EBD=Tests/Fixtures/birds/ebd/ebd-sampling-small.txt", "OUT=\(out.path)/d"])
        #expect(sampling.status == 2 && sampling.output.contains("is a sampling-event file; give the EBD too"), "\(sampling.output)")
    }

    @Test("make faa: 1 for a MASTER with the wrong header, 2 for a source that does not exist")
    func faa() throws {
        let out = try TestPaths.temporaryDirectory("make-faa")
        defer { try? FileManager.default.removeItem(at: out) }
        let sources = out.appendingPathComponent("faa")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        for name in ["ACFTREF.txt", "ENGINE.txt"] {
            try FileManager.default.copyItem(at: TestPaths.input.appendingPathComponent("faa/\(name)"), to: sources.appendingPathComponent(name))
        }
        try Data.faaFile(["a,b,", "1,2,"]).write(to: sources.appendingPathComponent("MASTER.txt"))
        let rejected = try Self.make(["faa", "SOURCES=\(sources.path)", "OUT=\(out.path)/build"])
        #expect(rejected.status == 1, "\(rejected.output)")
        let missing = try Self.make(["faa", "SOURCES=\(out.path)/nonexistent", "OUT=\(out.path)/build"])
        #expect(missing.status == 2, "\(missing.output)")
        // make birds over a directory that is not there: named, exit 2, no raw find: error.
        let birds = try Self.make(["birds", "SOURCES=\(out.path)/nonexistent", "OUT=\(out.path)/build"])
        #expect(birds.status == 2 && birds.output.contains("nonexistent: no such directory"), "\(birds.output)")
        #expect(!birds.output.contains("find:"))
    }

    @Test("make faa REDACT=individuals: a redacted artifact; an unknown REDACT is a usage error, exit 2")
    func faaRedacted() throws {
        let out = try TestPaths.temporaryDirectory("make-faa-redact")
        defer { try? FileManager.default.removeItem(at: out) }
        let redacted = try Self.make(["faa", "SOURCES=input/faa", "OUT=\(out.path)", "REDACT=individuals"])
        #expect(redacted.status == 0 && redacted.output.contains("withheld the owner name and street of 8 registrations"), "\(redacted.output)")
        #expect(try AircraftBundle(path: out.path + "/aircraft.fgb").ownerRedaction == .individuals)
        let complete = try Self.make(["faa", "SOURCES=input/faa", "OUT=\(out.path)"])
        #expect(complete.status == 0 && !complete.output.contains("withheld"), "\(complete.output)")
        #expect(try AircraftBundle(path: out.path + "/aircraft.fgb").ownerRedaction == .none)
        let wrong = try Self.make(["faa", "SOURCES=input/faa", "OUT=\(out.path)", "REDACT=all"])
        #expect(wrong.status == 2 && wrong.output.contains("--redact: expected one of none, individuals, found all"), "\(wrong.output)")
    }
}
