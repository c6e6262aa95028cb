import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// Runs a built executable (from the test binary's build directory) and captures its exit status and output.
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try TestPaths.run(executable, arguments)
}

@Suite("Stage executables", .serialized)
struct StageExecutableTests {
    @Test("ingest-faa → emit-aircraft → fieldguide: exit 0, counts logged, queries answer")
    func pipeline() throws {
        let out = try TestPaths.temporaryDirectory("cli").path
        let ingest = try run("ingest-faa", ["input/faa", "--output", out + "/stage"])
        #expect(ingest.status == 0)
        #expect(ingest.stderr.contains("MASTER.txt: 20 rows read, 20 kept, 0 rejected, 0 warnings"))
        let emit = try run("emit-aircraft", [out + "/stage", "--output", out])
        #expect(emit.status == 0)
        #expect(emit.stderr.contains("read 20 models, 12 engines, 20 registrations"))
        let bundle = ["--bundle", out + "/aircraft.fgb"]
        let aircraft = try run("fieldguide", ["aircraft", "n4477"] + bundle)
        #expect(aircraft.status == 0)
        #expect(aircraft.stdout.contains("Airworthiness       Experimental (4)"))
        #expect(aircraft.stdout.contains("Kit                 CRANE KITS GYRO KIT 2"))
        let json = try run("fieldguide", ["enrich", "N4477", "--format", "json"] + bundle)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(decoded?["airworthinessClassification"] as? String == "Experimental")
        #expect(decoded?["zip"] as? String == "00901")
        let model = try run("fieldguide", ["model", "2100100"] + bundle)
        #expect(model.stdout.contains("BH-200"))
        let makers = try run("fieldguide", ["manufacturers", "cra"] + bundle)
        #expect(makers.stdout.hasPrefix("CRANE ROTORWORKS (2 models)"))
        let single = try run("fieldguide", ["manufacturers", "ibis"] + bundle)
        #expect(single.stdout.hasPrefix("IBIS \"BUD\" HOMEBUILT (1 model)\n"), "\(single.stdout)")
        let inspect = try run("fieldguide", ["inspect", out + "/aircraft.fgb"])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("ACFT artifact, format 1.3"))
        #expect(inspect.stdout.contains("source MASTER.txt"))
        let missing = try run("fieldguide", ["aircraft", "N77777"] + bundle)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no registration N77777"))
    }

    @Test("exit codes: --help 0, usage 2, missing sources 2, wrong header 1")
    func exitCodes() throws {
        #expect(try run("ingest-faa", ["--help"]).status == 0)
        #expect(try run("ingest-faa", ["--help"]).stdout.contains("--output"))
        #expect(try run("ingest-faa", []).status == 2)
        #expect(try run("ingest-faa", ["input/faa", "--output", "/tmp/x", "--max-reject-share", "3"]).status == 2)
        let out = try TestPaths.temporaryDirectory("cli-codes").path
        #expect(try run("ingest-faa", ["/nonexistent", "--output", out]).status == 2)
        let engine = try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/ENGINE.txt"))
        let wrong = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": engine])
        let result = try run("ingest-faa", [wrong, "--output", out])
        #expect(result.status == 1)
        #expect(result.stderr.contains("MASTER.txt:1: expected the MASTER.txt header, found the header of ENGINE.txt"))
        #expect(try run("emit-aircraft", [out, "--output", out]).status == 1)
        #expect(try run("fieldguide", ["aircraft", "N1", "--bundle", "/nonexistent.fgb"]).status == 2)
        #expect(try run("fieldguide", ["--help"]).status == 0)
    }

    @Test("both emit stages open their hand-off through one check: a changed file, a rejected or foreign report is exit 1")
    func handOffRefused() throws {
        let out = try TestPaths.temporaryDirectory("cli-handoff").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(try run("ingest-faa", ["input/faa", "--output", out + "/faa"]).status == 0)
        #expect(try run("ingest-birds", ["input/birds", "--output", out + "/birds"]).status == 0)
        #expect(try run("emit-aircraft", [out + "/faa", "--output", out + "/a"]).status == 0)
        #expect(try run("emit-birds", [out + "/birds", "--output", out + "/b"]).status == 0)

        // A hand-off file changed after its report was written.
        for (dir, file) in [("faa", "engines.csv"), ("birds", "shapes.csv")] {
            let path = out + "/" + dir + "/" + file
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try (bytes + Data("x\n".utf8)).write(to: URL(fileURLWithPath: path))
        }
        let aircraft = try run("emit-aircraft", [out + "/faa", "--output", out + "/a"])
        #expect(aircraft.status == 1)
        #expect(aircraft.stderr.contains(out + "/faa/engines.csv: expected SHA-256 "), "\(aircraft.stderr)")
        let birds = try run("emit-birds", [out + "/birds", "--output", out + "/b"])
        #expect(birds.status == 1)
        #expect(birds.stderr.contains(out + "/birds/shapes.csv: expected SHA-256 "), "\(birds.stderr)")

        // A report of another stage, and a report that says the ingest rejected its input.
        var report = try StageReport.read(from: out + "/faa/faa-ingest.json")
        try report.write(to: out + "/birds/birds-ingest.json")
        let foreign = try run("emit-birds", [out + "/birds", "--output", out + "/b"])
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("birds-ingest.json: expected the ingest report of ingest-birds, found one of ingest-faa"), "\(foreign.stderr)")
        report.status = .rejected
        report.failure = "MASTER.txt: too many rejects"
        try report.write(to: out + "/faa/faa-ingest.json")
        let rejected = try run("emit-aircraft", [out + "/faa", "--output", out + "/a"])
        #expect(rejected.status == 1)
        #expect(rejected.stderr.contains("faa-ingest.json: ingest rejected its input, nothing to emit: MASTER.txt: too many rejects"), "\(rejected.stderr)")

        // A hand-off directory that is not there (a mistaken path: exit 2), or a file; an empty directory (no report: exit 1).
        for (tool, producer) in [("emit-aircraft", "ingest-faa"), ("emit-aircraft-index", "ingest-faa"), ("emit-birds", "ingest-birds")] {
            let missing = try run(tool, [out + "/nowhere", "--output", out + "/x"])
            #expect(missing.status == 2, "\(tool): \(missing.stderr)")
            #expect(missing.stderr.contains(out + "/nowhere: not a hand-off directory (expected the hand-off directory of \(producer); found nothing there)"), "\(missing.stderr)")
        }
        let file = try run("emit-aircraft", [out + "/faa/engines.csv", "--output", out + "/x"])
        #expect(file.status == 2 && file.stderr.contains("engines.csv: not a hand-off directory (expected the hand-off directory of ingest-faa; found a file)"), "\(file.stderr)")
        try FileManager.default.createDirectory(atPath: out + "/empty", withIntermediateDirectories: true)
        let empty = try run("emit-aircraft", [out + "/empty", "--output", out + "/x"])
        #expect(empty.status == 1 && empty.stderr.contains("empty/faa-ingest.json: expected the ingest report of ingest-faa, found none (run ingest-faa first)"), "\(empty.stderr)")
        // A report past its bound (sparse: no disk spent) is refused from its size; a directory in its place is not a file
        // (both a broken hand-off: exit 1).
        #expect(FileManager.default.createFile(atPath: out + "/empty/faa-ingest.json", contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out + "/empty/faa-ingest.json"))
        try handle.truncate(atOffset: UInt64(StageReport.maximumBytes + 1))
        try handle.close()
        let huge = try run("emit-aircraft", [out + "/empty", "--output", out + "/x"])
        #expect(huge.status == 1 && huge.stderr.contains("faa-ingest.json: expected a stage report of at most 64 MiB, found 64.1 MiB; refused before reading it"), "\(huge.stderr)")
        try FileManager.default.removeItem(atPath: out + "/empty/faa-ingest.json")
        try FileManager.default.createDirectory(atPath: out + "/empty/faa-ingest.json", withIntermediateDirectories: true)
        let folder = try run("emit-aircraft", [out + "/empty", "--output", out + "/x"])
        #expect(folder.status == 1 && folder.stderr.contains("faa-ingest.json: not a file to read (expected a stage report; found a directory)"), "\(folder.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/x"))
    }

    @Test("only the files a stage reads are checked: a changed DEREG hand-off stops emit-aircraft, not emit-aircraft-index")
    func handOffChecksWhatIsRead() throws {
        let out = try TestPaths.temporaryDirectory("cli-handoff-read").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(try run("ingest-faa", ["input/faa", "--output", out + "/faa"]).status == 0)
        // One letter of the first record lower-cased: the same fields, other bytes.
        let path = out + "/faa/deregistered.csv"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let letter = try #require(bytes.indices.first { $0 > bytes.firstIndex(of: 0x0A)! && (0x41...0x5A).contains(bytes[$0]) })
        bytes[letter] |= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let aircraft = try run("emit-aircraft", [out + "/faa", "--output", out + "/a"])
        #expect(aircraft.status == 1)
        #expect(aircraft.stderr.contains(path + ": expected SHA-256 "), "\(aircraft.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/a/aircraft.fgb"))
        // The manufacturer index reads models and engines only; a changed engines.csv still stops it.
        let index = try run("emit-aircraft-index", [out + "/faa", "--output", out + "/i"])
        #expect(index.status == 0, "\(index.stderr)")
        let engines = out + "/faa/engines.csv"
        try (try Data(contentsOf: URL(fileURLWithPath: engines)) + Data("x\n".utf8)).write(to: URL(fileURLWithPath: engines))
        let refused = try run("emit-aircraft-index", [out + "/faa", "--output", out + "/i"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(engines + ": expected SHA-256 "), "\(refused.stderr)")
    }

    @Test("a hand-off report that is not JSON: the decoder's words never reach the user; exit 1")
    func unreadableReport() throws {
        let out = try TestPaths.temporaryDirectory("cli-report").path
        try Data("not json\n".utf8).write(to: URL(fileURLWithPath: out + "/faa-ingest.json"))
        let emit = try run("emit-aircraft", [out, "--output", out])
        #expect(emit.status == 1)
        #expect(emit.stderr == "emit-aircraft: error: \(out)/faa-ingest.json: the ingest report is not valid JSON\n")
        let missing = try run("fieldguide", ["inspect", "/nonexistent/aircraft.fgb"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "fieldguide: error: /nonexistent/aircraft.fgb: cannot read artifact: No such file or directory\n")
    }
}
