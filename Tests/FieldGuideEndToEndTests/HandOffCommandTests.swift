import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// `fieldguide handoff`: a stage's hand-off checked against its report as the next stage checks
/// it, and its CSV files' records printed under their header's names; through the executable.
@Suite("fieldguide handoff", .serialized)
struct HandOffCommandTests {
    /// `ingest-faa` over `sources` into a fresh directory: the hand-off.
    static func ingest(_ sources: String, _ extra: [String] = []) throws -> String {
        let out = try TestPaths.temporaryDirectory("handoff").path + "/faa"
        let result = try run("ingest-faa", [sources, "--output", out] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return out
    }

    @Test("input/faa's hand-off: every file as recorded, the sources' rows, exit 0; JSON says the same")
    func checked() throws {
        let out = try Self.ingest("input/faa")
        let text = try run("fieldguide", ["handoff", out])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(out): the hand-off of ingest-faa (faa-ingest.json: ok)")
        #expect(lines.contains { $0.hasPrefix("  MASTER.txt") && $0.hasSuffix("20 rows read, 20 kept, 0 rejected, 0 warnings") }, "\(lines)")
        for file in ["deregistered.csv", "engines.csv", "models.csv", "registrations.csv", "reserved.csv"] {
            #expect(lines.contains { $0.hasPrefix("  \(file)") && $0.hasSuffix("as recorded") }, "\(file): \(lines)")
        }
        #expect(lines.last == "every file as the report records it")

        let json = try run("fieldguide", ["handoff", out, "--format", "json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let files = decoded?["files"] as? [[String: Any]] ?? []
        #expect(decoded?["stage"] as? String == "ingest-faa" && decoded?["status"] as? String == "ok")
        #expect(files.count == 5)
        let report = try StageReport.read(from: out + "/faa-ingest.json")
        for file in files {
            let recorded = file["recorded"] as? [String: Any], found = file["found"] as? [String: Any]
            #expect(recorded?["sha256"] as? String == found?["sha256"] as? String)
            #expect(report.output(named: file["file"] as? String ?? "")?.sha256 == recorded?["sha256"] as? String)
        }
    }

    @Test("records printed a field a line under the header's names, from --record, --count of them")
    func records() throws {
        let out = try Self.ingest("input/faa")
        let lines = try String(contentsOfFile: out + "/registrations.csv", encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
        let second = lines[2].split(separator: ",", omittingEmptySubsequences: false)
        let one = try run("fieldguide", ["handoff", out, "registrations.csv", "--record", "2"])
        #expect(one.status == 0, "\(one.stderr)")
        let printed = one.stdout.split(separator: "\n").map(String.init)
        #expect(printed.first == "registrations.csv:3")
        #expect(printed.count == header.count + 1)
        #expect(printed[1].split(separator: " ").map(String.init) == [String(header[0]), String(second[0])])
        let several = try run("fieldguide", ["handoff", out, "deregistered.csv", "--record", "5", "--count", "9"])
        // input/faa's DEREG.txt has 6 rows: records 5 and 6, then the file ends.
        #expect(several.status == 0)
        #expect(several.stdout.split(separator: "\n").filter { $0.hasPrefix("deregistered.csv:") } == ["deregistered.csv:6", "deregistered.csv:7"])
    }

    @Test("a changed file and a missing one: listed as differing, exit 1 naming the first")
    func tampered() throws {
        let out = try Self.ingest("input/faa")
        let path = out + "/registrations.csv"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "N4477", with: "N4478").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: out + "/engines.csv")
        let result = try run("fieldguide", ["handoff", out])
        #expect(result.status == 1)
        #expect(result.stdout.contains("engines.csv") && result.stdout.contains("DIFFERS: found missing"), "\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("  registrations.csv") && $0.contains("DIFFERS: found") })
        #expect(result.stdout.hasSuffix("2 of 5 files not as the report records them\n"))
        #expect(result.stderr.contains("\(out)/engines.csv: expected") && result.stderr.contains("found no readable file"), "\(result.stderr)")
    }

    @Test("a rejected ingest's report: shown with its reason, exit 1")
    func rejected() throws {
        var master = try FAAFixtures.lines("MASTER.txt")
        master[0] = master[0].replacingOccurrences(of: "SERIAL NUMBER", with: "SERIAL NO")
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(master)])
        let out = try TestPaths.temporaryDirectory("handoff").path + "/faa"
        #expect(try run("ingest-faa", [sources, "--output", out]).status == 1)
        let result = try run("fieldguide", ["handoff", out])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("\(out): the hand-off of ingest-faa (faa-ingest.json: rejected, MASTER.txt:1:"), "\(result.stdout)")
        #expect(result.stderr.contains("faa-ingest.json: ingest-faa ended rejected: MASTER.txt:1:"), "\(result.stderr)")
    }

    /// Readers join a report's output names to its directory and hash the file: a name with a
    /// directory in it would have them read anything (`../../dev/zero` for ever).
    @Test("a report naming an output outside its directory: the report refused (exit 1) by fieldguide handoff and emit-aircraft, nothing outside read")
    func outputOutsideDirectory() throws {
        let out = try Self.ingest("input/faa")
        let reportPath = out + "/faa-ingest.json"
        let original = try String(contentsOfFile: reportPath, encoding: .utf8)
        let outside = (out as NSString).deletingLastPathComponent + "/outside.csv"
        try "N-NUMBER\n".write(toFile: outside, atomically: true, encoding: .utf8)
        for name in ["../outside.csv", (out as NSString).deletingLastPathComponent + "/outside.csv", "..", ""] {
            // engines.csv is the second output, after deregistered.csv.
            try original.replacingOccurrences(of: "\"engines.csv\"", with: "\"\(name)\"").write(toFile: reportPath, atomically: true, encoding: .utf8)
            let expected = "faa-ingest.json: expected a stage report, found JSON that does not decode as one: \"outputs[1].file\": expected the name of a file beside the report, found \"\(name)\""
            let handoff = try run("fieldguide", ["handoff", out])
            #expect(handoff.status == 1, "\(name): \(handoff.stderr)")
            #expect(handoff.stderr.contains(expected), "\(name): \(handoff.stderr)")
            #expect(handoff.stdout.isEmpty)
            let emit = try run("emit-aircraft", [out, "--output", out + "-emitted"])
            #expect(emit.status == 1, "\(name): \(emit.stderr)")
            #expect(emit.stderr.contains(expected), "\(name): \(emit.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out + "-emitted/aircraft.fgb"))
        }
    }

    @Test("usage and I/O: no directory, no report, a file not of the hand-off or not a CSV, records past the end (exit 2)")
    func usage() throws {
        let out = try Self.ingest("input/faa")
        let empty = try TestPaths.temporaryDirectory("handoff-empty").path
        var cases: [([String], String)] = [
            (["handoff", empty + "/none"], "cannot read the hand-off directory"),
            (["handoff", empty], "not a stage's hand-off directory (expected one stage report (a .json file a stage wrote); found none)"),
            (["handoff", out, "faa-rejects.csv"], "faa-rejects.csv is not among the files of this hand-off"),
            (["handoff", out, "reserved.csv", "--record", "6"], "reserved.csv: fewer than 6 records after the header (expected record 6 or an earlier one; found the file's end)"),
            (["handoff", out, "reserved.csv", "--count", "0"], "no record to print"),
        ]
        // The exports stage hands on a JSON file beside its CSV: not one to print records of.
        let exports = try TestPaths.temporaryDirectory("handoff-exports").path
        let ingested = try run("ingest-exports", ["input/exports", "--output", exports])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        cases.append((["handoff", exports, "exports-resolution.json"], "only a hand-off's CSV files have records to print"))
        for (arguments, message) in cases {
            let result = try run("fieldguide", arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        }
    }

    @Test("the real FAA samples (../shared): the hand-off checks, a model's record prints")
    func realData() throws {
        guard let faa = try FAAFixtures.sharedDirectory() else {
            print("skipped: ../shared/data/faa is absent")
            return
        }
        let out = try Self.ingest(faa)
        let result = try run("fieldguide", ["handoff", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("every file as the report records it\n"))
        let report = try StageReport.read(from: out + "/faa-ingest.json")
        let master = try #require(report.sources.first { $0.file == "MASTER.txt" })
        #expect(result.stdout.contains("\(formatCount(master.rows.read)) rows read, \(formatCount(master.rows.kept)) kept"))
        let model = try run("fieldguide", ["handoff", out, "models.csv"])
        #expect(model.status == 0)
        let printed = model.stdout.split(separator: "\n").map(String.init)
        #expect(printed.first == "models.csv:2" && printed.dropFirst().allSatisfy { $0.hasPrefix("  ") }, "\(printed)")
        #expect(printed.contains { $0.split(separator: " ").first == "code" }, "\(printed)")
    }
}
