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
                                          reported: ["out.csv": .init(sha256: reported, bytes: 4)])
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
            let record = try StageRecord.make(stage: "s", fingerprint: "f", directory: directory, reported: ["out.csv": wrong])
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
        #expect(summary.outputs == ["out.csv": .init(sha256: digest, bytes: 4)])
    }
}
