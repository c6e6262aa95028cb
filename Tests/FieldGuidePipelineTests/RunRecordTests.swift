@testable import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// Each run records itself under an id of its own, even when runs start in the same second,
/// and runs/latest.json points at the last one.
@Suite("Run records", .serialized)
struct RunRecordTests {
    @Test("two runs at once on one output: distinct ids, each summary its own, latest.json points at a summary")
    func concurrentRuns() throws {
        let directory = try TestPaths.temporaryDirectory("run-records")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.path
        func start() throws -> Process {
            let process = Process()
            process.executableURL = TestPaths.executable("pipeline")
            process.arguments = ["run", "pipelines/nightly.yaml", "--output", output, "--progress", "plain"]
            process.currentDirectoryURL = TestPaths.packageRoot
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let runs = try [start(), start(), start()]
        for run in runs { run.waitUntilExit() }
        let statuses = runs.map(\.terminationStatus).sorted()
        #expect(statuses.first == 0, "\(statuses)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output + "/runs").filter { $0.hasSuffix(".json") && $0 != "latest.json" }
        #expect(files.count == 3, "\(files)")
        let summaries = try files.map { try JSONDecoder().decode(RunSummary.self, from: Data(contentsOf: URL(fileURLWithPath: output + "/runs/" + $0))) }
        #expect(Set(summaries.map(\.run)).count == 3)
        for (file, summary) in zip(files, summaries) { #expect(file == summary.run + ".json") }
        // One run published; the refused ones recorded that another run held the lock.
        #expect(summaries.filter { $0.status == .published }.count == 1)
        #expect(summaries.filter { $0.failure == .locked }.count == statuses.filter { $0 != 0 }.count)
        let latest = try FileManager.default.destinationOfSymbolicLink(atPath: output + "/runs/latest.json")
        #expect(files.contains(latest))
    }

    @Test("a run id is claimed once: a second claim in the same second gets -2")
    func claims() throws {
        let directory = try TestPaths.temporaryDirectory("run-claims")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = RunRecorder.claimRunID(in: directory.path) { Array("{\"run\": \"\($0)\"}".utf8) }
        let second = RunRecorder.claimRunID(in: directory.path) { Array("{\"run\": \"\($0)\"}".utf8) }
        #expect(first != second)
        for id in [first, second] {
            #expect(FileManager.default.fileExists(atPath: directory.path + "/" + id + ".json"))
        }
    }
}
