@testable import FieldGuide
import FieldGuideBirds
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// BirdNET's controls (48 periods, a threshold, include and exclude lists) and the rarity class
/// per region and period, on the real Svalbard chart and on a chart aggregate-ebd computed.
@Suite("Rarity and BirdNET-style species lists")
struct RarityTests {
    @Test("the scale: common from 10%, uncommon from 2%, rare above 0, nothing under 10 checklists")
    func scale() {
        let scale = RarityScale.standard
        #expect(scale.rarity(frequency: 0.1, checklists: 10) == .common)
        #expect(scale.rarity(frequency: 0.0999, checklists: 500) == .uncommon)
        #expect(scale.rarity(frequency: 0.02, checklists: 500) == .uncommon)
        #expect(scale.rarity(frequency: 0.0199, checklists: 500) == .rare)
        #expect(scale.rarity(frequency: 0, checklists: 500) == nil)
        #expect(scale.rarity(frequency: 1, checklists: 9) == .tooFewChecklists)
        #expect(RarityScale(common: 0.5, uncommon: 0.1, minimumChecklists: 1).rarity(frequency: 0.2, checklists: 1) == .uncommon)
    }

    @Test("a period's week: the week holding its first day")
    func weeks() {
        #expect(BirdsBundle.week(ofPeriod: 1) == 1)       // 1 January
        #expect(BirdsBundle.week(ofPeriod: 4) == 4)       // 22 January
        #expect(BirdsBundle.week(ofPeriod: 26) == 27)     // 8 July: day 189
        #expect(BirdsBundle.week(ofPeriod: 48) == 51)     // 22 December: day 356
        for period in 1...48 { #expect(BirdsBundle.barChartPeriod(week: BirdsBundle.week(ofPeriod: period)) <= period) }
        #expect(BirdsBundle.week(ofPeriod: -3) == 1 && BirdsBundle.week(ofPeriod: 99) == 51)   // -3 trapped on prefix(-1)
    }

    @Test("Svalbard, 8–14 July: classes by frequency, the threshold and the lists")
    func svalbard() throws {
        guard let birds = RealBirds.built?.bundle else { return }
        #expect(birds.rarity(of: "Ivory Gull", region: "Svalbard", period: 26) == .uncommon)    // 0.096 of 509
        #expect(birds.rarity(of: "Ivory Gull", region: "Svalbard", period: 1) == .tooFewChecklists)  // no checklists
        let period = birds.occurrence(inRegion: "Svalbard", period: 26)
        #expect(period.period == "period 26")
        let gull = try #require(period.present.first { $0.commonName == "Ivory Gull" })
        #expect(gull.rarity == .uncommon)
        let common = period.present.filter { $0.rarity == .common }.map(\.commonName)
        #expect(common.contains("Black-legged Kittiwake"))
        // BirdNET's location filter: 0.1 keeps the common ones only (the bar chart is the only regional word here).
        let thresholded = period.filtered(SpeciesFilter(threshold: 0.1))
        #expect(Set(thresholded.present.map(\.commonName)) == Set(common))
        let directory = try TestPaths.temporaryDirectory("lists")
        let list = directory.appendingPathComponent("exclude.txt")
        try Data("# gulls we do not want\nPagophila eburnea_Ivory Gull\nbklkit\n".utf8).write(to: list)
        let excluded = period.filtered(SpeciesFilter(exclude: try SpeciesFilter.list(contentsOf: list.path)))
        #expect(!excluded.present.contains { $0.commonName == "Ivory Gull" || $0.commonName == "Black-legged Kittiwake" })
        #expect(excluded.present.count == period.present.count - 2)
        let included = period.filtered(SpeciesFilter(include: try SpeciesFilter.list(contentsOf: list.path)))
        #expect(included.present.map(\.commonName).sorted() == ["Black-legged Kittiwake", "Ivory Gull"])
        #expect(included.absent.isEmpty && included.unknown.isEmpty)
    }

    @Test("fieldguide species --period, --min-frequency, --exclude; mistakes exit 2")
    func command() throws {
        guard let built = RealBirds.built else { return }
        let directory = try TestPaths.temporaryDirectory("lists-cli")
        let list = directory.appendingPathComponent("exclude.txt")
        try Data("Pagophila eburnea_Ivory Gull\n".utf8).write(to: list)
        let base = ["species", "--region", "Svalbard", "--period", "26", "--bundle", built.bundle.path]
        let all = try TestPaths.run("fieldguide", base)
        #expect(all.status == 0)
        #expect(all.stdout.contains("Ivory Gull (Pagophila eburnea) [uncommon]: bar chart: frequency 0.096 (509 checklists)"))
        // The real chart's periods of one checklist (Nov 1) and of over a thousand (Jun 4), as frequency prints them.
        let one = try TestPaths.run("fieldguide", ["frequency", "Ivory Gull", "--region", "Svalbard", "--period", "41", "--bundle", built.bundle.path])
        #expect(one.stdout.hasSuffix("  (1 checklist)\n"), "\(one.stdout)")
        let many = try TestPaths.run("fieldguide", ["frequency", "Ivory Gull", "--region", "Svalbard", "--period", "24", "--bundle", built.bundle.path])
        #expect(many.stdout.hasSuffix("  (1,095 checklists)\n"), "\(many.stdout)")
        let filtered = try TestPaths.run("fieldguide", base + ["--min-frequency", "0.05", "--exclude", list.path, "--format", "json"])
        #expect(filtered.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(filtered.stdout.utf8)) as? [String: Any]
        let present = (json?["present"] as? [[String: Any]]) ?? []
        #expect(!present.isEmpty && !present.contains { $0["commonName"] as? String == "Ivory Gull" })
        #expect(present.allSatisfy { ["common", "uncommon"].contains($0["rarity"] as? String) })
        #expect(try TestPaths.run("fieldguide", ["species", "--region", "Svalbard", "--period", "49", "--bundle", built.bundle.path]).status == 2)
        #expect(try TestPaths.run("fieldguide", base + ["--min-frequency", "2"]).status == 2)
        let missing = try TestPaths.run("fieldguide", base + ["--include", "/nonexistent/list.txt"])
        #expect(missing.status == 2 && missing.stderr.contains("--include: /nonexistent/list.txt: no such file or directory"), "\(missing.stderr)")
        // A directory, a device (no bound could hold), a Latin-1 list: each named with its option.
        let folder = try TestPaths.run("fieldguide", base + ["--exclude", list.deletingLastPathComponent().path])
        #expect(folder.status == 2 && folder.stderr.contains("not a file to read (expected a list of taxa, one a line; found a directory)"), "\(folder.stderr)")
        #expect(try TestPaths.run("fieldguide", base + ["--include", "/dev/zero"]).stderr.contains("--include: /dev/zero: not a file to read"))
        let latin1 = list.deletingLastPathComponent().appendingPathComponent("latin1.txt")
        try Data([0x4D, 0xF6, 0x77, 0x65, 0x0A]).write(to: latin1)   // "Möwe" in Latin-1
        let encoding = try TestPaths.run("fieldguide", base + ["--exclude", latin1.path])
        #expect(encoding.status == 1 && encoding.stderr.contains("--exclude: \(latin1.path): not UTF-8 text"), "\(encoding.stderr)")
    }

    @Test("a chart aggregate-ebd computed: read by ingest-birds under its region code, classed by the sample-size floor")
    func computedChart() throws {
        guard let taxonomy = TestPaths.shared("birds/taxonomy/eBird_Taxonomy_v2021.csv") else { return }
        let directory = try TestPaths.temporaryDirectory("computed-chart")
        let ebd = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/birds/ebd/ebd-small.txt").path
        _ = try EBDAggregation(options: .init(level: .state)).run(inputs: [ebd], outputDirectory: directory.appendingPathComponent("charts").path)
        var ingest = FixtureBirds.ingest
        ingest.taxonomyPath = taxonomy.path
        ingest.barCharts = [directory.appendingPathComponent("charts/barchart-US-NY.txt").path]
        _ = try ingest.run(paths: [FixtureBirds.input.appendingPathComponent("bird_database.json").path],
                           outputDirectory: directory.appendingPathComponent("stage").path)
        let emit = try BirdsEmit.run(.init(handOff: directory.appendingPathComponent("stage").path), outputDirectory: directory.path, environment: [:])
        let birds = try BirdsBundle(path: emit.artifactPath)
        #expect(birds.barChartRegions.contains("US-NY"))
        #expect(birds.frequency(of: "Blue Jay", region: "US-NY", period: 1) == 1)
        #expect(birds.sampleSizes(region: "US-NY")?.prefix(2) == [3, 1])
        // Three checklists are fewer than the floor: no class is said.
        #expect(birds.rarity(of: "Blue Jay", region: "US-NY", period: 1) == .tooFewChecklists)
        #expect(birds.rarity(of: "Blue Jay", region: "US-NY", period: 1, scale: RarityScale(minimumChecklists: 3)) == .common)
        let text = try TestPaths.run("fieldguide", ["species", "--region", "US-NY", "--period", "1", "--bundle", emit.artifactPath])
        #expect(text.stdout.contains("Blue Jay (Cyanocitta cristata) [too few checklists]: bar chart: frequency 1 (3 checklists)"), "\(text.stdout)")
    }
}
