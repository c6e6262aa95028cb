import FieldGuideCore
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// The FAA ingest's rejects report when it is large: MASTER's issues are spooled per part
/// (`MasterPart`, a `RejectSpool` each) and merged in stretches, so a duplicate's warnings can
/// still be dropped after they were written out.
@Suite("FAA ingest: a large rejects report")
struct FAARejectsAtScaleTests {
    /// 20,000 MASTER rows built from the fixture's first: each with a warning (FRACT OWNER `X`);
    /// row i (0-based) has mark i + 1, but each fifth repeats the mark before it (a duplicate,
    /// unless that row was rejected) and each seventh has a LAST ACTION DATE of month 13 (rejected).
    static func master() throws -> (lines: [String], expected: [String], kept: Int) {
        let fixture = try FAAFixtures.lines("MASTER.txt")
        var lines = [fixture[0]], expected: [String] = [], seen = Set<String>()
        for i in 0..<20_000 {
            let line = i + 2, duplicate = i % 5 == 4, rejected = i % 7 == 3
            let mark = duplicate ? String(i) : String(i + 1)
            var row = FAALine.replacing(fixture[1], 0, with: mark, layout: FAALayout.master)
            row = FAALine.replacing(row, 22, with: "X", layout: FAALayout.master)
            if rejected { row = FAALine.replacing(row, 15, with: "20231301", layout: FAALayout.master) }
            lines.append(row)
            let warning = "warning,MASTER.txt,\(line),FRACT OWNER,X,expected Y or blank; read as not fractional"
            if rejected {
                expected += ["rejected,MASTER.txt,\(line),LAST ACTION DATE,20231301,\"expected a calendar date YYYYMMDD, found \"\"20231301\"\"\"", warning]
            } else if seen.contains(mark) {
                expected.append("rejected,MASTER.txt,\(line),N-NUMBER,N\(mark),duplicate N-number; first at MASTER.txt:\(line - 1)")
            } else {
                seen.insert(mark)
                expected.append(warning)
            }
        }
        return (lines, expected, seen.count)
    }

    @Test("20,000 MASTER rows with 22,000 issues (1.6 MB): the report in file order, duplicates' warnings dropped, one pass, two halves and small merge stretches alike, no scratch file left")
    func largeReport() throws {
        let (lines, expectedMaster, kept) = try Self.master()
        var engines = try FAAFixtures.lines("ENGINE.txt"), reserved = try FAAFixtures.lines("RESERVED.txt")
        engines[2] = FAALine.replacing(engines[2], 4, with: "1X0", layout: FAALayout.engine)   // HORSEPOWER: rejected
        reserved.append(reserved[1])   // a second reservation of one N-number: rejected
        let sources = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(lines), "ENGINE.txt": .faaFile(engines),
                                                             "RESERVED.txt": .faaFile(reserved)])
        var outputs: [[String: Data]] = []
        // One pass, two halves, and two halves whose kept rows reach the writer a few at a time
        // (`mergeStretch`), duplicates' bytes dropped between them.
        for (threshold, stretch) in [(Int.max, 4 << 20), (0, 4 << 20), (0, 1_000)] {
            let out = try TestPaths.temporaryDirectory("faa-large-rejects").path
            let report = try FAAIngest(options: .init(maxRejectShare: 0.5, parallelThreshold: threshold, mergeStretch: stretch))
                .run(sources: try FAASources.locate(sources), outputDirectory: out)
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: out) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
            }
            #expect(files.keys.sorted() == ["engines.csv", "faa-ingest.json", "faa-rejects.csv", "models.csv", "registrations.csv", "reserved.csv"])
            let rows = String(decoding: files["faa-rejects.csv"] ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(rows.count == 1 + 1 + expectedMaster.count + 1)
            #expect(rows.first == RejectsReport.header.joined(separator: ","))
            #expect(rows.dropFirst().first?.hasPrefix("rejected,ENGINE.txt,3,HORSEPOWER,1X0,") == true, "the reference files' rows lead")
            let masterRows = Array(rows.dropFirst(2).prefix(expectedMaster.count))
            let mismatch = Array(zip(masterRows, expectedMaster)).firstIndex { $0 != $1 } ?? (masterRows.count == expectedMaster.count ? nil : masterRows.count)
            #expect(mismatch == nil, "MASTER's rows in the report differ from row \(mismatch ?? 0): \(mismatch.map { masterRows.indices.contains($0) ? masterRows[$0] : "(none)" } ?? "")")
            #expect(rows.last?.hasPrefix("rejected,RESERVED.txt,\(reserved.count),N-NUMBER,") == true, "the status files' rows close")
            #expect((files["faa-rejects.csv"]?.count ?? 0) > 1 << 20, "past the 1 MiB buffer: spooled")
            #expect(report.findings.errors == rows.filter { $0.hasPrefix("rejected,") }.count)
            #expect(report.findings.warnings == rows.filter { $0.hasPrefix("warning,") }.count)
            let master = report.sources.first { $0.file == "MASTER.txt" }?.rows
            #expect(master?.read == 20_000 && master?.kept == kept && master?.warnings == kept && master?.rejected == 20_000 - kept)
            outputs.append(files)
        }
        #expect(outputs.count == 3 && outputs.allSatisfy { $0 == outputs[0] })
    }
}
