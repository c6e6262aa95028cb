import FieldGuideBirds
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

/// The fixture: invented records in the EBD's real layout (Tests/Fixtures/birds/ebd).
enum EBDFixtures {
    static let ebd = "Tests/Fixtures/birds/ebd/ebd-small.txt"
    static let sampling = "Tests/Fixtures/birds/ebd/ebd-sampling-small.txt"
    static func path(_ relative: String) -> String { TestPaths.packageRoot.appendingPathComponent(relative).path }

    /// The fixture's lines, header first.
    static func lines(_ relative: String = ebd) throws -> [String] {
        try String(contentsOfFile: path(relative), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Writes `lines` to a file of its own in `directory`.
    static func write(_ lines: [String], named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    /// A chart file's taxon rows as name → 48 frequency texts, and its sample sizes.
    static func chart(_ path: String) throws -> (samples: [String], rows: [String: [String]], order: [String]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let samples = lines.first { $0.first == "Sample Size:" }.map { Array($0.dropFirst().dropLast()) } ?? []
        let start = lines.firstIndex { $0.first == "Sample Size:" }.map { $0 + 1 } ?? lines.count
        let rows = lines[start...].filter { $0.count == 50 }
        return (samples, Dictionary(uniqueKeysWithValues: rows.map { ($0[0], Array($0[1...48])) }), rows.map { $0[0] })
    }
}

@Suite("aggregate-ebd: bar charts from the eBird Basic Dataset")
struct EBDAggregationTests {
    func run(_ inputs: [String], level: EBDRegionLevel = .state, sampling: String? = nil, share: Double = 0.02) throws -> (EBDAggregation.Result, URL) {
        let out = try TestPaths.temporaryDirectory("ebd")
        let result = try EBDAggregation(options: .init(level: level, samplingEvents: sampling.map { [$0] } ?? [], maxRejectShare: share))
            .run(inputs: inputs, outputDirectory: out.path)
        return (result, out)
    }

    @Test("eBird's rules: complete checklists, shared ones once, approved detections, subspecies under their species")
    func rules() throws {
        let (result, out) = try run([EBDFixtures.path(EBDFixtures.ebd)])
        #expect(result.report.outputs.map(\.file) == ["barchart-CA-ON.txt", "barchart-US-NY.txt", "barchart-US-VT.txt"])
        let ny = try EBDFixtures.chart(out.appendingPathComponent("barchart-US-NY.txt").path)
        // S1001, the shared G5001 (S1002 + S1003) and S1008 in Jan 1–7; S1004 in Jan 8–14; S1005 is incomplete.
        #expect(ny.samples.prefix(3) == ["3.0", "1.0", "0.0"])
        #expect(ny.order == ["Mallard x American Black Duck (hybrid)", "gull sp.", "Blue Jay", "Dark-eyed Junco", "Northern Cardinal"])
        #expect(ny.rows["Blue Jay"]?.prefix(2) == ["1.0", "0.0"])          // 3 of 3 (G5001 once); S1004's is unapproved
        #expect(ny.rows["Dark-eyed Junco"]?[0] == "0.3333333")             // two subspecies on S1001: once
        #expect(ny.rows["Mallard x American Black Duck (hybrid)"]?[1] == "1.0")
        #expect(ny.rows["Snowy Owl"] == nil)                               // only on an incomplete checklist
        let vt = try EBDFixtures.chart(out.appendingPathComponent("barchart-US-VT.txt").path)
        #expect(vt.rows["Common Loon"]?[27] == "1.0")                       // 22 July: period 28
        let on = try EBDFixtures.chart(out.appendingPathComponent("barchart-CA-ON.txt").path)
        #expect(on.rows["Blue Jay"]?[7] == "1.0")                           // 29 February 2024: period 8
        #expect(result.report.counts["incompleteRows"] == 1)
        #expect(result.report.counts["unapprovedRows"] == 1)
        #expect(result.report.counts["checklists"] == 6)
        #expect(result.notGroupedByTaxon == nil)
        #expect(result.report.sources.first?.rows == StageReport.Rows(read: 13, kept: 12, rejected: 0, warnings: 0))
    }

    @Test("the sampling-event file adds checklists without detections to the sample sizes")
    func samplingEvents() throws {
        let (_, out) = try run([EBDFixtures.path(EBDFixtures.ebd)], sampling: EBDFixtures.path(EBDFixtures.sampling))
        let ny = try EBDFixtures.chart(out.appendingPathComponent("barchart-US-NY.txt").path)
        #expect(ny.samples[0] == "4.0")                                     // S1009 saw nothing
        #expect(ny.rows["Blue Jay"]?[0] == "0.75")
        #expect(ny.rows["gull sp."]?[0] == "0.25")
    }

    @Test("county level: an empty county is counted as a warning, not guessed")
    func countyLevel() throws {
        let (result, out) = try run([EBDFixtures.path(EBDFixtures.ebd)], level: .county)
        #expect(result.report.outputs.map(\.file) == ["barchart-CA-ON-OT.txt", "barchart-US-NY-047.txt", "barchart-US-NY-061.txt", "barchart-US-VT-007.txt"])
        #expect(result.report.counts["warning.noRegion"] == 1)
        #expect(result.report.sources.first?.rows.warnings == 1)
        let rejects = try String(contentsOf: out.appendingPathComponent(EBDAggregation.rejectsFile), encoding: .utf8)
        #expect(rejects.contains("warning,\(EBDFixtures.path(EBDFixtures.ebd)),11,COUNTY CODE,,no region at this level: the row is not counted"))
        let county = try EBDFixtures.chart(out.appendingPathComponent("barchart-US-NY-061.txt").path)
        #expect(county.samples[0] == "2.0")
    }

    @Test("a run over an earlier run's output: the charts it did not write go (another level, a region gone), once it commits; a failed run leaves them")
    func staleCharts() throws {
        let (_, out) = try run([EBDFixtures.path(EBDFixtures.ebd)])
        let charts = { try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix("barchart-") }.sorted() }
        let stateCharts = try charts()
        #expect(stateCharts.contains("barchart-US-NY.txt"))
        try Data("not mine\n".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let missing = out.appendingPathComponent("no-such-ebd.txt").path
        #expect(throws: LocatedError.self) {
            try EBDAggregation(options: .init(level: .county)).run(inputs: [missing], outputDirectory: out.path)
        }
        #expect(try charts() == stateCharts, "a failed run leaves the earlier charts")
        let county = try EBDAggregation(options: .init(level: .county)).run(inputs: [EBDFixtures.path(EBDFixtures.ebd)], outputDirectory: out.path)
        #expect(try charts() == county.report.outputs.map(\.file).filter { $0.hasPrefix("barchart-") }.sorted())
        #expect(try charts() == ["barchart-CA-ON-OT.txt", "barchart-US-NY-047.txt", "barchart-US-NY-061.txt", "barchart-US-VT-007.txt"])
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("notes.txt").path), "only bar charts are removed")
    }

    @Test("the file format: eBird's download layout, which the bar-chart reader takes")
    func format() throws {
        let (_, out) = try run([EBDFixtures.path(EBDFixtures.ebd)])
        let path = out.appendingPathComponent("barchart-US-VT.txt").path
        let bytes = try String(contentsOfFile: path, encoding: .utf8)
        let zeros = { (n: Int) in String(repeating: "0.0\t", count: n) }
        let months = "\tJan\t\t\t\tFeb\t\t\t\tMar\t\t\t\tApr\t\t\t\tMay\t\t\t\tJun\t\t\t\tJul\t\t\t\tAug\t\t\t\tSep\t\t\t\tOct\t\t\t\tNov\t\t\t\tDec\t\t\t\t"
        #expect(bytes == String(repeating: "\n", count: 10) + "Frequency of observations in the selected location(s).:\nNumber of taxa: \t1\n\n"
            + months + "\nSample Size:\t" + zeros(27) + "1.0\t" + zeros(20) + "\n\nCommon Loon\t" + zeros(27) + "1.0\t" + zeros(20) + "\n\n")
        let chart = try EBirdBarChart.read(path, region: EBirdBarChart.regionName(fromFile: path))
        #expect(chart.region == "US-VT")
        #expect(chart.rows.map(\.name) == ["Common Loon"] && chart.rows[0].frequencies[27] == 1)
    }

    @Test("frequencies: plain decimals rounded half up to 7 places")
    func frequencies() {
        #expect(BarChartTable.frequency(49, of: 509) == "0.0962672")
        #expect(BarChartTable.frequency(1, of: 3) == "0.3333333")
        #expect(BarChartTable.frequency(2, of: 3) == "0.6666667")
        #expect(BarChartTable.frequency(1, of: 20_000_000) == "0.0000001")     // 0.00000005 rounds up
        #expect(BarChartTable.frequency(1, of: 20_000_001) == "0.0")
        #expect(BarChartTable.frequency(0, of: 0) == "0.0")
        #expect(BarChartTable.frequency(5, of: 5) == "1.0")
    }

    @Test("rows out of eBird's order are counted again with a pair set, to the same charts")
    func anyOrder() throws {
        let lines = try EBDFixtures.lines()
        let directory = try TestPaths.temporaryDirectory("ebd-order")
        // The first Blue Jay row last: Blue Jay's rows resume after Northern Cardinal's.
        let moved = try EBDFixtures.write(lines.enumerated().filter { $0.offset != 5 }.map(\.element) + [lines[5]], named: "moved.txt", in: directory)
        let (ordered, a) = try run([EBDFixtures.path(EBDFixtures.ebd)], level: .county)
        let (scattered, b) = try run([moved], level: .county)
        #expect(ordered.notGroupedByTaxon == nil)
        #expect(scattered.notGroupedByTaxon == "Blue Jay")
        #expect(scattered.report.counts["countedWithPairSet"] == 1)
        for output in ordered.report.outputs {
            #expect(FileManager.default.contents(atPath: a.appendingPathComponent(output.file).path)
                == FileManager.default.contents(atPath: b.appendingPathComponent(output.file).path))
        }
    }

    @Test("bad rows: rejected with file:line and counted; a wrong header names the missing columns")
    func badRows() throws {
        var lines = try EBDFixtures.lines()
        let directory = try TestPaths.temporaryDirectory("ebd-bad")
        func edit(_ line: Int, column: String, to value: String) {
            var fields = lines[line].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            fields[EBDColumns.observationHeader.firstIndex(of: column)!] = value
            lines[line] = fields.joined(separator: "\t")
        }
        edit(1, column: "OBSERVATION DATE", to: "2023-02-29")
        edit(2, column: "GROUP IDENTIFIER", to: "G05001")
        edit(3, column: "STATE CODE", to: "US/../NY")
        edit(9, column: "TAXONOMIC ORDER", to: "21294.5")
        lines[12] = lines[12].split(separator: "\t", omittingEmptySubsequences: false).prefix(40).joined(separator: "\t")
        let path = try EBDFixtures.write(lines, named: "bad.txt", in: directory)
        let (result, out) = try run([path], share: 0.5)
        #expect(result.report.sources.first?.rows.rejected == 5)
        for key in ["rejected.date", "rejected.checklist", "rejected.region", "rejected.taxon", "rejected.fields"] {
            #expect(result.report.counts[key] == 1, "\(key)")
        }
        let rejects = try String(contentsOf: out.appendingPathComponent(EBDAggregation.rejectsFile), encoding: .utf8)
        #expect(rejects.contains("rejected,\(path),2,OBSERVATION DATE,2023-02-29,expected a calendar date YYYY-MM-DD"))
        #expect(rejects.contains("rejected,\(path),3,GROUP IDENTIFIER,G05001,\"expected empty, or G and 1–11 digits\""))
        #expect(rejects.contains("rejected,\(path),13,record,40 fields,expected 52 fields (the header's) found 40") == false)
        #expect(rejects.contains("rejected,\(path),13,record,40 fields,\"expected 52 fields (the header's), found 40\""))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("barchart-US.txt").path))

        // Over the allowed share: the stage is rejected, earlier charts stay, the reports say why.
        #expect { _ = try EBDAggregation(options: .init(level: .state)).run(inputs: [path], outputDirectory: out.path) } throws: {
            ($0 as? LocatedError)?.kind == .tooManyRejects
        }
        let report = try StageReport.read(from: out.appendingPathComponent(EBDAggregation.reportFile).path)
        #expect(report.status == .rejected && report.failure?.contains("5 of 13 rows rejected") == true)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("barchart-US-NY.txt").path))

        let header = try EBDFixtures.write([lines[0].replacingOccurrences(of: "APPROVED", with: "APPROVAL")
            .replacingOccurrences(of: "COMMON NAME", with: "NAME")] + lines.dropFirst(), named: "header.txt", in: directory)
        #expect { _ = try run([header]) } throws: { error in
            let located = error as? LocatedError
            return located?.kind == .wrongHeader && located?.line == 1
                && located?.message == "not an eBird EBD header: missing columns COMMON NAME, APPROVED"
        }
        #expect { _ = try run([EBDFixtures.path(EBDFixtures.sampling)]) } throws: {
            ($0 as? LocatedError)?.message.hasSuffix("it is a sampling-event file: give it with --sampling") == true
        }
    }

    @Test("documented bounds: a line over the limit stops the file before libcsv buffers it; a NUL byte is no text")
    func bounds() throws {
        let lines = try EBDFixtures.lines()
        let directory = try TestPaths.temporaryDirectory("ebd-bounds")
        let long = try EBDFixtures.write(lines.prefix(3) + [lines[3] + String(repeating: "x", count: 5_000)] + lines.dropFirst(4), named: "long.txt", in: directory)
        #expect { _ = try EBDAggregation(options: .init(level: .state, maxLineBytes: 4_096)).run(inputs: [long], outputDirectory: directory.path + "/a") } throws: {
            let error = $0 as? LocatedError
            return error?.kind == .tooLarge && error?.line == 4 && error?.message.hasPrefix("a line longer than 4096 bytes") == true
        }
        #expect(try StageReport.read(from: directory.path + "/a/" + EBDAggregation.reportFile).status == .rejected)
        let nul = try EBDFixtures.write(lines.prefix(3) + [lines[3].replacingOccurrences(of: "Common Loon", with: "Common\u{0}Loon")] + lines.dropFirst(4),
                                        named: "nul.txt", in: directory)
        #expect { _ = try run([nul]) } throws: { ($0 as? LocatedError)?.kind == .malformed && ($0 as? LocatedError)?.line == 4 }
    }

    @Test("the real EBD sample (../shared): 400 rows, incomplete ones skipped, shared checklists once")
    func realSample() throws {
        guard let sample = TestPaths.shared("birds/ebird/ebd-sample.txt") else { return }
        let (result, out) = try run([sample.path], level: .country)
        let rows = try #require(result.report.sources.first?.rows)
        #expect(rows.read == 400 && rows.rejected == 0)
        #expect(result.report.counts["incompleteRows"] == 10)
        #expect(result.report.outputs.map(\.file) == ["barchart-BZ.txt", "barchart-CA.txt", "barchart-GT.txt", "barchart-MX.txt", "barchart-US.txt"])
        // Its four subspecies rows count under their species: three taxa in all.
        #expect(result.report.counts["taxa"] == 3)
        // 390 complete rows; G487002's 4 members and 5 more pairs count once each.
        #expect(result.report.counts["checklists"] == 390 - 3 - 5)
        let us = try EBDFixtures.chart(out.appendingPathComponent("barchart-US.txt").path)
        #expect(us.order == ["Canada Jay", "Green Jay", "Blue Jay"])
    }
}
