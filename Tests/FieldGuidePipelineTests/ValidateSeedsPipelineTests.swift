import FieldGuidePipeline
import Foundation
import Testing
import TestSupport

/// `pipelines/validate-seeds.yaml`, as `make validate` runs it.
@Suite("validate-seeds pipeline")
struct ValidateSeedsPipelineTests {
    func run(_ settings: [String]) throws -> (status: Int32, log: String, output: String) {
        let output = try TestPaths.temporaryDirectory("validate-seeds").path
        let result = try TestPaths.run("pipeline", ["run", "pipelines/validate-seeds.yaml", "--output", output, "--progress", "plain"]
            + settings.flatMap { ["--set", $0] })
        return (result.status, result.stderr + result.stdout, output)
    }

    @Test("input/ passes; nothing is published")
    func inputPasses() throws {
        let r = try run([])
        defer { try? FileManager.default.removeItem(atPath: r.output) }
        #expect(r.status == 0, "\(r.log)")
        #expect(r.log.contains("[validate] validate: 0 errors, 0 warnings"))
        #expect(r.log.contains("pipeline: passed in"))
        #expect(!FileManager.default.fileExists(atPath: r.output + "/current"))
    }

    @Test("the real older databases fail with GitHub annotations at the line start (exit 1)")
    func realHistoryFails() throws {
        guard let history = TestPaths.shared("birds/skytrails/history") else { return }
        let r = try run(["PATHS=\(history.path)", "FORMAT=github"])
        defer { try? FileManager.default.removeItem(atPath: r.output) }
        #expect(r.status == 1)
        // total_species 50 against 46 birds in the 2.1 database, at 4:26.
        #expect(r.log.split(separator: "\n").contains { $0.hasPrefix("::error file=") && $0.contains("bird_database.ac71935.json,line=4,col=26") })
        #expect(r.log.contains("stage validate failed (exit 1)"))
    }

    @Test("a PATHS entry that does not exist stops the run before validating")
    func missingPath() throws {
        let r = try run(["PATHS=input /nonexistent/seeds.json"])
        defer { try? FileManager.default.removeItem(atPath: r.output) }
        #expect(r.status == 1)
        #expect(r.log.contains("source 'seeds' is required but /nonexistent/seeds.json does not exist"))
    }
}
