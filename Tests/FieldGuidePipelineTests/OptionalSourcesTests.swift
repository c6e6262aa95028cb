import Foundation
import Testing
import TestSupport

/// An optional source that is absent drops the stages that need it, and the rest publishes.
@Suite("Nightly with optional sources absent", .serialized)
struct OptionalSourcesTests {
    /// A SOURCES directory with faa/ and the seed JSON only, plus the optional parts asked for.
    static func sources(in directory: URL, with optional: [String]) throws -> String {
        let fm = FileManager.default
        let sources = directory.appendingPathComponent("sources")
        try fm.createDirectory(at: sources.appendingPathComponent("birds"), withIntermediateDirectories: true)
        try fm.copyItem(at: TestPaths.input.appendingPathComponent("faa"), to: sources.appendingPathComponent("faa"))
        for seed in ["bird_database.json", "watchlists.json", "sharedWatchlists.json", "home_data.json"] {
            try fm.copyItem(at: TestPaths.input.appendingPathComponent("birds/" + seed), to: sources.appendingPathComponent("birds/" + seed))
        }
        for part in optional {
            try fm.copyItem(at: TestPaths.input.appendingPathComponent(part), to: sources.appendingPathComponent(part))
        }
        return sources.path
    }

    static func run(_ sources: String, _ output: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestPaths.run("pipeline", ["run", "pipelines/nightly.yaml", "--set", "SOURCES=\(sources)", "--output", output.path, "--progress", "plain"])
    }

    @Test("no exports/: ingest-exports is dropped with the reason, emit-birds runs without observations, both artifacts publish")
    func noExports() throws {
        let directory = try TestPaths.temporaryDirectory("optional-exports")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sources = try Self.sources(in: directory, with: ["birds/taxonomy", "birds/ebird", "birds/names"])
        let output = directory.appendingPathComponent("out")
        let run = try Self.run(sources, output)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("[ingest-exports] dropped: source 'exports' is absent"))
        for file in ["aircraft.fgb", "birds.fgb", "reports/faa-rejects.csv"] {
            #expect(FileManager.default.fileExists(atPath: output.path + "/current/" + file), "\(file)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path + "/current/reports/exports-rejects.csv"))
        let again = try Self.run(sources, output)
        #expect(again.status == 0 && again.stderr.contains("pipeline: unchanged"), "\(again.stderr)")
    }

    @Test("links in SOURCES: a linked exports/ is read, and two links back to birds/ and exports/ end neither the plan nor the stages")
    func linksInSources() throws {
        let directory = try TestPaths.temporaryDirectory("optional-links")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sources = try Self.sources(in: directory, with: ["birds/taxonomy", "birds/ebird"])
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: sources + "/exports", withDestinationPath: fm.currentDirectoryPath + "/input/exports")
        for (from, to) in [("birds/a", "."), ("birds/b", "."), ("birds/ebird/up", ".."), ("exports-loop", "."), ("faa/back", "..")] {
            try fm.createSymbolicLink(atPath: sources + "/" + from, withDestinationPath: to)
        }
        let output = directory.appendingPathComponent("out")
        let start = ContinuousClock.now
        let run = try Self.run(sources, output)
        #expect(ContinuousClock.now - start < .seconds(120))  // it never ended before
        #expect(run.status == 0, "\(run.stderr)")
        let report = try String(contentsOfFile: output.path + "/.pipeline/nightly/stages/ingest-exports/exports-ingest.json", encoding: .utf8)
        #expect(report.contains("\"files\" : 9,"), "\(report)")
        #expect(run.stderr.contains(sources + "/exports/gpx/lake-walk.gpx: gpx: 5 records"), "\(run.stderr)")
        let again = try Self.run(sources, output)
        #expect(again.status == 0 && again.stderr.contains("pipeline: unchanged"), "\(again.stderr)")
    }

    @Test("every optional source absent (taxonomy, bar charts, seasons, labels, exports, ICAO types): still publishes")
    func everyOptionalAbsent() throws {
        let directory = try TestPaths.temporaryDirectory("optional-none")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let run = try Self.run(try Self.sources(in: directory, with: []), output)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("pipeline: published"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/current/birds.fgb"))
    }

    @Test("one unreadable export (header a,b): reported and counted, the reference data still publishes; all exports bad: the run fails")
    func badExportDoesNotHoldTheReferenceData() throws {
        let directory = try TestPaths.temporaryDirectory("bad-export")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sources = try Self.sources(in: directory, with: ["exports"])
        try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: sources + "/exports/ebird/broken.csv"))
        let output = directory.appendingPathComponent("out")
        let run = try Self.run(sources, output)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("broken.csv:1:1: expected an eBird"))
        let rejects = try String(contentsOfFile: output.path + "/current/reports/exports-rejects.csv", encoding: .utf8)
        #expect(rejects.contains("broken.csv"))
        #expect(FileManager.default.fileExists(atPath: output.path + "/current/aircraft.fgb"))

        // Past the share (every export unreadable), ingest-exports fails and nothing publishes.
        let bad = try Self.sources(in: directory.appendingPathComponent("all-bad"), with: [])
        try FileManager.default.createDirectory(atPath: bad + "/exports", withIntermediateDirectories: true)
        try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: bad + "/exports/broken.csv"))
        let failed = try Self.run(bad, directory.appendingPathComponent("out-bad"))
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(failed.stderr.contains("the only file could not be read (more than the 50% allowed)"))
    }
}
