import FieldGuide
import Foundation
import Testing
import TestSupport

/// `make faa` writes the manufacturer index from any download, the registry only when the
/// download has MASTER; a bad table fails the target with the stage's own status.
@Suite("make faa: the manufacturer index with or without MASTER", .serialized)
struct MakeFAAIndexTests {
    @Test("no MASTER: aircraft-index.fgb alone; with MASTER: both artifacts; a stale registrations.csv is not reused")
    func indexAndRegistry() throws {
        let out = try TestPaths.temporaryDirectory("make-faa-index")
        defer { try? FileManager.default.removeItem(at: out) }
        let build = out.appendingPathComponent("build").path
        let both = try MakeExitStatusTests.make(["faa", "SOURCES=input/faa", "OUT=\(build)", "ICAO_TYPES=input/aircraft/icao-types.json",
                                                 "MODES=input/aircraft/modes-registrations.json"])
        #expect(both.status == 0, "\(both.output)")
        #expect(try AircraftIndex(path: build + "/aircraft-index.fgb").crosswalkCount == 10)
        #expect(try AircraftBundle(path: build + "/aircraft.fgb").registrationCount == 20)

        // The same output directory, a download without MASTER: the index is rebuilt without a
        // crosswalk, the registry is left as it was, and registrations.csv is gone from the hand-off.
        let sources = out.appendingPathComponent("faa")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        for name in ["ACFTREF.txt", "ENGINE.txt"] {
            try FileManager.default.copyItem(at: TestPaths.input.appendingPathComponent("faa/\(name)"), to: sources.appendingPathComponent(name))
        }
        let before = FileManager.default.contents(atPath: build + "/aircraft.fgb")
        let reference = try MakeExitStatusTests.make(["faa", "SOURCES=\(sources.path)", "OUT=\(build)", "MODES=input/aircraft/modes-registrations.json"])
        #expect(reference.status == 0, "\(reference.output)")
        #expect(reference.output.contains("make faa: no MASTER in \(sources.path): the manufacturer index only"))
        #expect(!FileManager.default.fileExists(atPath: build + "/stage/faa/registrations.csv"))
        let index = try AircraftIndex(path: build + "/aircraft-index.fgb")
        #expect(index.crosswalkCount == 0 && index.typeCount == 0 && index.modelCount == 20)
        #expect(FileManager.default.contents(atPath: build + "/aircraft.fgb") == before)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: build + "/manifest.json"))
        #expect(String(decoding: manifest, as: UTF8.self).contains("\"file\" : \"aircraft.fgb\""))
    }

    @Test("a table of the wrong shape fails make faa with 1 and keeps the index that was there")
    func badTable() throws {
        let out = try TestPaths.temporaryDirectory("make-faa-bad")
        defer { try? FileManager.default.removeItem(at: out) }
        let build = out.appendingPathComponent("build").path
        #expect(try MakeExitStatusTests.make(["faa", "SOURCES=input/faa", "OUT=\(build)"]).status == 0)
        let good = FileManager.default.contents(atPath: build + "/aircraft-index.fgb")
        let bad = try MakeExitStatusTests.make(["faa", "SOURCES=input/faa", "OUT=\(build)", "ICAO_TYPES=input/aircraft/modes-registrations.json"])
        #expect(bad.status == 1, "\(bad.output)")
        #expect(bad.output.contains("found a Mode S address table"))
        #expect(FileManager.default.contents(atPath: build + "/aircraft-index.fgb") == good)
        let missing = try MakeExitStatusTests.make(["faa", "SOURCES=input/faa", "OUT=\(build)", "MODES=/nonexistent/modes.json"])
        #expect(missing.status == 2, "\(missing.output)")
    }
}
