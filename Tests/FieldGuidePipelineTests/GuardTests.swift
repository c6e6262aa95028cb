import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideArtifact
@testable import FieldGuidePipeline
import Testing

@Suite("Publish guards")
struct GuardTests {
    func manifest(_ sources: [(String, Int, Int)]) -> Manifest {
        Manifest(format: .init(major: Int(ArtifactFormat.majorVersion), minor: Int(ArtifactFormat.minorVersion)), tool: .init(name: "t", version: "1"), built: nil, artifacts: [
            .init(file: "aircraft.fgb", kind: "ACFT", bytes: 0, sha256: "", sections: [],
                  sources: sources.map { .init(file: $0.0, bytes: 0, sha256: "", rows: .init(read: $0.1, kept: $0.1 - $0.2, rejected: $0.2)) },
                  counts: [:]),
        ])
    }

    @Test("stems: MASTER parts and paths count as MASTER")
    func stems() {
        #expect(Guards.stem("MASTER.txt") == "MASTER")
        #expect(Guards.stem("MASTER-2.txt") == "MASTER")
        #expect(Guards.stem("input/birds/bird_database.json") == "bird_database")
        #expect(Guards.stem("BirdNET_Labels_de.txt") == "BirdNET_Labels_de")
        #expect(Guards.stem("ebirdst_runs-2023.csv") == "ebirdst_runs")
    }

    @Test("shrink: MASTER parts summed; a 1.5% drop holds, a 2.5% drop is refused with the numbers")
    func shrink() {
        let spec = GuardSpec(shrink: ["MASTER": 0.02])
        let published = manifest([("MASTER-1.txt", 150_000, 0), ("MASTER-2.txt", 150_000, 0)])
        let held = Guards.check(spec, new: manifest([("MASTER.txt", 295_500, 0)]), published: published)
        #expect(held == [.init(name: "shrink MASTER", held: true, detail: "300,000 → 295,500 rows read (−1.5%), within 2%")])
        let refused = Guards.check(spec, new: manifest([("MASTER.txt", 292_500, 0)]), published: published)
        #expect(refused == [.init(name: "shrink MASTER", held: false, detail: "300,000 → 292,500 rows read (−2.5%), more than the 2% allowed")])
        // Growth always holds; no published build yet holds.
        #expect(Guards.check(spec, new: manifest([("MASTER.txt", 400_000, 0)]), published: published).allSatisfy { $0.held })
        #expect(Guards.check(spec, new: manifest([("MASTER.txt", 1, 0)]), published: nil).allSatisfy { $0.held })
    }

    @Test("counts past Int.max (a crafted or damaged manifest) stop there instead of trapping; the guards still judge them")
    func hugeCounts() {
        let spec = GuardSpec(shrink: ["MASTER": 0.02], rejects: ["default": 0.05])
        let published = manifest([("MASTER-1.txt", .max, 0), ("MASTER-2.txt", .max, 0)])
        #expect(Guards.rowsByStem(published)["MASTER"]?.read == .max)
        let results = Guards.check(spec, new: manifest([("MASTER.txt", 10, .max), ("ACFTREF.txt", 5, 0)]), published: published)
        #expect(results.first { $0.name == "shrink MASTER" }?.held == false)
        #expect(results.first { $0.name == "rejects MASTER" }?.held == false)
        #expect(StageReport.Rows(read: .min, kept: 1) + StageReport.Rows(read: -1, kept: .max) == StageReport.Rows(read: .min, kept: .max))
    }

    @Test("rejects: a per-source limit, then the default")
    func rejects() {
        let spec = GuardSpec(rejects: ["default": 0.02, "MASTER": 0.01])
        let results = Guards.check(spec, new: manifest([("MASTER.txt", 1_000, 15), ("ACFTREF.txt", 1_000, 15)]), published: nil)
        #expect(results == [
            .init(name: "rejects ACFTREF", held: true, detail: "15 of 1,000 rows rejected (1.5%), within 2%"),
            .init(name: "rejects MASTER", held: false, detail: "15 of 1,000 rows rejected (1.5%), more than the 1% allowed"),
        ])
    }
}

@Suite("Counts in messages")
struct CountFormatTests {
    @Test("a count agrees with its noun: 1 file, 0 files, 2 files; separators kept")
    func agreement() {
        #expect(formatCount(1, "file") == "1 file")
        #expect(formatCount(0, "file") == "0 files")
        #expect(formatCount(2, "warning") == "2 warnings")
        #expect(formatCount(-1, "row") == "-1 rows")
        #expect(formatCount(316_000, "row") == "316,000 rows")
        #expect(formatCount(1, "taxon", plural: "taxa") == "1 taxon")
        #expect(formatCount(3, "taxon", plural: "taxa") == "3 taxa")
        #expect(formatCount(1, "species", plural: "species") == "1 species")
    }
}

@Suite("Percentages in guard messages")
struct PercentFormatTests {
    @Test("enough digits to be true: 1 of 99 is not '1%' next to a 1% limit")
    func distinct() {
        #expect(formatPercent(1.0 / 99, distinctFrom: 0.01) == "1.01%")
        #expect(formatPercent(0.01, distinctFrom: 0.01) == "1%")
        #expect(formatPercent(0.15, distinctFrom: 0.02) == "15%")
        #expect(formatPercent(0.0201, distinctFrom: 0.02) == "2.01%")
        #expect(formatPercent(-0.051, signed: true) == "−5.1%")
        #expect(formatPercent(0.051, signed: true) == "+5.1%")
        #expect(formatPercent(0) == "0%")
    }

    @Test("the rejects guard: 1 of 99 rows against a 1% limit says 1.01%")
    func rejectsGuard() {
        let rows = Manifest.Rows(read: 99, kept: 98, rejected: 1, warnings: 0)
        let source = Manifest.Source(file: "MASTER.txt", bytes: 1, sha256: "x", rows: rows)
        let artifact = Manifest.Artifact(file: "aircraft.fgb", kind: "ACFT", bytes: 1, sha256: "y", sections: [], sources: [source], counts: [:])
        let manifest = Manifest(format: .init(major: 1, minor: 0), tool: .init(name: "t", version: "1"), built: nil, artifacts: [artifact])
        let results = Guards.check(GuardSpec(rejects: ["MASTER": 0.01]), new: manifest, published: nil)
        #expect(results.contains { !$0.held && $0.detail == "1 of 99 rows rejected (1.01%), more than the 1% allowed" })
    }
}
