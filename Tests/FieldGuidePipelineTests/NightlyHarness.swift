import FieldGuidePipeline
import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A sources directory and an output directory for runs of `pipelines/nightly.yaml` through
/// the `pipeline` executable, as `make` runs it.
struct NightlyHarness {
    let root: String
    var sources: String { root + "/sources" }
    var output: String { root + "/output" }
    /// Where the stage executables are (the test build's, or a directory of wrappers).
    var bin: String = (TestPaths.executable("pipeline").path as NSString).deletingLastPathComponent

    /// A copy of `input/` (faa, birds, exports) as the sources.
    static func copyOfInput() throws -> NightlyHarness {
        let harness = NightlyHarness(root: try TestPaths.temporaryDirectory("nightly").path)
        try FileManager.default.copyItem(atPath: TestPaths.input.path, toPath: harness.sources)
        return harness
    }

    struct Result {
        var status: Int32
        var log: String
        var summary: RunSummary?
    }

    func run(_ extra: [String] = [], environment: [String: String] = ["SOURCE_DATE_EPOCH": "1763769600"]) throws -> Result {
        let process = Process()
        process.executableURL = TestPaths.executable("pipeline")
        process.arguments = ["run", "pipelines/nightly.yaml", "--set", "SOURCES=\(sources)", "--output", output,
                             "--bin", bin, "--progress", "plain"] + extra
        process.currentDirectoryURL = TestPaths.packageRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = err
        try process.run()
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, log: log, summary: summary(in: log))
    }

    /// The run summary the log names (`pipeline: summary in runs/RUN.json`).
    func summary(in log: String) -> RunSummary? {
        guard let line = log.split(separator: "\n").last(where: { $0.hasPrefix("pipeline: summary in ") }) else { return nil }
        let path = output + "/" + line.dropFirst("pipeline: summary in ".count)
        return FileManager.default.contents(atPath: path).flatMap { try? JSONDecoder().decode(RunSummary.self, from: $0) }
    }

    /// Where `current` points, and the published files' bytes.
    func published() -> (current: String?, aircraft: Data?, birds: Data?) {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: output + "/current"),
         FileManager.default.contents(atPath: output + "/aircraft.fgb"),
         FileManager.default.contents(atPath: output + "/birds.fgb"))
    }

    func statuses(_ summary: RunSummary?) -> [String: RunSummary.Stage.Status] {
        Dictionary(uniqueKeysWithValues: (summary?.stages ?? []).map { ($0.name, $0.status) })
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    /// A directory of wrappers (`ROOT/bin`): the real stage tools, except `tool`, which is
    /// `script` (a shell script; `REAL` in it is the real tools' directory).
    func wrappers(replacing tool: String, with script: String) throws -> String {
        let directory = root + "/bin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for other in ["ingest-faa", "emit-aircraft", "emit-aircraft-index", "record-history", "ingest-birds", "emit-birds", "ingest-exports"] where other != tool {
            try FileManager.default.createSymbolicLink(atPath: directory + "/" + other, withDestinationPath: bin + "/" + other)
        }
        try script.replacingOccurrences(of: "REAL", with: bin).write(toFile: directory + "/" + tool, atomically: true, encoding: .utf8)
        chmod(directory + "/" + tool, 0o755)
        return directory
    }
}
