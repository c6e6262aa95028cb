import FieldGuideBirds
import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// Runs a built executable with extra environment variables (`TestPaths.run` inherits ours).
func runWithEnvironment(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = TestPaths.executable(executable)
    process.arguments = arguments
    process.currentDirectoryURL = TestPaths.packageRoot
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

@Suite("aggregate-ebd executable: exit statuses and messages")
struct EBDExecutableTests {
    @Test("a run: exit 0, what it read and wrote on standard error")
    func ok() throws {
        let out = try TestPaths.temporaryDirectory("ebd-cli").path
        let result = try TestPaths.run("aggregate-ebd", [EBDFixtures.ebd, "--output", out, "--sampling", EBDFixtures.sampling])
        #expect(result.status == 0)
        #expect(result.stderr.contains("aggregate-ebd: \(EBDFixtures.ebd): 13 rows read, 12 counted, 0 rejected, 0 without a region"))
        #expect(result.stderr.contains("aggregate-ebd: 7 checklists, 9 detections of 6 taxa in 3 regions; 3 rows of incomplete checklists skipped"))
        #expect(result.stderr.contains("wrote 3 bar charts, ebd-rejects.csv, ebd-aggregate.json to \(out)"))
        let report = try StageReport.read(from: out + "/ebd-aggregate.json")
        #expect(report.status == .ok && report.stage == "aggregate-ebd" && report.sources.count == 2)
    }

    @Test("usage and I/O exit 2; data rejected exits 1 with file:line")
    func statuses() throws {
        let out = try TestPaths.temporaryDirectory("ebd-cli-bad")
        #expect(try TestPaths.run("aggregate-ebd", [EBDFixtures.ebd]).status == 2)
        #expect(try TestPaths.run("aggregate-ebd", [EBDFixtures.ebd, "--output", out.path, "--level", "city"]).status == 2)
        let missing = try TestPaths.run("aggregate-ebd", ["/nonexistent/ebd.txt", "--output", out.path])
        #expect(missing.status == 2 && missing.stderr.contains("aggregate-ebd: error: /nonexistent/ebd.txt: No such file or directory"))

        let lines = try EBDFixtures.lines()
        let header = try EBDFixtures.write([lines[0].replacingOccurrences(of: "GROUP IDENTIFIER", with: "GROUP ID")] + lines.dropFirst(),
                                           named: "header.txt", in: out)
        let wrong = try TestPaths.run("aggregate-ebd", [header, "--output", out.path + "/a"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("aggregate-ebd: error: \(header):1: not an eBird EBD header: missing column GROUP IDENTIFIER (expected the EBD header with"))

        // A column the aggregation reads, named twice: refused, not read from whichever came first.
        let twice = try EBDFixtures.write([lines[0] + "\tCOMMON NAME"] + lines.dropFirst().map { $0 + "\tx" }, named: "twice.txt", in: out)
        let repeated = try TestPaths.run("aggregate-ebd", [twice, "--output", out.path + "/t"])
        #expect(repeated.status == 1)
        let columns = lines[0].split(separator: "\t", omittingEmptySubsequences: false)
        let common = columns.firstIndex(of: "COMMON NAME")! + 1
        #expect(repeated.stderr.contains("\(twice):1: not an eBird EBD header: a column named twice (expected each column once; found COMMON NAME as fields \(common) and \(columns.count + 1))"),
                "\(repeated.stderr)")

        let short = try EBDFixtures.write(lines.prefix(5) + [lines[5].split(separator: "\t").prefix(30).joined(separator: "\t")] + lines.dropFirst(6),
                                          named: "short.txt", in: out)
        let rejected = try TestPaths.run("aggregate-ebd", [short, "--output", out.path + "/b"])
        #expect(rejected.status == 1)
        #expect(rejected.stderr.contains("\(short): 1 of 13 rows rejected (7.7%), more than the allowed 2%; see ebd-rejects.csv"))
        let report = try StageReport.read(from: out.path + "/b/ebd-aggregate.json")
        #expect(report.status == .rejected && report.outputs.isEmpty)
        let rejects = try String(contentsOfFile: out.path + "/b/ebd-rejects.csv", encoding: .utf8)
        #expect(rejects.contains("rejected,\(short),6,record,30 fields,\"expected 52 fields (the header's), found 30\""))
    }

    @Test("Spark that cannot run is a failed stage with the job's own words")
    func sparkCannotRun() throws {
        let out = try TestPaths.temporaryDirectory("ebd-cli-spark")
        // A spark-submit that fails as one without Java does.
        let fake = out.appendingPathComponent("spark-submit")
        try Data("#!/bin/sh\necho 'WARNING: routine noise' >&2\necho 'JAVA_HOME is not set' >&2\nexit 1\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let failed = try TestPaths.run("aggregate-ebd", [EBDFixtures.ebd, "--output", out.path + "/o", "--engine", "spark", "--spark-submit", fake.path])
        #expect(failed.status == 2)
        #expect(failed.stderr.contains("aggregate-ebd: error: the Spark job failed (spark-submit exited 1): JAVA_HOME is not set"))
        let report = try StageReport.read(from: out.path + "/o/ebd-aggregate.json")
        #expect(report.status == .failed && report.failure?.hasSuffix("JAVA_HOME is not set") == true)

        let absent = try TestPaths.run("aggregate-ebd", [EBDFixtures.ebd, "--output", out.path + "/p", "--engine", "spark",
                                                          "--spark-submit", "/nonexistent/spark-submit"])
        #expect(absent.status == 2 && absent.stderr.contains("cannot start /nonexistent/spark-submit: No such file or directory"))
    }
}

/// The Spark engine for real: pyspark from `make spark-deps` (which `make test` runs) and Java.
@Suite("aggregate-ebd on Spark: the same bytes as the embedded engine", .serialized)
struct EBDSparkTests {
    /// The virtual environment's spark-submit, or nil (with a visible note) when it is not installed.
    static func sparkSubmit() -> String? {
        let path = TestPaths.packageRoot.appendingPathComponent(".build/spark-venv/bin/spark-submit").path
        let java = ProcessInfo.processInfo.environment["JAVA_HOME"] != nil
            || (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/java") }
        guard FileManager.default.isExecutableFile(atPath: path), java else {
            print("note: skipping: Spark parity needs pyspark in .build/spark-venv and Java (make spark-deps installs both; it could not here)")
            return nil
        }
        return path
    }

    @Test("parity: a generated EBD in no particular order, with its sampling file, at county level")
    func parity() throws {
        guard let submit = Self.sparkSubmit() else { return }
        let directory = try TestPaths.temporaryDirectory("ebd-parity")
        let (ebd, sampling) = try GeneratedEBD.write(checklists: 500, in: directory)
        let arguments = [ebd, "--sampling", sampling, "--level", "county", "--max-reject-share", "0.1"]
        let embedded = try TestPaths.run("aggregate-ebd", arguments + ["--output", directory.path + "/embedded"])
        #expect(embedded.status == 0, "\(embedded.stderr)")
        #expect(embedded.stderr.contains("counted again with a (checklist, taxon) set"))
        let spark = try TestPaths.run("aggregate-ebd", arguments + ["--output", directory.path + "/spark", "--engine", "spark", "--spark-submit", submit])
        #expect(spark.status == 0, "\(spark.stderr)")
        let a = try StageReport.read(from: directory.path + "/embedded/ebd-aggregate.json")
        let b = try StageReport.read(from: directory.path + "/spark/ebd-aggregate.json")
        #expect(a.outputs.count == 6)                               // every county
        #expect(a.outputs == b.outputs)                            // names, sizes and SHA-256 of every bar chart
        #expect(a.sources == b.sources)
        #expect(a.counts.filter { $0.key != "countedWithPairSet" } == b.counts.filter { $0.key != "countedOnSpark" })
        #expect(FileManager.default.contents(atPath: directory.path + "/embedded/ebd-rejects.csv")
            == FileManager.default.contents(atPath: directory.path + "/spark/ebd-rejects.csv"))
    }

    @Test("a job error (an input Spark cannot find) fails the stage with the job's message")
    func jobError() throws {
        guard let submit = Self.sparkSubmit() else { return }
        let out = try TestPaths.temporaryDirectory("ebd-spark-error").path
        let failed = try TestPaths.run("aggregate-ebd", ["/nonexistent/ebd.txt", "--output", out, "--engine", "spark", "--spark-submit", submit])
        #expect(failed.status == 2)
        #expect(failed.stderr.contains("aggregate-ebd: error: the Spark job failed (spark-submit exited 2): /nonexistent/ebd.txt: no such file or directory"))
        #expect(try StageReport.read(from: out + "/ebd-aggregate.json").status == .failed)
        // And without a Java runtime where JAVA_HOME points: spark-submit's own words.
        let noJava = try runWithEnvironment("aggregate-ebd", [EBDFixtures.ebd, "--output", out, "--engine", "spark", "--spark-submit", submit],
                                            environment: ["JAVA_HOME": "/nonexistent-java"])
        #expect(noJava.status == 2)
        #expect(noJava.stderr.contains("the Spark job failed (spark-submit exited"), "\(noJava.stderr)")
        #expect(noJava.stderr.contains("/nonexistent-java/bin/java"), "\(noJava.stderr)")
    }
}

/// A generated EBD for the parity test: invented checklists in the real layout, rows shuffled
/// (not eBird's order), with shared checklists, subspecies, spuhs, slashes, hybrids, incomplete
/// and unapproved rows, empty counties and a few bad rows; and its sampling-event file.
enum GeneratedEBD {
    static func write(checklists: Int, in directory: URL) throws -> (ebd: String, sampling: String) {
        var seed: UInt64 = 2026
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let taxa: [(order: String, category: String, name: String, sub: String)] = [
            ("341", "hybrid", "Mallard x American Black Duck (hybrid)", ""), ("5900", "spuh", "gull sp.", ""),
            ("6300", "species", "Common Loon", ""), ("7010", "slash", "Greater/Lesser Scaup", ""), ("21294", "species", "Blue Jay", ""),
            ("30513", "species", "Dark-eyed Junco", ""), ("30520", "issf", "Dark-eyed Junco", "Dark-eyed Junco (Slate-colored)"),
            ("30530", "issf", "Dark-eyed Junco", "Dark-eyed Junco (Oregon)"), ("31900", "species", "Northern Cardinal", ""),
            ("20100", "species", "Canada Jay", ""), ("21233", "species", "Green Jay", ""), ("8800", "species", "Snowy Owl", ""),
        ]
        let counties = ["US-NY-061", "US-NY-047", "US-VT-007", "CA-ON-OT", "MX-CHP-001", "US-TX-215"]
        let header = EBDColumns.observationHeader, samplingHeader = EBDColumns.samplingHeader
        var rows: [[String: String]] = [], events: [[String: String]] = []
        for n in 0..<checklists {
            let county = counties[next(counties.count)]
            let parts = county.split(separator: "-")
            let group = next(6) == 0 ? "G\(7000 + n)" : ""
            let date = String(format: "20%02d-%02d-%02d", 15 + next(10), 1 + next(12), 1 + next(28))
            let complete = next(12) == 0 ? "0" : "1"
            let species = (0..<(1 + next(6))).map { _ in taxa[next(taxa.count)] }
            for member in 0..<(group.isEmpty ? 1 : 2) {
                var event: [String: String] = ["COUNTRY CODE": String(parts[0]), "STATE CODE": parts[0...1].joined(separator: "-"),
                                                "COUNTY CODE": next(40) == 0 ? "" : county, "OBSERVATION DATE": date,
                                                "SAMPLING EVENT IDENTIFIER": "S\(90_000 + n * 2 + member)", "ALL SPECIES REPORTED": complete,
                                                "GROUP IDENTIFIER": group, "CHECKLIST COMMENTS": n % 9 == 0 ? "\"quoted\" words" : ""]
                events.append(event)
                for taxon in species {
                    event["TAXONOMIC ORDER"] = taxon.order; event["CATEGORY"] = taxon.category; event["COMMON NAME"] = taxon.name
                    event["SUBSPECIES COMMON NAME"] = taxon.sub; event["APPROVED"] = next(30) == 0 ? "0" : "1"
                    event["GLOBAL UNIQUE IDENTIFIER"] = "URN:CornellLabOfOrnithology:EBIRD:OBS\(800_000 + rows.count)"
                    rows.append(event)
                }
            }
        }
        for i in stride(from: rows.count - 1, to: 0, by: -1) { rows.swapAt(i, next(i + 1)) }
        var lines = [header.joined(separator: "\t")] + rows.map { row in header.map { row[$0] ?? "" }.joined(separator: "\t") }
        if let date = lines[7].range(of: #"\t20[0-9]{2}-[0-9]{2}-[0-9]{2}\t"#, options: .regularExpression) {
            lines[7].replaceSubrange(date, with: "\t2021-02-30\t")
        }
        lines[11] = lines[11].split(separator: "\t", omittingEmptySubsequences: false).prefix(51).joined(separator: "\t")
        lines[13] = lines[13].replacingOccurrences(of: "\tS9", with: "\tS09")
        let ebd = try EBDFixtures.write(lines, named: "ebd.txt", in: directory)
        let sampling = try EBDFixtures.write([samplingHeader.joined(separator: "\t")] + events.map { e in samplingHeader.map { e[$0] ?? "" }.joined(separator: "\t") },
                                             named: "sampling.txt", in: directory)
        return (ebd, sampling)
    }
}
