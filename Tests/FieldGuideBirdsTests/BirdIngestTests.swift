import FieldGuideBirds
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

@Suite("Bird ingest")
struct BirdIngestTests {
    @Test("a seed file's counts in words that agree with them; a key without words as it is")
    func countWords() {
        #expect(SeedFileSummary.countText(1, key: "watchlists") == "1 watchlist")
        #expect(SeedFileSummary.countText(4, key: "fieldMarks") == "4 field marks")
        #expect(SeedFileSummary.countText(1, key: "hotspotSpecies") == "1 hotspot species entry")
        #expect(SeedFileSummary.countText(1, key: "taxa") == "1 taxon" && SeedFileSummary.countText(2, key: "species") == "2 species")
        #expect(SeedFileSummary.countText(1_204, key: "somethingNew") == "1,204 somethingNew")
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test("input/birds: normalized files with species codes, ISO dates, hashes; byte-identical on a rerun")
    func input() throws {
        let out = try TestPaths.temporaryDirectory("birds-ingest")
        defer { try? FileManager.default.removeItem(at: out) }
        let report = try BirdIngest().run(paths: [projectPath("input/birds")], outputDirectory: out.path).report
        #expect(report.status == .ok && report.generation == "3.0" && report.findings == .init(errors: 0, warnings: 0, listed: []))
        #expect(report.sources.map(\.file).contains("bird_database.json"))
        #expect(report.counts["species"] == 8 && report.counts["watchlist-entries"] == 9 && report.counts["hotspot-species"] == 4)
        #expect(report.counts["migration-points"] == 11 && report.counts["linkedToTaxonomy"] == 8)
        for output in report.outputs {
            #expect(try FileDigest.sha256(ofFileAt: out.path + "/" + output.file) == (output.sha256, output.bytes))
        }
        #expect(try StageReport.read(from: out.path + "/birds-ingest.json") == report)
        let species = try read(out.path + "/species.csv").split(separator: "\n")
        #expect(species[0] == "bird_id,species_code,common_name,scientific_name,family,order,rarity,shape_id,size_category,months,locations,image_name")
        #expect(species[7] == "7c1e0000-0000-4000-8000-000000000007,eurbul,Eurasian Bullfinch,Pyrrhula pyrrhula,Fringillidae,Passeriformes,uncommon,Passeridae_Fringillidae,1,10;11;12;1;2;3,Woodland,eurasian_bullfinch")
        let lists = try read(out.path + "/watchlists.csv")
        #expect(lists.contains("5B7D0E20-0000-4000-8000-000000000001,shared,Reservoir Count,North Reservoir,2025-03-01T00:00:00Z,2025-03-31T23:59:59Z,1st Mar - 31st Mar,gray_heron\n"))
        let entries = try read(out.path + "/watchlist-entries.csv")
        #expect(entries.contains("3F2A9C10-0000-4000-8000-000000000001,observedBirds,7c1e0000-0000-4000-8000-000000000001,Mallard,2025-04-03T07:12:05Z\n"))
        #expect(try read(out.path + "/migration-points.csv").contains("M-0001,41,62.2,22.5,35\n"))

        let again = try TestPaths.temporaryDirectory("birds-ingest-again")
        defer { try? FileManager.default.removeItem(at: again) }
        let second = try BirdIngest().run(paths: [projectPath("input/birds")], outputDirectory: again.path).report
        #expect(second.outputs == report.outputs)
        #expect(try read(again.path + "/birds-ingest.json") == read(out.path + "/birds-ingest.json"))
    }

    @Test("a 1.2 database is migrated: the report says so, variants get their 1.2 ids")
    func legacy() throws {
        let out = try TestPaths.temporaryDirectory("birds-ingest-12")
        defer { try? FileManager.default.removeItem(at: out) }
        let report = try BirdIngest(taxonomyPath: projectPath("input/birds/taxonomy/taxonomy.csv"))
            .run(paths: [fixture("generations/v1_2")], outputDirectory: out.path).report
        #expect(report.generation == "1.2" && report.status == .ok)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("birds-ingest.json"))) as? [String: Any]
        #expect(json?["generation"] as? String == "1.2")
        let marks = try read(out.path + "/species-field-marks.csv")
        #expect(marks.contains("b_001,Back,1.2:Back:Plain,Plain,Brown\n"))
        // The family comes from the taxonomy when 1.2 has none.
        #expect(try read(out.path + "/species.csv").contains("b_002,graher1,Gray Heron,Ardea cinerea,Ardeidae,Pelecaniformes,common,Ardeidae,4,"))
    }

    @Test("errors stop the ingest: only a failed report, earlier outputs untouched")
    func errors() throws {
        let out = try TestPaths.temporaryDirectory("birds-ingest-fail")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try BirdIngest().run(paths: [projectPath("input/birds")], outputDirectory: out.path)
        let before = try read(out.path + "/species.csv")
        let report = try BirdIngest().run(paths: [fixture("home-rules")], outputDirectory: out.path).report
        #expect(report.status == .rejected && report.failure == "9 errors in the seed files")
        #expect(try read(out.path + "/species.csv") == before)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("birds-ingest.json"))) as? [String: Any]
        #expect(json?["status"] as? String == "rejected")
        #expect(((json?["findings"] as? [String: Any])?["listed"] as? [Any])?.count == 9)
        #expect(report.findings.errors == 9 && report.findings.listed?.first?.rule != nil)
    }

    @Test("one database only: none or two is a usage error")
    func databaseCount() throws {
        let out = try TestPaths.temporaryDirectory("birds-ingest-count").path
        #expect(throws: LocatedError.self) { try BirdIngest().run(paths: [fixture("generations")], outputDirectory: out) }
        #expect(throws: LocatedError.self) { try BirdIngest().run(paths: [projectPath("input/birds/home_data.json")], outputDirectory: out) }
    }
}
