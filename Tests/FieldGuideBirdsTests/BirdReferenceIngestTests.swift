@testable import FieldGuideBirds
import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

/// The reference files (bar charts, seasons, labels, taxonomy) are read and linked to taxa at
/// ingest, into hand-off files whose columns the writer and the reader share.
@Suite("Bird ingest: reference files")
struct BirdReferenceIngestTests {
    typealias N = NormalizedBirds

    static var fenland: BirdIngest {
        var ingest = BirdIngest(taxonomyPath: projectPath("input/birds/taxonomy/taxonomy.csv"))
        ingest.barCharts = [projectPath("input/birds/ebird/barchart-fenland.txt")]
        ingest.seasons = projectPath("input/birds/ebird/ebirdst_runs_example.csv")
        ingest.labels = ["BirdNET_Labels.txt", "BirdNET_Labels_de.txt"].map { projectPath("input/birds/names/\($0)") }
        return ingest
    }

    func lines(_ path: String) throws -> [Substring] { try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") }

    @Test("bar chart, seasons and labels: linked taxa, names, chart rows and seasons in the hand-off; the report lists the files")
    func handOff() throws {
        let out = try TestPaths.temporaryDirectory("birds-references")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try Self.fenland.run(paths: [projectPath("input/birds")], outputDirectory: out.path)
        let report = result.report
        #expect(report.status == .ok)
        // The reference files follow the seed files among the sources.
        let references = Array(report.sources.dropFirst(result.files.count))
        #expect(references.map(\.file) == ["taxonomy.csv", "barchart-fenland.txt", "ebirdst_runs_example.csv", "BirdNET_Labels.txt", "BirdNET_Labels_de.txt"])
        let chartDigest = try FileDigest.sha256(ofFileAt: Self.fenland.barCharts[0]).digest
        #expect(references[1].rows == .init(read: 7, kept: 7) && references[1].sha256 == chartDigest)
        #expect(report.linkCounts["barChartUnresolved"] == 1 && report.linkCounts["barChartNonSpecies"] == 2)
        #expect(report.linkCounts["labels.de"] == 5 && report.counts["links.labels.de"] == 5)
        #expect(try StageReport.read(from: out.path + "/" + N.reportFile) == report)
        for file in ["taxa.csv", "names.csv", "bar-charts.csv", "seasons.csv"] {
            #expect(try FileDigest.sha256(ofFileAt: out.path + "/" + file).digest == report.output(named: file)?.sha256)
        }
        // One header per file, the columns' own.
        #expect(try lines(out.path + "/taxa.csv")[0] == Substring(N.TaxonColumn.header.joined(separator: ",")))
        #expect(try lines(out.path + "/seasons.csv")[0] == Substring(N.SeasonColumn.header.joined(separator: ",")))

        let linked = try LinkedTaxa.read(from: out.path)
        // The Fenland chart: six taxa in file order, then its sample sizes; "woodpecker sp."
        // resolves to the taxonomy's spuh, the hybrid to nothing.
        #expect(linked.chartRows.map(\.name) == ["Mallard", "Gray Heron", "Eurasian Bullfinch", "Bohemian Waxwing", "woodpecker sp.",
                                                 "Mallard x Gray Heron (hybrid)", ""])
        #expect(linked.chartRows.last?.taxon == nil && linked.chartRows.last?.values.first == 10)
        let woodpecker = try #require(linked.chartRows[4].taxon)
        #expect(linked.taxa[woodpecker].category == "spuh")
        let hybrid = try #require(linked.chartRows[5].taxon)
        #expect(linked.taxa[hybrid].speciesCode.isEmpty && linked.taxa[hybrid].category == "hybrid")
        let mallard = try #require(linked.taxa.firstIndex { $0.speciesCode == "mallar3" })
        #expect(linked.taxa[mallard].birdIDs == ["7c1e0000-0000-4000-8000-000000000001"])
        #expect(linked.names.contains { $0.name == "Stockente" && $0.form == "de" && $0.taxon == mallard })
        #expect(linked.seasons.map { linked.taxa[$0.taxon].speciesCode }.contains("bohwax"))
        let waxwing = try #require(linked.seasons.first { linked.taxa[$0.taxon].speciesCode == "bohwax" })
        #expect(waxwing.prebreedingMigration?.start == 308 && waxwing.prebreedingMigration?.end == 517)
    }

    @Test("a malformed bar chart is rejected at ingest with file:line; earlier outputs stay; the executable exits 1; two charts of a region or lists of a language exit 2")
    func malformedBarChart() throws {
        let out = try TestPaths.temporaryDirectory("birds-bad-chart")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try Self.fenland.run(paths: [projectPath("input/birds")], outputDirectory: out.path)
        let before = try String(contentsOfFile: out.path + "/bar-charts.csv", encoding: .utf8)
        let chart = out.appendingPathComponent("barchart-x.txt").path
        try ("Sample Size:\t" + Array(repeating: "1.0", count: 48).joined(separator: "\t") + "\nSnow Bunting\t0.1\t\n")
            .write(toFile: chart, atomically: true, encoding: .utf8)
        var ingest = Self.fenland
        ingest.barCharts = [chart]
        let report = try ingest.run(paths: [projectPath("input/birds")], outputDirectory: out.path).report
        #expect(report.status == .rejected)
        #expect(report.failure?.hasPrefix(chart + ":2: a row of the wrong length (expected 48 periods after \"Snow Bunting\"; found 1)") == true,
                "\(report.failure ?? "")")
        #expect(try String(contentsOfFile: out.path + "/bar-charts.csv", encoding: .utf8) == before)

        let run = try TestPaths.run("ingest-birds", ["input/birds", "--output", out.path + "/cli", "--barchart", chart])
        #expect(run.status == 1)
        #expect(run.stderr.contains("barchart-x.txt:2: a row of the wrong length (expected 48 periods"), "\(run.stderr)")
        #expect(try TestPaths.run("ingest-birds", ["input/birds", "--output", out.path + "/cli", "--labels", "/nonexistent_de.txt"]).status == 2)
        // Two charts of one region (both were kept, every row twice), two lists of one language: refused, naming both files.
        let charts = try TestPaths.run("ingest-birds", ["input/birds", "--output", out.path + "/twice", "--barchart",
                                                         "input/birds/ebird/barchart-fenland.txt", "fenland=" + chart])
        #expect(charts.status == 2 && charts.stderr.contains("barchart-x.txt: a second bar chart for one region (expected one bar chart per region; found region fenland in input/birds/ebird/barchart-fenland.txt too)"), "\(charts.stderr)")
        let german = out.appendingPathComponent("Other_de.txt").path
        try FileManager.default.copyItem(atPath: "input/birds/names/BirdNET_Labels_de.txt", toPath: german)
        let labels = try TestPaths.run("ingest-birds", ["input/birds", "--output", out.path + "/twice", "--labels",
                                                         "input/birds/names/BirdNET_Labels_de.txt", "input/birds/names/BirdNET_Labels_fr.txt", german])
        #expect(labels.status == 2 && labels.stderr.contains("Other_de.txt: a second labels list for one language (expected one labels list per language; found language de in input/birds/names/BirdNET_Labels_de.txt too)"), "\(labels.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path + "/twice/taxa.csv"))
        let folder = try TestPaths.run("ingest-birds", ["input/birds", "--output", out.path + "/cli", "--labels", "input/birds"])
        #expect(folder.status == 2 && folder.stderr.contains("input/birds: not a file to read (expected a labels file; found a directory)"), "\(folder.stderr)")
    }

    /// A frequency is the share of checklists reporting the taxon: finite, from 0 to 1. `Double`
    /// reads `inf`, `nan`, `1e400` (infinity) and hexadecimal (`0x0.8`, a half) too, and they reached the artifact before.
    /// A reference file refused where a user meets it: by its reader (`read`, with the whole
    /// description) and through `ingest-birds OPTION FILE` (exit `status`, the message on stderr).
    static func expectRefused(_ file: String, line: Int, message: String, option: String, status: Int32 = 1,
                              inputs: String = "input/birds", read: (String) throws -> Void) throws {
        let error = #expect(throws: LocatedError.self) { try read(file) }
        #expect(error?.description == "\(file):\(line): \(message)")
        let output = (file as NSString).deletingLastPathComponent + "-cli"
        let run = try TestPaths.run("ingest-birds", [inputs, "--output", output, option, file])
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.contains("\((file as NSString).lastPathComponent):\(line): \(message)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output + "/taxa.csv"))
    }

    @Test("a bar chart's value out of range, not finite, or a taxon listed twice: refused at its line and period, exit 1",
          arguments: [
              ("1.5", 2, "Snow Bunting period 3 (Jan 3): not a frequency (expected a frequency from 0 to 1; found 1.5)"),
              ("-0.2", 2, "Snow Bunting period 3 (Jan 3): not a frequency (expected a frequency from 0 to 1; found -0.2)"),
              ("inf", 2, "Snow Bunting period 3 (Jan 3): not a frequency (expected a frequency from 0 to 1; found inf)"),
              ("nan", 2, "Snow Bunting period 3 (Jan 3): not a frequency (expected a frequency from 0 to 1; found nan)"),
              ("1e400", 2, "Snow Bunting period 3 (Jan 3): not a frequency (expected a frequency from 0 to 1; found 1e400)"),
              ("0x0.8", 2, "Snow Bunting period 3 (Jan 3): not a frequency (expected a frequency from 0 to 1; found 0x0.8)"),
              ("sample -3", 1, "Sample Size period 3 (Jan 3): not a sample size (expected a sample size of 0 or more; found -3)"),
              ("twice", 3, "name: a taxon listed twice (expected each taxon once; found \"Snow Bunting\" on line 2 too)"),
          ])
    func barChartValues(value: String, line: Int, message: String) throws {
        let out = try TestPaths.temporaryDirectory("birds-chart-values")
        defer { try? FileManager.default.removeItem(at: out) }
        var samples = Array(repeating: "1.0", count: 48), frequencies = Array(repeating: "0.1", count: 48)
        switch value {
        case "sample -3": samples[2] = "-3"
        case "twice": break
        default: frequencies[2] = value
        }
        let row = "Snow Bunting\t" + frequencies.joined(separator: "\t") + "\t\n"
        let chart = out.appendingPathComponent("barchart-x.txt").path
        try ("Sample Size:\t" + samples.joined(separator: "\t") + "\t\n" + row + (value == "twice" ? row : ""))
            .write(toFile: chart, atomically: true, encoding: .utf8)
        try Self.expectRefused(chart, line: line, message: message, option: "--barchart") { _ = try EBirdBarChart.read($0, region: "X") }
    }

    /// A Status & Trends run's dates, flag and species, each checked: `2023-02-30` used to become
    /// day 230, `maybe` a migrant, and a second row of a species a second season for one taxon.
    @Test("a Status & Trends run with an impossible date, a half range, a flag that is neither, a species twice: refused at its line and field, exit 1",
          arguments: [
              ("breeding_start", "2023-02-30", "breeding_start: not a season date (expected a calendar date YYYY-MM-DD; found 2023-02-30)"),
              ("breeding_start", "2023-5-24", "breeding_start: not a season date (expected a calendar date YYYY-MM-DD; found 2023-5-24)"),
              ("breeding_end", "", "breeding_end: not a season date (expected a calendar date YYYY-MM-DD beside breeding_start's; found none)"),
              ("breeding_start", "", "breeding_start: not a season date (expected a calendar date YYYY-MM-DD beside breeding_end's; found none)"),
              ("nonbreeding_end", "2023-+1-05", "nonbreeding_end: not a season date (expected a calendar date YYYY-MM-DD; found 2023-+1-05)"),
              ("is_resident", "maybe", "is_resident: not a flag (expected True or False; found maybe)"),
              ("species_code", "mallar3", "species_code: a species listed twice (expected each species once; found mallar3 on line 2 too)"),
              ("header", "is_resident", "a column named twice (expected each column once; found is_resident as fields 4 and 31)"),
          ])
    func seasonRows(column: String, value: String, message: String) throws {
        let out = try TestPaths.temporaryDirectory("birds-season-rows")
        defer { try? FileManager.default.removeItem(at: out) }
        var lines = try String(contentsOfFile: projectPath("input/birds/ebird/ebirdst_runs_example.csv"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if column == "header" {   // a column named twice: the header and every row one field longer
            lines = lines.enumerated().map { $1.isEmpty ? $1 : $1 + "," + ($0 == 0 ? value : "") }
        } else {
            var fields = lines[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[header.firstIndex(of: column)!] = value
            lines[2] = fields.joined(separator: ",")
        }
        let seasons = out.appendingPathComponent("runs.csv").path
        try lines.joined(separator: "\n").write(toFile: seasons, atomically: true, encoding: .utf8)
        try Self.expectRefused(seasons, line: column == "header" ? 1 : 3, message: message, option: "--seasons") { path in
            var readings: [TextReading] = []
            _ = try SpeciesSeasonRow.read(path, readings: &readings)
        }
    }

    /// The species code keys a taxon: a second row of one was linked or dropped by chance.
    @Test("a taxonomy with a species code twice or a TAXON_ORDER that is no number: refused at its line and column by ingest-birds (exit 2, the option's file) and validate (an error)",
          arguments: [
              ("twice", 3, "SPECIES_CODE: a species code listed twice (expected each code once; found mallar3 on line 2 too)"),
              ("order", 2, "TAXON_ORDER: not a taxon order (expected a whole number; found 1O0)"),
              ("header", 1, "a column named twice (expected each column once; found SCI_NAME as fields 6 and 11)"),
          ])
    func taxonomyRows(change: String, line: Int, message: String) throws {
        let out = try TestPaths.temporaryDirectory("birds-taxonomy-rows")
        defer { try? FileManager.default.removeItem(at: out) }
        // By line feeds (the file's lines end in CR LF, one Character to a String's split).
        var lines = try String(contentsOfFile: projectPath("input/birds/taxonomy/taxonomy.csv"), encoding: .utf8).utf8
            .split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        switch change {
        case "twice": lines.insert(lines[1].replacingOccurrences(of: "Mallard", with: "Mallard Two"), at: 2)
        case "order": lines[1] = lines[1].replacingOccurrences(of: "100,", with: "1O0,")
        default: lines[0] = lines[0].replacingOccurrences(of: "\r", with: "") + ",SCI_NAME\r"
        }
        try FileManager.default.createDirectory(atPath: out.path + "/tax", withIntermediateDirectories: true)
        let taxonomy = out.path + "/tax/taxonomy.csv"
        try lines.joined(separator: "\n").write(toFile: taxonomy, atomically: true, encoding: .utf8)
        try Self.expectRefused(taxonomy, line: line, message: message, option: "--taxonomy", status: 2,
                               inputs: "input/birds/bird_database.json") { _ = try Taxonomy.read(fileAt: $0) }
        let validate = try TestPaths.run("validate", [out.path + "/tax"])
        #expect(validate.status == 1, "\(validate.stdout)\(validate.stderr)")
        #expect((validate.stdout + validate.stderr).contains("taxonomy.csv:\(line):1: error: \(message)"), "\(validate.stdout)\(validate.stderr)")
    }

    @Test("a labels line with an empty side of its _, or a species labelled twice: refused at its line, exit 1",
          arguments: [
              ("Ardea cinerea_\n", 2, "expected \"Scientific name_Common name\", found \"Ardea cinerea_\""),
              ("_Graureiher\n", 2, "expected \"Scientific name_Common name\", found \"_Graureiher\""),
              ("Anas platyrhynchos_Hausente\n", 2, "a species labelled twice (expected each scientific name once; found Anas platyrhynchos on line 1 too)"),
              ("Ardea cinerea_Graureiher\n\nAnas platyrhynchos_Hausente\n", 4,
               "a species labelled twice (expected each scientific name once; found Anas platyrhynchos on line 1 too)"),
          ])
    func labelLines(second: String, line: Int, message: String) throws {
        let out = try TestPaths.temporaryDirectory("birds-label-lines")
        defer { try? FileManager.default.removeItem(at: out) }
        let labels = out.appendingPathComponent("Labels_de.txt").path
        try ("Anas platyrhynchos_Stockente\n" + second).write(toFile: labels, atomically: true, encoding: .utf8)
        try Self.expectRefused(labels, line: line, message: message, option: "--labels") { _ = try LocalizedLabels.read($0) }
    }

    @Test("season dates: calendar dates only, leap days by their year")
    func seasonDates() {
        #expect(SpeciesSeasonRow.monthDay("2023-05-17") == 517)
        #expect(SpeciesSeasonRow.monthDay("2024-02-29") == 229)
        for text in ["2023-02-29", "2023-04-31", "2023-13-01", "2023-00-10", "2023-01-00", "23-01-01", "2023-1-1", "2023-01-01-", "", "--",
                     "2023-+1-01", "+202-01-01", "2023-01-+1", " 2023-01-1", "2023-01-1 ", "2023/01/01", "2023-01-1a", "２０２３-01-01"] {
            #expect(SpeciesSeasonRow.monthDay(text) == nil, "\(text)")
        }
    }

    @Test("the readers refuse a hand-off file whose header or width is not its columns', with the line")
    func strictReader() throws {
        let out = try TestPaths.temporaryDirectory("birds-reader")
        defer { try? FileManager.default.removeItem(at: out) }
        try "shape_id,icon,name\nCorvidae,,Crows\n".write(toFile: out.path + "/shapes.csv", atomically: true, encoding: .utf8)
        let header = #expect(throws: LocatedError.self) { try N.read(N.ShapeColumn.self, in: out.path) { _ in } }
        #expect(header?.kind == .badHandOff && header?.line == 1 && header?.expected == "shape_id,name,icon")
        try "shape_id,name,icon\nCorvidae,Crows\n".write(toFile: out.path + "/shapes.csv", atomically: true, encoding: .utf8)
        let width = #expect(throws: LocatedError.self) { try N.read(N.ShapeColumn.self, in: out.path) { _ in } }
        #expect(width?.line == 2)
        try "folded_name,name,form,taxon\nMALLARD,Mallard,common,3\n".write(toFile: out.path + "/names.csv", atomically: true, encoding: .utf8)
        try (N.TaxonColumn.header.joined(separator: ",") + "\n").write(toFile: out.path + "/taxa.csv", atomically: true, encoding: .utf8)
        for file in ["bar-charts.csv", "seasons.csv"] { try "".write(toFile: out.path + "/" + file, atomically: true, encoding: .utf8) }
        let taxon = #expect(throws: LocatedError.self) { try LinkedTaxa.read(from: out.path) }
        #expect(taxon?.file.hasSuffix("names.csv") == true && taxon?.line == 2 && taxon?.field == "taxon")
    }

    @Test("a season's dates in the hand-off: MM-DD as ingest-birds writes them, anything else refused at its line and field")
    func handOffSeasonDates() throws {
        let out = try TestPaths.temporaryDirectory("birds-season-dates")
        defer { try? FileManager.default.removeItem(at: out) }
        func write(_ file: String, _ header: [String], _ rows: [String]) throws {
            try ([header.joined(separator: ",")] + rows).map { $0 + "\n" }.joined().write(toFile: out.path + "/" + file, atomically: true, encoding: .utf8)
        }
        try write("taxa.csv", N.TaxonColumn.header, ["0,mallar3,Mallard,Anas platyrhynchos,species,Anatidae,"])
        try write("names.csv", N.NameColumn.header, [])
        try write("bar-charts.csv", N.BarChartColumn.header, [])
        func seasons(_ breedingStart: String) throws -> Result<LinkedTaxa, LocatedError> {
            try write("seasons.csv", N.SeasonColumn.header, ["0,mallar3,0,\(breedingStart),08-31,,,02-01,04-30,,"])
            do { return .success(try LinkedTaxa.read(from: out.path)) } catch { return .failure(error) }
        }
        let read = try seasons("05-17").get().seasons
        #expect(read.count == 1 && read[0].breeding?.start == 517 && read[0].breeding?.end == 831)
        #expect(read[0].prebreedingMigration?.start == 201 && read[0].prebreedingMigration?.end == 430 && read[0].nonbreeding == nil)
        for bad in ["5-17", "+5-17", "-05-17", "05-7", "05/17", "13-01", "00-10", "05-32", "05-00", "0a-17", "05-17 ", "０５-17"] {
            guard case .failure(let error) = try seasons(bad) else { Issue.record("\(bad) was read"); continue }
            #expect(error.line == 2 && error.field == "breeding_start" && error.expected == "a date MM-DD" && error.description.contains(bad), "\(bad): \(error)")
        }
    }
}
