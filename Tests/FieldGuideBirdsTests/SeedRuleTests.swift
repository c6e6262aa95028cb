import FieldGuideDiagnostics
import FieldGuideBirds
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

/// One fixture per rule under Tests/Fixtures/birds: each finding and where it is.
@Suite("Seed validation rules")
struct SeedRuleTests {
    func findings(_ relative: String, taxonomy: String? = nil) throws -> [Finding] {
        try SeedValidator(taxonomyPath: taxonomy).validate(paths: [fixture(relative)]).findings
    }

    @Test("input/birds validates clean: the nightly runs over it")
    func input() throws {
        let report = try SeedValidator().validate(paths: [projectPath("input")])
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.files.map(\.kind) == [.database, .homeData, .sharedWatchlists, .taxonomy, .watchlists])
        #expect(report.files[3].counts == ["taxa": 10, "species": 8])
    }

    @Test("a broken file next to good ones: its syntax error at the place, the others still read")
    func broken() throws {
        let files = try SeedValidator().check(paths: [fixture("broken")])
        #expect(files.map(\.kind) == [.database, .unknown, .watchlists])
        let all = files.flatMap(\.findings)
        #expect(seen(all) == [Seen(.error, .syntax, "home_data.json", 70, 17)])
        #expect(all[0].message == "expected ',' or ']' after an array element, found '{'")
        // The good files were read and checked against each other.
        #expect(files[0].counts["birds"] == 3)
        #expect(files[2].counts == ["watchlists": 1, "entries": 2])
    }

    @Test("references: shapes, variants, areas, field marks → shapes, variants → field marks")
    func references() throws {
        let found = try findings("rules/references.json")
        #expect(seen(found) == [
            Seen(.error, .reference, "references.json", 58, 28), Seen(.error, .reference, "references.json", 65, 32),
            Seen(.error, .reference, "references.json", 119, 25), Seen(.error, .reference, "references.json", 180, 34),
            Seen(.error, .reference, "references.json", 223, 34), Seen(.error, .reference, "references.json", 260, 29),
        ])
        #expect(found.map(\.pointer) == ["/reference_data/fieldMarks/3/shapeId", "/reference_data/variants/0/fieldMarkId", "/birds/0/shape_id",
                                         "/birds/1/fieldMarkData/0/variantId", "/birds/2/fieldMarkData/1/variantId", "/birds/3/fieldMarkData/1/area"])
        #expect(found[4].message == #"Common Buzzard: variant "Barred" (9d0c1000-0000-4000-8000-000000000008) belongs to the Wings field mark, not Back"#)
    }

    @Test("duplicates: shape ids, bird ids, common names, scientific names (case-insensitive)")
    func duplicates() throws {
        let found = try findings("rules/duplicates.json")
        #expect(found.map(\.rule) == [.duplicate, .duplicate, .duplicate, .duplicate])
        #expect(found.map(\.pointer) == ["/reference_data/shapes/6/id", "/birds/1/id", "/birds/2/commonName", "/birds/3/scientificName"])
        #expect(found[2].message == #"duplicate common name "mallard" (first at /birds/0/commonName)"#)
    }

    @Test("ranges: size 0–4, months 1–12 without repeats")
    func ranges() throws {
        let found = try findings("rules/ranges.json")
        #expect(found.map(\.message) == ["Mallard: size_category 7 is outside 0–4", "Gray Heron: month 13 is outside 1–12",
                                         "Gray Heron: month 2 is listed twice", "Common Buzzard: size_category -1 is outside 0–4"])
        #expect(found.map(\.pointer) == ["/birds/0/size_category", "/birds/1/validMonths/2", "/birds/1/validMonths/3", "/birds/2/size_category"])
    }

    @Test("count: total_species against the birds listed")
    func count() throws {
        let found = try findings("rules/count.json")
        #expect(seen(found) == [Seen(.error, .count, "count.json", 4, 26)])
        #expect(found[0].message == "metadata.total_species is 12 but the file lists 4 birds")
    }

    @Test("vocabulary: one edit from a more used value; a tie flags the later spelling")
    func vocabulary() throws {
        let found = try findings("rules/vocabulary.json")
        #expect(found.map(\.message) == [#"location "Wetlnds" is one edit from "Wetlands" (used 2 times): did you mean "Wetlands"?"#,
                                         #"rarity "Uncommon" is one edit from "uncommon" (used 1 time): did you mean "uncommon"?"#])
        #expect(found.allSatisfy { $0.severity == .warning && $0.rule == .vocabulary })
        var locations = Vocabulary(name: "location")
        locations.declare("Dessert", at: "/reference_data/locations/0")
        locations.add("Desert", at: "/birds/0/valid_locations/0")
        locations.add("Desert", at: "/birds/1/valid_locations/0")
        // A declared value is never the suspect, however rare.
        #expect(locations.suspects()["Desert"]?.value == "Dessert")
        #expect(Vocabulary.allowedEdits("Ring", "Long") == 1 && EditDistance.distance("Ring", "Long", limit: 1) == nil)
    }

    @Test("binomial: genus alone, lower-case genus, trinomial are warnings")
    func binomial() throws {
        let found = try findings("rules/binomial.json")
        #expect(found.map(\.message) == [#"Mallard: scientific name "Anas" is not a binomial (Genus species)"#,
                                         #"Gray Heron: scientific name "ardea cinerea" is not a binomial (Genus species)"#,
                                         #"Common Buzzard: scientific name "Buteo buteo vulpinus" is not a binomial (Genus species)"#])
        #expect(DatabaseRules.isBinomial("Passer domesticus") && DatabaseRules.isBinomial("Ninox novae-seelandiae"))
    }

    /// The rule as it was written over characters, before it read bytes.
    private static func characterBinomial(_ name: String) -> Bool {
        let parts = name.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let genus = parts[0].unicodeScalars, epithet = parts[1].unicodeScalars
        guard let first = genus.first, ("A"..."Z").contains(first), genus.count >= 2,
              genus.dropFirst().allSatisfy({ ("a"..."z").contains($0) }) else { return false }
        return epithet.count >= 2 && epithet.first != "-" && epithet.last != "-"
            && epithet.allSatisfy { ("a"..."z").contains($0) || $0 == "-" }
    }

    @Test("binomial: read as bytes, the same verdict as read by characters", arguments: [
        "Passer domesticus", "Ninox novae-seelandiae", "Anas", "ardea cinerea", "Buteo buteo vulpinus", "", " ", "A b",
        "Ab cd", "Ab c", "AB cd", "Ab -cd", "Ab cd-", "Ab c-d", "Ab  cd", " Ab cd", "Ab cd ", "Ab\tcd", "Äb cd", "Ab cä",
        "Pa\u{301}sser domesticus", "Passer \u{301}domesticus", "Passer\u{301} domesticus", "Passer domesticu\u{301}",
        "Passer\u{00A0}domesticus", "Passer domesticus\r\n", "Ab c\u{0}d", "Zz zz", "Aa aa-aa-aa", "Ab --",
    ])
    func binomialBytes(name: String) {
        #expect(DatabaseRules.isBinomial(name) == Self.characterBinomial(name), "\(name.debugDescription)")
    }

    @Test("schema: missing and mistyped fields with pointer and line:column, duplicate keys, unknown version")
    func schema() throws {
        let found = try findings("rules/schema.json")
        #expect(found.map(\.message) == [
            #"metadata.version "4.0" is not a known schema generation (3.0, 2.1, 1.2); read as 3.0"#,
            #"missing required key "commonName""#,
            #"expected "size_category" to be an integer, found a string"#,
            #"expected the elements of "validMonths" to be integers, found a string"#,
            "Tawny Owl: no validMonths: the bird never matches a location, month or field-mark filter",
            #"duplicate key "rarityLevel" (first at 224:13): readers keep only one of them"#,
        ])
        #expect(found.map(\.pointer) == ["/metadata/version", "/birds/0/commonName", "/birds/1/size_category", "/birds/2/validMonths/1",
                                         "/birds/3", "/birds/3/rarityLevel"])
        #expect(found.map(\.location) == [SourceLocation(line: 3, column: 20), SourceLocation(line: 111, column: 9), SourceLocation(line: 158, column: 30),
                                          SourceLocation(line: 203, column: 17), SourceLocation(line: 217, column: 9), SourceLocation(line: 225, column: 13)])
    }

    @Test("watchlists: start ≤ end, entries by id else common name, duplicates, location spelling")
    func watchlists() throws {
        let found = try findings("watchlist-rules")
        #expect(found.map { "\($0.severity.rawValue) \($0.rule.rawValue) \($0.pointer)" } == [
            "error range /0/startDate", "error duplicate /0/observedBirds/2", "warning reference /0/observedBirds/2/id",
            "error reference /1/observedBirds/2", "warning reference /1/toObserveBirds/0/name", "warning vocabulary /1/toObserveBirds/0/location/0",
            "error duplicate /2/id", "error reference /2/observedBirds/2", "warning reference /2/toObserveBirds/0/name",
            "warning vocabulary /2/toObserveBirds/0/location/0",
        ])
        #expect(found[0].message == #"watchlist "Spring Marsh Walk": startDate 2025-05-31T23:59:59Z is after endDate 2025-04-01T00:00:00Z"#)
        #expect(found[2].message.contains(#"matched "Mallard" by common name"#))
        #expect(found[3].message.hasPrefix(#"watchlist "Winter Garden": Hoopoe (id 0000beef-0000-4000-8000-000000000000) matches no bird"#))
    }

    @Test("home data: coordinates, weeks, probability, start ≤ end, birds, duplicate ids")
    func homeData() throws {
        let found = try findings("home-rules")
        #expect(found.map(\.message) == [
            #"hotspot "North Reservoir": latitude 95.5 is outside -90…90"#,
            #"hotspot "North Reservoir": week 54 is outside 1–53"#,
            #"hotspot "North Reservoir": week 11 is listed twice"#,
            #"hotspot "North Reservoir": probability 120 is outside 0–100"#,
            #"hotspot "Beech Hanger": longitude -181.0 is outside -180…180"#,
            #"hotspot "Beech Hanger": birdId "7c1e0000-0000-4000-8000-000000000099" is not a bird in \#(fixture("home-rules/bird_database.json"))"#,
            "migration session M-0001: startWeek 47 is after endWeek 46",
            #"duplicate migration session id "M-0001" (first at /migration_sessions/0/id)"#,
            "migration session M-0001: trajectory week 15 is outside the session's weeks 10–13",
        ])
        #expect(found.map(\.line) == [7, 76, 77, 79, 88, 93, 178, 234, 263])
    }

    @Test("taxonomy (2021 header): family, common name and scientific name disagreements")
    func taxonomy() throws {
        let found = try findings("taxonomy-rules")
        #expect(found.map(\.message) == [
            #"Mallard: family "Anseranatidae" disagrees with the taxonomy; closest taxon: Mallard (Anas platyrhynchos, mallar3) in Anatidae (Ducks, Geese, and Waterfowl)"#,
            #"Grey Heron: common name differs from the taxonomy's "Gray Heron" for Ardea cinerea (graher1)"#,
            #"Tawny Owl: scientific name "Strix alucco" is not in the taxonomy; closest taxon: Tawny Owl (Strix aluco, tawowl1)"#,
        ])
        let taxonomy = try Taxonomy.read(fileAt: fixture("taxonomy-rules/taxonomy-2021.csv"))
        #expect(taxonomy.orderColumn == "ORDER1" && !taxonomy.hasConceptIDs)
        let newer = try Taxonomy.read(fileAt: projectPath("input/birds/taxonomy/taxonomy.csv"))
        #expect(newer.orderColumn == "ORDER" && newer.hasConceptIDs)
        #expect(newer.taxon(scientificName: "Anas platyrhynchos")?.conceptID == "avibase-BBA7A6C1")
        #expect(newer.taxon(scientificName: "Bombycilla garrulus")?.category == "species")
        #expect(newer.taxa.first?.family == "Anatidae (Ducks, Geese, and Waterfowl)")
    }

    @Test("a CSV that is not a taxonomy: an error when named, skipped inside a directory")
    func wrongTaxonomyHeader() throws {
        let directory = try TestPaths.temporaryDirectory("birds-csv")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("other.csv").path
        try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try SeedValidator().validate(paths: [directory.path]).files.isEmpty)
        let named = try SeedValidator().validate(paths: [path])
        #expect(named.findings.map(\.rule) == [.schema])
        #expect(named.findings.first?.message.hasPrefix("expected an eBird/Clements taxonomy header with CATEGORY") == true)
        #expect(throws: LocatedError.self) { try SeedValidator(taxonomyPath: path).validate(paths: [fixture("generations/v3_0")]) }
    }

    @Test("each schema generation reads into the same current model")
    func generations() throws {
        var models: [SchemaGeneration: BirdDatabase] = [:]
        for name in ["v1_2", "v2_1", "v3_0"] {
            let files = try SeedValidator().check(paths: [fixture("generations/\(name)")])
            #expect(files.flatMap(\.findings).isEmpty)
            guard case let .database(database, _) = files[0].content else { Issue.record("not a database"); continue }
            models[database.generation] = database
        }
        let v12 = try #require(models[.v1_2]), v21 = try #require(models[.v2_1]), v30 = try #require(models[.v3_0])
        #expect(v21.birds[0].layout.fieldMarks == "fieldMarks" && v30.birds[0].layout.fieldMarks == "fieldMarkData")
        for (old, new) in zip(v12.birds, v30.birds) {
            #expect(old.commonName == new.commonName && old.scientificName == new.scientificName)
            #expect(old.shapeID == new.shapeID && old.sizeCategory == new.sizeCategory && old.rarity == new.rarity)
            #expect(old.months == new.months && old.locations == new.locations)
            #expect(old.fieldMarks.map(\.area) == new.fieldMarks.map(\.area))
        }
        #expect(v12.birds[0].fieldMarks[0].variantID == "1.2:Back:Plain" && v12.birds[0].fieldMarks[0].colors == ["Brown"])
        #expect(v12.variants.count == v30.variants.count)
        #expect(v21.birds.map(\.fieldMarks) .map(\.count) == v30.birds.map(\.fieldMarks).map(\.count))
    }

    @Test("formats: human, json, github")
    func formats() throws {
        let report = try SeedValidator().validate(paths: [fixture("rules/count.json")])
        let human = try FindingFormatter.format(report, as: .human)
        #expect(human == "\(fixture("rules/count.json")):4:26: error: metadata.total_species is 12 but the file lists 4 birds\n")
        let github = try FindingFormatter.format(report, as: .github)
        #expect(github == "::error file=\(fixture("rules/count.json")),line=4,col=26,title=count::metadata.total_species is 12 but the file lists 4 birds\n")
        #expect(FindingFormatter.github(Finding(.warning, .vocabulary, file: "a,b:c.json", location: SourceLocation(line: 1, column: 2),
                                                pointer: "", message: "50% off\nnext")) == "::warning file=a%2Cb%3Ac.json,line=1,col=2,title=vocabulary::50%25 off%0Anext\n")
        let json = try FindingFormatter.format(report, as: .json)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(decoded?["errors"] as? Int == 1 && decoded?["warnings"] as? Int == 0)
        let finding = (decoded?["findings"] as? [[String: Any]])?.first
        #expect(finding?["pointer"] as? String == "/metadata/total_species")
        #expect(finding?["line"] as? Int == 4 && finding?["column"] as? Int == 26 && finding?["rule"] as? String == "count")
        #expect(((decoded?["files"] as? [[String: Any]])?.first?["generation"]) as? String == "3.0")
    }

    @Test("a path that does not exist is a missing file (a usage or I/O exit)")
    func missingPath() {
        #expect(throws: LocatedError(.missingFile, file: "/nonexistent/birds", message: "no such file or directory")) {
            try SeedValidator().validate(paths: ["/nonexistent/birds"])
        }
    }
}
