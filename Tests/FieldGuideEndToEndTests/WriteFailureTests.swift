import Foundation
import Testing
import TestSupport

/// A write that fails part-way (here a file-size limit, `ulimit -f`, as a full disk would):
/// the stage exits 2 naming the file, the outputs of the run before stay byte for byte, and no
/// temporary or scratch file is left. Before, the limit's signal (SIGXFSZ) killed the stage
/// and left its temporary files.
@Suite("A write failing part-way through the stage executables")
struct WriteFailureTests {
    /// Runs `executable` with `arguments` under a file-size limit of `bytes` (util-linux's
    /// `prlimit`, which takes bytes; a shell's `ulimit -f` counts blocks of 512 or 1,024 bytes).
    static func runLimited(_ executable: String, _ arguments: [String], bytes: Int) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestPaths.run(program: URL(fileURLWithPath: "/usr/bin/prlimit"),
                          ["--fsize=\(bytes)", TestPaths.executable(executable).path] + arguments)
    }

    /// False, saying why, under ThreadSanitizer (`make sanitize`): its runtime dies of SIGBUS as
    /// any executable starts under a 64 KiB file-size limit, before the stage runs.
    static func limitsApply(_ test: String) -> Bool {
        !Sanitizer.skipped(test, under: ["ThreadSanitizer"], because: "its runtime cannot start under a file-size limit (SIGBUS)")
    }

    /// Every file in `directory` (hidden ones too) with its bytes.
    static func snapshot(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return files
    }

    /// Every file in `directory` with its inode: a file renamed into place has a new one, even
    /// when its bytes are the same as the file it replaced.
    static func inodes(_ directory: String) throws -> [String: Int] {
        var inodes: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0 else { continue }
            inodes[name] = Int(info.st_ino)
        }
        return inodes
    }

    /// input/faa with a MASTER of 2,000 registrations (the first row's, marks 1 to 2000, each
    /// with a warning), whose hand-off and rejects report pass 64 KiB.
    static func largeSources() throws -> String {
        let lines = try FAAFixtures.lines("MASTER.txt")
        var master = [lines[0]]
        for i in 1...2_000 {
            var fields = lines[1].components(separatedBy: ",")
            fields[0] = String(i).padding(toLength: 5, withPad: " ", startingAt: 0)
            fields[22] = "X"   // FRACT OWNER: a warning in the rejects report
            master.append(fields.joined(separator: ","))
        }
        return try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(master)])
    }

    @Test("ingest-faa past a 64 KiB file-size limit: exit 2 naming the file, the previous outputs intact, nothing left behind")
    func ingest() throws {
        guard Self.limitsApply("ingest") else { return }
        let out = try TestPaths.temporaryDirectory("write-failure").path + "/stage"
        let good = try TestPaths.run("ingest-faa", [FAAFixtures.inputDirectory, "--output", out])
        #expect(good.status == 0, "\(good.stderr)")
        let before = try Self.snapshot(out)
        let failed = try Self.runLimited("ingest-faa", [try Self.largeSources(), "--output", out], bytes: 64 << 10)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(failed.stderr.contains("ingest-faa: error: \(out)/") && failed.stderr.contains("File too large"), "\(failed.stderr)")
        let after = try Self.snapshot(out)
        // deregistered.csv and reserved.csv too: the large sources have no DEREG or RESERVED,
        // and their stale files are removed only when a run commits.
        #expect(after == before, "the previous outputs, and no temporary or scratch file: \(Set(after.keys).symmetricDifference(before.keys)), changed \(after.keys.filter { after[$0] != before[$0] })")
        // Without the limit the same sources go through.
        #expect(try TestPaths.run("ingest-faa", [try Self.largeSources(), "--output", out]).status == 0)
    }

    @Test("ingest-faa whose rejects report alone passes the limit (every row rejected): the hand-off files are not renamed either")
    func rejectsReportLast() throws {
        guard Self.limitsApply("rejectsReportLast") else { return }
        let out = try TestPaths.temporaryDirectory("write-failure-rejects").path + "/stage"
        #expect(try TestPaths.run("ingest-faa", [FAAFixtures.inputDirectory, "--output", out]).status == 0)
        let before = try Self.snapshot(out)
        let lines = try FAAFixtures.lines("MASTER.txt")
        let master = [lines[0]] + (0..<2_000).map { _ in "?????" + lines[1].dropFirst(5) }   // every mark malformed
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(master)])
        let failed = try Self.runLimited("ingest-faa", [sources, "--output", out, "--max-reject-share", "1"], bytes: 64 << 10)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(failed.stderr.contains("\(out)/faa-rejects.csv: write failed") && failed.stderr.contains("File too large"), "\(failed.stderr)")
        let after = try Self.snapshot(out)
        #expect(after == before, "\(Set(after.keys).symmetricDifference(before.keys)), changed \(after.keys.filter { after[$0] != before[$0] })")
    }

    @Test("emit-aircraft whose copy of the rejects report alone passes the limit: the artifact and manifest stay as they were")
    func emitRejectsCopy() throws {
        guard Self.limitsApply("emitRejectsCopy") else { return }
        let directory = try TestPaths.temporaryDirectory("write-failure-emit-rejects").path
        #expect(try TestPaths.run("ingest-faa", [FAAFixtures.inputDirectory, "--output", directory + "/stage"]).status == 0)
        #expect(try TestPaths.run("emit-aircraft", [directory + "/stage", "--output", directory + "/out"]).status == 0)
        let before = try Self.snapshot(directory + "/out")
        // A new hand-off (one owner renamed: another artifact) whose rejects report is larger
        // than the limit, and its artifact smaller.
        var master = try FAAFixtures.lines("MASTER.txt")
        master[1] = master[1].replacingOccurrences(of: "PETERSEN", with: "PEDERSEN")
        #expect(master[1].contains("PEDERSEN"))
        let renamed = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(master)])
        #expect(try TestPaths.run("ingest-faa", [renamed, "--output", directory + "/stage"]).status == 0)
        try Data(repeating: UInt8(ascii: "x"), count: 256 << 10).write(to: URL(fileURLWithPath: directory + "/stage/faa-rejects.csv"))
        let failed = try Self.runLimited("emit-aircraft", [directory + "/stage", "--output", directory + "/out"], bytes: 128 << 10)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(failed.stderr.contains("aircraft.rejects.csv") && failed.stderr.contains("File too large"), "\(failed.stderr)")
        #expect(try Self.snapshot(directory + "/out") == before)
    }

    /// The stages over input/, each run once to completion, then again under growing limits.
    static let stages: [(stage: String, arguments: @Sendable (String) -> [String])] = [
        ("ingest-faa", { [FAAFixtures.inputDirectory, "--output", $0] }),
        ("emit-aircraft", { [$0 + "-faa", "--output", $0] }),
        ("ingest-exports", { ["input/exports", "--output", $0] }),
        ("ingest-birds", { ["input/birds", "--output", $0] }),
        ("aggregate-ebd", { ["Tests/Fixtures/birds/ebd/ebd-small.txt", "--output", $0] }),
        ("emit-aircraft-index", { [$0 + "-faa", "--output", $0] }),
        ("emit-birds", { [$0 + "-birds", "--output", $0] }),
    ]

    @Test("every stage under file-size limits from 512 bytes up to one it passes: each failed run exit 2 with File too large, nothing renamed (every inode the same), nothing left behind",
          arguments: stages.indices)
    func otherStages(_ index: Int) throws {
        guard Self.limitsApply("otherStages") else { return }
        let (stage, arguments) = Self.stages[index]
        let out = try TestPaths.temporaryDirectory("write-failure-" + stage).path + "/out"
        // The hand-offs the two emit stages read.
        #expect(try TestPaths.run("ingest-faa", [FAAFixtures.inputDirectory, "--output", out + "-faa"]).status == 0)
        #expect(try TestPaths.run("ingest-birds", ["input/birds", "--output", out + "-birds"]).status == 0)
        let good = try TestPaths.run(stage, arguments(out))
        #expect(good.status == 0, "\(good.stderr)")
        let before = try Self.snapshot(out), inodes = try Self.inodes(out)
        // Limits between the outputs' sizes: a failure on the second file or the report, after
        // the first was written, is what a stage committing file by file got wrong.
        var failures = 0
        for limit in [512, 1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10] {
            let run = try Self.runLimited(stage, arguments(out), bytes: limit)
            if run.status == 0 { break }
            failures += 1
            #expect(run.status == 2, "\(limit) bytes: \(run.stderr)")
            #expect(run.stderr.contains("\(stage): error: \(out)/") && run.stderr.contains("File too large"), "\(limit) bytes: \(run.stderr)")
            let after = try Self.snapshot(out), afterInodes = try Self.inodes(out)
            #expect(after == before, "\(limit) bytes: \(Set(after.keys).symmetricDifference(before.keys)), changed \(after.keys.filter { after[$0] != before[$0] })")
            #expect(afterInodes == inodes, "\(limit) bytes: renamed \(afterInodes.keys.filter { afterInodes[$0] != inodes[$0] }.sorted())")
        }
        #expect(failures > 0)
    }

    @Test("emit-aircraft past a file-size limit below its artifact: exit 2, the published artifact and manifest intact, nothing left behind")
    func emit() throws {
        guard Self.limitsApply("emit") else { return }
        let directory = try TestPaths.temporaryDirectory("write-failure-emit").path
        #expect(try TestPaths.run("ingest-faa", [FAAFixtures.inputDirectory, "--output", directory + "/stage"]).status == 0)
        let emitted = try TestPaths.run("emit-aircraft", [directory + "/stage", "--output", directory + "/out"])
        #expect(emitted.status == 0, "\(emitted.stderr)")
        let before = try Self.snapshot(directory + "/out")
        #expect((before["aircraft.fgb"]?.count ?? 0) > 16 << 10)
        #expect(try TestPaths.run("ingest-faa", [try Self.largeSources(), "--output", directory + "/stage"]).status == 0)
        let failed = try Self.runLimited("emit-aircraft", [directory + "/stage", "--output", directory + "/out"], bytes: 16 << 10)
        #expect(failed.status == 2, "\(failed.stderr)")
        #expect(failed.stderr.contains("File too large"), "\(failed.stderr)")
        #expect(try Self.snapshot(directory + "/out") == before, "the published artifact, and no temporary file")
    }
}
