import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideFAA
import Foundation
import Testing
import TestSupport
import ZIPFoundation

func readText(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

func ingest(_ sources: String, maxRejectShare: Double = 0.02) throws -> (StageReport, String) {
    let out = try TestPaths.temporaryDirectory("faa-out").path
    let report = try FAAIngest(options: .init(maxRejectShare: maxRejectShare)).run(sources: try FAASources.locate(sources), outputDirectory: out)
    return (report, out)
}

@Suite("FAA ingest")
struct FAAIngestTests {
    @Test("input/faa: every row kept, joins counted, outputs hashed (DEREG and RESERVED in FAAStatusIngestTests)")
    func fixtures() throws {
        let (report, out) = try ingest(FAAFixtures.inputDirectory)
        #expect(report.status == .ok && report.stage == "ingest-faa")
        #expect(report.sources.map(\.file) == ["ACFTREF.txt", "ENGINE.txt", "MASTER.txt", "DEREG.txt", "RESERVED.txt"])
        #expect(report.sources.map(\.rows.read) == [20, 12, 20, 6, 5])
        #expect(report.sources.map(\.rows.rejected) == [0, 0, 0, 0, 0])
        #expect(report.counts["registrationsWithoutModel"] == 1)
        #expect(report.counts["registrationsWithoutEngine"] == 1)
        #expect(report.outputs.map(\.file).sorted() == ["deregistered.csv", "engines.csv", "models.csv", "registrations.csv", "reserved.csv"])
        for output in report.outputs {
            #expect(try FileDigest.sha256(ofFileAt: out + "/" + output.file) == (output.sha256, output.bytes))
        }
        // What the file says is what the run returned.
        #expect(try StageReport.read(from: out + "/faa-ingest.json") == report)
        let source = try FileDigest.sha256(ofFileAt: FAAFixtures.inputDirectory + "/MASTER.txt")
        #expect(report.sources[2].sha256 == source.digest && report.sources[2].bytes == source.bytes)
        // DEREG's one Latin-1 name (a quirk input/faa shows) is the only line.
        #expect(try readText(out + "/faa-rejects.csv") == "severity,file,line,field,value,reason\n"
            + "warning,DEREG.txt,7,NAME,CÔTÉ AVIATION SERVICES,not valid UTF-8; read as Latin-1 (ISO-8859-1)\n")
    }

    @Test("real FAA files: every row kept or rejected with a reason; N90 decodes")
    func realFiles() throws {
        guard let directory = try FAAFixtures.sharedDirectory() else { return }
        let (report, out) = try ingest(directory)
        let expectedRows = ["ACFTREF.txt": 3_535, "ENGINE.txt": 4_751, "MASTER.txt": 311]
        for source in report.sources {
            #expect(source.rows.read == expectedRows[source.file])
            #expect(source.rows.kept + source.rows.rejected == source.rows.read)
        }
        let rejectLines = try readText(out + "/faa-rejects.csv").split(separator: "\n").dropFirst()
        let rejectedRows = report.sources.map(\.rows.rejected).reduce(0, +)
        let warnings = report.sources.map(\.rows.warnings).reduce(0, +)
        #expect(rejectLines.count >= rejectedRows + warnings)
        // Most MASTER sample rows point at models outside the ACFTREF sample: orphans, counted.
        #expect(report.counts["registrationsWithoutModel"] == 292)

        var n90: Registration?
        try NormalizedFAA.readRegistrations(out + "/" + NormalizedFAA.registrationsFile) { if $0.nNumber == "N90" { n90 = $0 } }
        let r = try #require(n90)
        #expect(r.airworthiness.classification?.name == "Standard")
        #expect(r.airworthiness.operations.compactMap(\.name) == ["Transport"])
        #expect(r.modeSHex == "AC6CD2")
        #expect(r.engineCode == "30069")
        #expect(r.zip == "73169-6936")
        #expect(r.registrantType?.name == "Government")
        let engines = try NormalizedFAA.readEngines(out + "/" + NormalizedFAA.enginesFile)
        #expect(engines.first { $0.code == "30069" }?.model == "CF34-3B")
        let models = try NormalizedFAA.readModels(out + "/" + NormalizedFAA.modelsFile)
        #expect(models.first { $0.code == "00301TN" }?.model == "BABY ACE \"D\"")
    }

    @Test("a file with another FAA file's header is refused, naming both")
    func wrongKind() throws {
        let engine = try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/ENGINE.txt"))
        let sources = try FAAFixtures.inputCopy(overriding: ["ACFTREF.txt": engine])
        let error = #expect(throws: LocatedError.self) { try ingest(sources) }
        #expect(error?.kind == .wrongHeader)
        #expect(error?.description == "ACFTREF.txt:1: expected the ACFTREF.txt header, found the header of ENGINE.txt")
    }

    @Test("a misspelled header column is named with its position")
    func wrongHeader() throws {
        var lines = try FAAFixtures.lines("ACFTREF.txt")
        lines[0] = lines[0].replacingOccurrences(of: "MODEL", with: "MODL")
        let sources = try FAAFixtures.inputCopy(overriding: ["ACFTREF.txt": .faaFile(lines)])
        let error = #expect(throws: LocatedError.self) { try ingest(sources) }
        #expect(error?.description == "ACFTREF.txt:1: expected column 3 of ACFTREF.txt to be \"MODEL\", found \"MODL\"")
    }

    @Test("a truncated MASTER: the cut row is rejected with its line, the rest kept")
    func truncated() throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/MASTER.txt"))
        data = data.prefix(data.count - 300)
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": data])
        let (report, out) = try ingest(sources, maxRejectShare: 0.1)
        #expect(report.sources[2].rows.read == 20)
        #expect(report.sources[2].rows.rejected == 1)
        let rejects = try readText(out + "/faa-rejects.csv")
        #expect(rejects.contains("rejected,MASTER.txt,21,record,"))
    }

    @Test("rejects over the threshold fail the stage, report it, and keep the previous outputs")
    func threshold() throws {
        var lines = try FAAFixtures.lines("MASTER.txt")
        for i in 1...3 {  // three of twenty rows get an impossible date: 15% > 2%
            var fields = lines[i].components(separatedBy: ",")
            fields[15] = "20231301"
            lines[i] = fields.joined(separator: ",")
        }
        let out = try TestPaths.temporaryDirectory("faa-threshold").path
        _ = try FAAIngest().run(sources: try FAASources.locate(FAAFixtures.inputDirectory), outputDirectory: out)
        let before = try readText(out + "/registrations.csv")

        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(lines)])
        let error = #expect(throws: LocatedError.self) {
            try FAAIngest().run(sources: try FAASources.locate(sources), outputDirectory: out)
        }
        #expect(error?.kind == .tooManyRejects)
        #expect(error?.description.hasPrefix("MASTER.txt: 3 of 20 rows rejected (15%), more than the allowed 2%") == true)
        #expect(try readText(out + "/registrations.csv") == before)
        let report = try StageReport.read(from: out + "/faa-ingest.json")
        #expect(report.status == .rejected && report.outputs.isEmpty)
        #expect(report.failure?.hasPrefix("MASTER.txt: 3 of 20 rows rejected") == true)
        #expect(report.findings.errors == 3)
        let rejects = try readText(out + "/faa-rejects.csv")
        #expect(rejects.contains("rejected,MASTER.txt,2,LAST ACTION DATE,20231301,"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test("a duplicate N-number is rejected, pointing at the first")
    func duplicate() throws {
        var lines = try FAAFixtures.lines("MASTER.txt")
        lines.append(lines[1])
        let (report, out) = try ingest(try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(lines)]), maxRejectShare: 0.1)
        #expect(report.sources[2].rows.rejected == 1)
        #expect(try readText(out + "/faa-rejects.csv").contains("N-NUMBER,N100A,duplicate N-number; first at MASTER.txt:2"))
    }

    @Test("a field's width counts its value, not its padding: a value too long is rejected, surplus spaces are not")
    func widthsCountValues() throws {
        var lines = try FAAFixtures.lines("MASTER.txt")
        var tooLong = lines[1].components(separatedBy: ","), padded = lines[2].components(separatedBy: ",")
        tooLong[10] = "MEX"          // STATE is 2 wide
        padded[10] += "     "        // still its 2-letter state
        lines[1] = tooLong.joined(separator: ",")
        lines[2] = padded.joined(separator: ",")
        let (report, out) = try ingest(try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(lines)]), maxRejectShare: 0.1)
        #expect(report.sources[2].rows.rejected == 1)
        #expect(try readText(out + "/faa-rejects.csv").contains("MASTER.txt,2,STATE,MEX,\"expected at most 2 characters (FAA layout), found 3\""))
    }

    @Test("MASTER read in two halves on two threads: the same outputs as one pass, across the cut")
    func halves() throws {
        var lines = try FAAFixtures.lines("MASTER.txt")
        lines.append(lines[1])  // a duplicate of a first-half row in the second half
        var fields = lines[16].components(separatedBy: ",")
        fields[15] = "20231301"  // a rejected row in the second half
        fields[20] = "Q "  // and a warning
        lines[16] = fields.joined(separator: ",")
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(lines)])
        var outputs: [[String: Data]] = []
        for threshold in [Int.max, 0] {
            let out = try TestPaths.temporaryDirectory("faa-halves").path
            let options = FAAIngest.Options(maxRejectShare: 0.2, parallelThreshold: threshold)
            _ = try FAAIngest(options: options).run(sources: try FAASources.locate(sources), outputDirectory: out)
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: out) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
            }
            outputs.append(files)
        }
        #expect(outputs[0] == outputs[1])
        let rejects = String(decoding: outputs[1]["faa-rejects.csv"] ?? Data(), as: UTF8.self)
        #expect(rejects.contains("N-NUMBER,N100A,duplicate N-number; first at MASTER.txt:2"))
        #expect(rejects.contains("rejected,MASTER.txt,17,LAST ACTION DATE,20231301,"))
    }

    @Test("MASTER in two halves: an error in the second half stops the stage as in one pass")
    func halvesError() throws {
        var lines = try FAAFixtures.lines("MASTER.txt")
        var fields = lines[3].components(separatedBy: ",")
        fields[15] = "20231301"
        lines[3] = fields.joined(separator: ",")
        lines[18] = lines[18].replacingOccurrences(of: ",", with: ",\u{0}", options: [], range: lines[18].range(of: ","))
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(lines)])
        var results: [(String, String)] = []
        for threshold in [Int.max, 0] {
            let out = try TestPaths.temporaryDirectory("faa-halves-error").path
            let options = FAAIngest.Options(maxRejectShare: 0.2, parallelThreshold: threshold)
            let error = #expect(throws: LocatedError.self) {
                try FAAIngest(options: options).run(sources: try FAASources.locate(sources), outputDirectory: out)
            }
            results.append((error?.description ?? "", try readText(out + "/faa-rejects.csv")))
        }
        #expect(results[0].0 == results[1].0)
        #expect(results[0].0.hasPrefix("MASTER.txt:19:"))
        #expect(results[0].1 == results[1].1)
        #expect(results[1].1.contains("rejected,MASTER.txt,4,LAST ACTION DATE,20231301,"))
    }

    @Test("a duplicate ACFTREF or ENGINE code is rejected, pointing at the first")
    func duplicateCodes() throws {
        var models = try FAAFixtures.lines("ACFTREF.txt"), engines = try FAAFixtures.lines("ENGINE.txt")
        models.append(models[1])
        engines.append(engines[1])
        let sources = try FAAFixtures.inputCopy(overriding: ["ACFTREF.txt": .faaFile(models), "ENGINE.txt": .faaFile(engines)])
        let (report, out) = try ingest(sources, maxRejectShare: 0.1)
        #expect(report.sources.map(\.rows.rejected) == [1, 1, 0])
        let rejects = try readText(out + "/faa-rejects.csv")
        let modelCode = models[1].components(separatedBy: ",")[0].trimmingCharacters(in: .whitespaces)
        let engineCode = engines[1].components(separatedBy: ",")[0].trimmingCharacters(in: .whitespaces)
        #expect(rejects.contains("rejected,ACFTREF.txt,\(models.count),CODE,\(modelCode),duplicate code; first at line 2"))
        #expect(rejects.contains("rejected,ENGINE.txt,\(engines.count),CODE,\(engineCode),duplicate code; first at line 2"))
    }

    @Test("the reference files, read beside MASTER, still come first: their error wins, their rejects lead the report")
    func referenceFirst() throws {
        var engines = try FAAFixtures.lines("ENGINE.txt"), master = try FAAFixtures.lines("MASTER.txt")
        var engine = engines[2].components(separatedBy: ",")
        engine[4] = "1X0"  // HORSEPOWER
        engines[2] = engine.joined(separator: ",")
        var registration = master[3].components(separatedBy: ",")
        registration[15] = "20231301"  // LAST ACTION DATE
        master[3] = registration.joined(separator: ",")
        for threshold in [Int.max, 0] {
            let options = FAAIngest.Options(maxRejectShare: 0.2, parallelThreshold: threshold)
            let kept = try FAAFixtures.inputCopy(overriding: ["ENGINE.txt": .faaFile(engines), "MASTER.txt": .faaFile(master)])
            let out = try TestPaths.temporaryDirectory("faa-reference-first").path
            let report = try FAAIngest(options: options).run(sources: try FAASources.locate(kept), outputDirectory: out)
            #expect(report.sources.map(\.rows.rejected) == [0, 1, 1])
            let lines = try readText(out + "/faa-rejects.csv").split(separator: "\n").dropFirst()
            #expect(lines.map { $0.split(separator: ",")[1] } == ["ENGINE.txt", "MASTER.txt"])

            let wrongHeader = try FAAFixtures.inputCopy(overriding: [
                "ACFTREF.txt": try Data(contentsOf: URL(fileURLWithPath: FAAFixtures.inputDirectory + "/ENGINE.txt")),
                "MASTER.txt": .faaFile(["N-NUMBER"] + master.dropFirst()),
            ])
            let error = #expect(throws: LocatedError.self) {
                try FAAIngest(options: options).run(sources: try FAASources.locate(wrongHeader), outputDirectory: out)
            }
            #expect(error?.description == "ACFTREF.txt:1: expected the ACFTREF.txt header, found the header of ENGINE.txt")
        }
    }

    @Test("a code too long to pack (7 characters, 9 UTF-8 bytes) still joins, in one pass and in two halves")
    func longJoinCodes() throws {
        var models = try FAAFixtures.lines("ACFTREF.txt"), master = try FAAFixtures.lines("MASTER.txt")
        var model = models[1].components(separatedBy: ",")
        model[0] = "10001ÉÉ"
        models.append(model.joined(separator: ","))
        for (line, code) in [(1, "10001ÉÉ"), (2, "10002ÉÉ")] {  // the first joins, the second is an orphan
            var registration = master[line].components(separatedBy: ",")
            registration[2] = code
            master[line] = registration.joined(separator: ",")
        }
        let sources = try FAAFixtures.inputCopy(overriding: ["ACFTREF.txt": .faaFile(models), "MASTER.txt": .faaFile(master)])
        for threshold in [Int.max, 0] {
            let out = try TestPaths.temporaryDirectory("faa-long-codes").path
            let options = FAAIngest.Options(maxRejectShare: 0.2, parallelThreshold: threshold)
            let report = try FAAIngest(options: options).run(sources: try FAASources.locate(sources), outputDirectory: out)
            #expect(report.sources.map(\.rows.rejected) == [0, 0, 0])
            #expect(report.counts["registrationsWithoutModel"] == 2, "threshold \(threshold)")  // the fixture's own orphan and 10002ÉÉ
        }
    }

    @Test("a missing required file is named")
    func missing() throws {
        let sources = try FAAFixtures.inputCopy(removing: ["ENGINE.txt"])
        let error = #expect(throws: LocatedError.self) { try FAASources.locate(sources) }
        #expect(error?.kind == .missingFile)
        #expect(error?.message.contains("ENGINE.txt") == true)
    }

    @Test("MASTER split into parts reads every part in order")
    func parts() throws {
        let lines = try FAAFixtures.lines("MASTER.txt")
        let header = lines[0]
        let sources = try FAAFixtures.inputCopy(
            overriding: ["MASTER-1.txt": .faaFile([header] + lines[1...12]), "MASTER-2.txt": .faaFile([header] + lines[13...])],
            removing: ["MASTER.txt"])
        let (report, out) = try ingest(sources)
        #expect(report.sources.map(\.file) == ["ACFTREF.txt", "ENGINE.txt", "MASTER-1.txt", "MASTER-2.txt"])
        #expect(report.sources.suffix(2).map(\.rows.kept) == [12, 8])
        var count = 0
        try NormalizedFAA.readRegistrations(out + "/registrations.csv") { _ in count += 1 }
        #expect(count == 20)
    }

    @Test("MASTER.txt beside parts, a missing part or a part twice: refused, never a registry short of aircraft")
    func partsRefused() throws {
        let lines = try FAAFixtures.lines("MASTER.txt")
        let header = lines[0]
        let beside = try FAAFixtures.inputCopy(overriding: ["MASTER-1.txt": .faaFile([header] + lines[1...12])])
        let both = #expect(throws: LocatedError.self) { try FAASources.locate(beside) }
        #expect(both?.kind == .usage)
        #expect(both?.description == "\(beside): two MASTER downloads side by side; keep one (expected MASTER.txt or its parts MASTER-1.txt…; found both MASTER.txt and MASTER-1.txt)")

        let gap = try FAAFixtures.inputCopy(
            overriding: ["MASTER-1.txt": .faaFile([header] + lines[1...12]), "MASTER-3.txt": .faaFile([header] + lines[13...])],
            removing: ["MASTER.txt"])
        let missing = #expect(throws: LocatedError.self) { try FAASources.locate(gap) }
        #expect(missing?.kind == .missingFile)
        #expect(missing?.description == "\(gap): a part of MASTER is missing (expected MASTER-2.txt among the parts; found MASTER-1.txt, MASTER-3.txt)")
        let run = try TestPaths.run("ingest-faa", [gap, "--output", gap + "/out"])
        #expect(run.status == 2 && run.stderr.contains("a part of MASTER is missing"), "\(run.stderr)")

        let twice = try FAAFixtures.inputCopy(
            overriding: ["MASTER-1.txt": .faaFile([header] + lines[1...12]), "MASTER-01.txt": .faaFile([header] + lines[13...])],
            removing: ["MASTER.txt"])
        let repeated = #expect(throws: LocatedError.self) { try FAASources.locate(twice) }
        #expect(repeated?.kind == .usage && repeated?.message == "a part of MASTER twice", "\(String(describing: repeated))")
    }

    @Test("a MASTER with a header and no row is refused (exit 1), the last good hand-off kept: never an empty registry")
    func masterWithoutRows() throws {
        let lines = try FAAFixtures.lines("MASTER.txt")
        let out = try TestPaths.temporaryDirectory("faa-empty-master").path
        #expect(try TestPaths.run("ingest-faa", ["input/faa", "--output", out]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/registrations.csv"))
        let empty = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile([lines[0]])])
        let run = try TestPaths.run("ingest-faa", [empty, "--output", out])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("MASTER.txt:2: MASTER holds no registration: the registry would be empty (expected registrations after the header; found none)"),
                "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/registrations.csv")) == before)
        #expect(try StageReport.read(from: out + "/faa-ingest.json").status == .rejected)
        // Parts that are all headers alike; one part with rows among empty ones still builds.
        let parts = try FAAFixtures.inputCopy(
            overriding: ["MASTER-1.txt": .faaFile([lines[0]]), "MASTER-2.txt": .faaFile([lines[0]])], removing: ["MASTER.txt"])
        let error = #expect(throws: LocatedError.self) { try ingest(parts) }
        #expect(error?.kind == .empty && error?.found == "none in MASTER-1.txt, MASTER-2.txt", "\(String(describing: error))")
        let oneFull = try FAAFixtures.inputCopy(
            overriding: ["MASTER-1.txt": .faaFile([lines[0]]), "MASTER-2.txt": .faaFile(lines)], removing: ["MASTER.txt"])
        #expect(try ingest(oneFull).0.status == .ok)
    }

    @Test("ReleasableAircraft.zip reads like the directory")
    func zipArchive() throws {
        let zipPath = try TestPaths.temporaryDirectory("faa-zip").appendingPathComponent("ReleasableAircraft.zip")
        let archive = try Archive(url: zipPath, accessMode: .create)
        for name in ["ACFTREF.txt", "ENGINE.txt", "MASTER.txt", "DEREG.txt", "RESERVED.txt"] {
            try archive.addEntry(with: name, relativeTo: URL(fileURLWithPath: FAAFixtures.inputDirectory), compressionMethod: .deflate)
        }
        let (fromZip, zipOut) = try ingest(zipPath.path)
        let (fromDirectory, directoryOut) = try ingest(FAAFixtures.inputDirectory)
        #expect(fromZip.sources == fromDirectory.sources)
        #expect(try readText(zipOut + "/registrations.csv") == readText(directoryOut + "/registrations.csv"))
        // A directory holding just the download (the nightly's SOURCES/faa/) reads the archive.
        let located = try FAASources.locate(zipPath.deletingLastPathComponent().path)
        #expect(located.master.map(\.name) == ["MASTER.txt"])
        if case .zipEntry(let archivePath, _) = located.master[0].location { #expect(archivePath == zipPath.path) } else {
            Issue.record("expected the MASTER entry of the archive")
        }
    }

    @Test("a file that is not a ZIP nor a directory is refused")
    func notAnArchive() throws {
        let path = try TestPaths.temporaryDirectory("faa-bad").appendingPathComponent("x.zip")
        try Data("not a zip".utf8).write(to: path)
        let error = #expect(throws: LocatedError.self) { try FAASources.locate(path.path) }
        #expect(error?.kind == .usage)   // the wrong file given: exit 2, as a usage or I/O error
        #expect(error?.description == "\(path.path): not a ZIP archive (expected a directory or a ZIP archive of the FAA files; found no ZIP end of central directory record)")
        // Through the executable: an HTML error page saved as the ZIP exits 2, naming it.
        try Data("<html>403 Forbidden</html>".utf8).write(to: path)
        let run = try TestPaths.run("ingest-faa", [path.path, "--output", path.deletingLastPathComponent().path + "/out"])
        #expect(run.status == 2 && run.stderr.contains("x.zip: not a ZIP archive"), "\(run.stderr)")
    }
}
