import Foundation
import Testing
import TestSupport

@Suite("ingest-exports executable", .serialized)
struct IngestExportsExecutableTests {
    @Test("exit 0 over input/exports; 1 when a file fails (located, others imported); 2 on usage or I/O")
    func exitCodes() throws {
        let out = try TestPaths.temporaryDirectory("exports-cli").path
        let ok = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", "Tests/Fixtures/aircraft/icao-types.json"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stderr.contains("input/exports/gpx/lake-walk.gpx: gpx: 5 records → 5 other, 0 rejected, 0 warnings"))
        #expect(ok.stderr.contains("no names index loaded") == false)   // a count line, not a reason dump
        #expect(FileManager.default.fileExists(atPath: out + "/observations.csv"))

        let failed = try TestPaths.run("ingest-exports", ["input/exports/gpx", "Tests/Fixtures/exports/mismatched-tag.gpx", "--output", out])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("Tests/Fixtures/exports/mismatched-tag.gpx:5:9: Opening and ending tag mismatch"))
        #expect(failed.stderr.contains("lake-walk.gpx: gpx: 5 records"))

        #expect(try TestPaths.run("ingest-exports", ["--help"]).status == 0)
        #expect(try TestPaths.run("ingest-exports", ["--output", out]).status == 2)
        #expect(try TestPaths.run("ingest-exports", ["/nonexistent", "--output", out]).status == 2)
        #expect(try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--aircraft", "/nonexistent.fgb"]).status == 2)
    }

    @Test("--icao-types refuses a table of another shape, naming what it found (the real Mode S table, a short entry)")
    func icaoTypesOfTheWrongKind() throws {
        let out = try TestPaths.temporaryDirectory("exports-icao").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        if let modes = TestPaths.shared("aircraft/modes-registrations.json") {
            let run = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", modes.path])
            #expect(run.status == 2)
            #expect(run.stderr.contains("expected ICAO type designators, found a Mode S address table (004002 → [\"Z-WPA\", \"B732\", \"00\"])"))
            #expect(!run.stderr.contains("designators\n"))   // never "446,783 designators"
        }
        let short = out + "/short.json"
        try Data(#"{"B738": ["BOEING 737-800", "L2J"]}"#.utf8).write(to: URL(fileURLWithPath: short))
        let run = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", short])
        #expect(run.status == 2)
        #expect(run.stderr.contains("found B738 → [\"BOEING 737-800\", \"L2J\"]: 2 values, not 3"))
        let empty = out + "/empty.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: empty))
        #expect(try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", empty]).stderr.contains("found an empty table"))
        if let real = TestPaths.shared("aircraft/icao-types.json") {
            let ok = try TestPaths.run("ingest-exports", ["input/exports", "--output", out, "--icao-types", real.path])
            #expect(ok.status == 0 && ok.stderr.contains("2,788 designators"), "\(ok.stderr)")
        }
    }
}
