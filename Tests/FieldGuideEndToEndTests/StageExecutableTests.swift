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
        let inspect = try run("fieldguide", ["inspect", out + "/aircraft.fgb"])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("ACFT artifact, format 1.0"))
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
