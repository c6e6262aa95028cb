@testable import FieldGuidePipeline
import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// What a stage record says of the outputs: the digest the stage's own report gives for a file
/// it lists at its size (the file not read again), every other file read and hashed.
@Suite("Stage records and the digests a stage reports")
struct StageRecordTests {
    /// A stage directory holding `out.csv` (4 bytes) and `other.csv`.
    private func stageDirectory() throws -> String {
        let directory = try TestPaths.temporaryDirectory("stage-record").path
        try Data("a,b\n".utf8).write(to: URL(fileURLWithPath: directory + "/out.csv"))
        try Data("c\n".utf8).write(to: URL(fileURLWithPath: directory + "/other.csv"))
        return directory
    }

    private func real(_ path: String) throws -> String { try FileDigest.sha256(ofFileAt: path).digest }

    @Test("a listed output at its reported size keeps the reported digest: the file is not read again")
    func reportedDigestTaken() throws {
        let directory = try stageDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Not the file's digest, so only a record that did not read the file can hold it.
        let reported = String(repeating: "ab", count: 32)
        let record = try StageRecord.make(stage: "s", fingerprint: "f", directory: directory,
                                          reported: [directory + "/out.csv": .init(sha256: reported, bytes: 4)])
        #expect(record.outputs["out.csv"] == reported)
        #expect(record.outputs["other.csv"] == (try real(directory + "/other.csv")))
        #expect(record.bytes == 6)
    }

    @Test("a reported size that is not the file's, or a digest that is not 64 lower-case hex digits: the file is hashed")
    func mismatchIsHashed() throws {
        let directory = try stageDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let truth = try real(directory + "/out.csv")
        for wrong: ContentDigest.ReportedFile in [.init(sha256: String(repeating: "ab", count: 32), bytes: 5),
                                                  .init(sha256: "not a digest", bytes: 4),
                                                  .init(sha256: String(repeating: "AB", count: 32), bytes: 4)] {
            let record = try StageRecord.make(stage: "s", fingerprint: "f", directory: directory, reported: [directory + "/out.csv": wrong])
            #expect(record.outputs["out.csv"] == truth, "\(wrong)")
        }
    }

    @Test("the outputs a stage report lists are what the record may take")
    func reportsListOutputs() throws {
        let directory = try stageDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let digest = try real(directory + "/out.csv")
        var report = StageReport(stage: "ingest-test", status: .ok)
        report.outputs.append(.init(file: "out.csv", bytes: 4, sha256: digest))
        try report.write(to: directory + "/test-ingest.json")
        let summary = try ReportSummary(.stage("test-ingest.json"), in: directory, tool: "ingest-test")
        #expect(summary.outputs == [directory + "/out.csv": .init(sha256: digest, bytes: 4)])
    }
}

/// Which of a stage's source files the sources its report lists stand for (`StageExecutor.match`).
@Suite("Reported sources matched to a stage's source files")
struct ReportedSourceMatchTests {
    private let stamp = ContentDigest.Stamp()
    private func file(_ byte: String) -> ContentDigest.ReportedFile { .init(sha256: String(repeating: byte, count: 64), bytes: 1) }

    @Test("by the path given, or by a file name or path tail that names exactly one file; the start stamp carried")
    func matches() {
        let stamps = ["faa": ["in/faa/MASTER.txt": stamp, "in/faa/ENGINE.txt": stamp],
                      "exports": ["in/exports/gpx/a.gpx": stamp, "in/exports/plist/a.gpx": stamp]]
        let matched = StageExecutor.match(["MASTER.txt": file("a"), "in/faa/ENGINE.txt": file("b"), "gpx/a.gpx": file("c"),
                                           "a.gpx": file("d"), "DEREG.txt": file("e"), "faa/MASTER.txt": file("a")],
                                          to: stamps, startedAt: 7)
        #expect(Set(matched.keys) == ["in/faa/MASTER.txt", "in/faa/ENGINE.txt", "in/exports/gpx/a.gpx"])
        #expect(matched["in/exports/gpx/a.gpx"]?.sha256 == file("c").sha256)
        #expect(matched["in/faa/MASTER.txt"]?.startedWith == stamp && matched["in/faa/MASTER.txt"]?.startedAt == 7)
        // One file under two names with two digests: neither is taken.
        #expect(StageExecutor.match(["MASTER.txt": file("a"), "faa/MASTER.txt": file("b")], to: stamps, startedAt: 7).isEmpty)
    }

    @Test("a source file whose stamp moved since the stage started is hashed, not taken from the report")
    func movedStampIsHashed() throws {
        let directory = try TestPaths.temporaryDirectory("reported-source").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/MASTER.txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        let real = try FileDigest.sha256(ofFileAt: path).digest
        let current = try #require(ContentDigest.Stamp(path: path))
        var moved = current
        moved.changed -= 1
        for (started, expected) in [(current, String(repeating: "a", count: 64)), (moved, real)] {
            let reported = [path: ContentDigest.ReportedFile(sha256: String(repeating: "a", count: 64), bytes: 1, startedWith: started, startedAt: 0)]
            #expect(try ContentDigest.source([directory], reported: reported).files.map(\.entry.sha256) == [expected])
        }
    }
}
