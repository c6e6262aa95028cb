import Foundation
import Testing
import TestSupport

@Suite("ingest-exports: XML libxml2 refuses (an entity reference, bytes not in the declared encoding), refused where the user meets it", .serialized)
struct XMLRefusalTests {
    /// `ingest-exports` over `input/exports/gpx` and `fixture`: the run, its rejects report and
    /// its observations.
    func ingest(_ fixture: String) throws -> (run: (status: Int32, stdout: String, stderr: String), rejects: String, observations: String) {
        let out = try TestPaths.temporaryDirectory("exports-refusal").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let run = try TestPaths.run("ingest-exports", ["input/exports/gpx", fixture, "--output", out])
        return (run, try String(contentsOfFile: out + "/exports-rejects.csv", encoding: .utf8),
                try String(contentsOfFile: out + "/observations.csv", encoding: .utf8))
    }

    @Test("a declared entity in an attribute value: the file refused at its &, exit 1, the other files imported")
    func inAttribute() throws {
        let fixture = "Tests/Fixtures/exports/entity-in-attribute.gpx"
        let (run, rejects, observations) = try ingest(fixture)
        #expect(run.status == 1)
        #expect(run.stderr.contains("ingest-exports: error: \(fixture):4:11: entity references are not expanded; refusing &lat;"), "\(run.stderr)")
        #expect(run.stderr.contains("lake-walk.gpx: gpx: 5 records"))
        #expect(rejects.contains("entity-in-attribute.gpx") && rejects.contains("refusing &lat;"))
        #expect(!observations.contains("Entity fixture point"))
    }

    /// libxml2 stops its parser without marking the document malformed when the bytes do not
    /// convert from the declared encoding, and prints its words to standard error itself.
    @Test("bytes not in the declared encoding: the file refused at its line and column in libxml2's words, nothing of libxml2's on stderr")
    func notInDeclaredEncoding() throws {
        let fixture = "Tests/Fixtures/exports/not-in-declared-encoding.gpx"
        let (run, rejects, _) = try ingest(fixture)
        #expect(run.status == 1)
        #expect(run.stderr.contains("ingest-exports: error: \(fixture):3:"), "\(run.stderr)")
        #expect(run.stderr.contains("malformed XML"), "\(run.stderr)")
        #expect(!run.stderr.contains("encoder error") && !run.stderr.contains("I/O error"), "\(run.stderr)")
        #expect(run.stderr.contains("lake-walk.gpx: gpx: 5 records"))
        #expect(rejects.contains("not-in-declared-encoding.gpx,3,(file),malformed"), "\(rejects)")
    }

    /// An export cut short (a copy interrupted, a download stopped): libxml2 2.9 calls it "Extra
    /// content at the end of the document"; the user is told which element the file ends inside.
    @Test("a GPX cut short inside a waypoint: refused at the end of the file naming the open element, exit 1, the other files imported")
    func cutShort() throws {
        let whole = try String(contentsOfFile: "input/exports/gpx/lake-walk.gpx", encoding: .utf8)
        let cut = whole.prefix(upTo: whole.range(of: "</wpt>")!.lowerBound)
        let directory = try TestPaths.temporaryDirectory("exports-cut-short")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = directory.appendingPathComponent("cut-short.gpx").path
        try String(cut).write(toFile: fixture, atomically: true, encoding: .utf8)
        // Lines by their line feeds (the fixture's end in CR LF, one Character to a String).
        let lines = cut.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let wpt = lines.firstIndex { String(decoding: $0, as: UTF8.self).contains("<wpt") }! + 1

        let (run, rejects, observations) = try ingest(fixture)
        #expect(run.status == 1)
        #expect(run.stderr.contains("ingest-exports: error: \(fixture):\(lines.count):"), "\(run.stderr)")
        #expect(run.stderr.contains("expected </wpt> to close the <wpt> of line \(wpt), found the end of the file (cut short?)"), "\(run.stderr)")
        #expect(!run.stderr.contains("Extra content"), "\(run.stderr)")
        #expect(run.stderr.contains("lake-walk.gpx: gpx: 5 records"))
        #expect(rejects.contains("cut-short.gpx,\(lines.count),(file),malformed"), "\(rejects)")
        #expect(observations.split(separator: "\n").count > 1)
    }
}
