import FieldGuideBirds
import Foundation
import Testing
import TestSupport

/// The real seed files in ../shared/data/birds: every one is read and its findings asserted.
/// Each expected finding was checked by hand against the file (line, column and content).
@Suite("Real seed data")
struct RealSeedDataTests {
    static let taxonomyFile = "birds/taxonomy/eBird_Taxonomy_v2021.csv"

    @Test("skytrails/: every file read; the findings are exactly the known problems")
    func skytrails() throws {
        guard let directory = TestPaths.shared("birds/skytrails") else { return }
        var validator = SeedValidator()
        validator.includeHistory = true   // history/ too: the older generations' known problems
        let report = try validator.validate(paths: [directory.path])
        let kinds = report.files.map { "\(($0.file as NSString).lastPathComponent):\($0.kind.rawValue):\($0.generation?.rawValue ?? "-")" }
        #expect(kinds == ["bird_database.json:database:3.0", "bird_database.ac71935.json:database:2.1", "bird_database.daf1338.json:database:1.2",
                          "home_data.json:homeData:-", "sharedWatchlists.json:sharedWatchlists:-", "watchlists.json:watchlists:-"])
        #expect(report.files.map { $0.counts["birds"] ?? 0 } == [46, 46, 50, 0, 0, 0])
        #expect(report.files[3].counts == ["hotspots": 10, "hotspotSpecies": 32, "migrationSessions": 7, "trajectoryPoints": 85])
        #expect(report.files[4].counts == ["watchlists": 2, "entries": 16])
        #expect(report.files[5].counts == ["watchlists": 6, "entries": 47])

        let byFile = Dictionary(grouping: report.findings) { ($0.file as NSString).lastPathComponent }
        // Current database: total_species (46) agrees; the first bird has no months, locations or marks;
        // "Dessert" (line 1253) next to "Desert" (line 661).
        #expect(seen(byFile["bird_database.json"] ?? []) == [
            Seen(.warning, .schema, "bird_database.json", 421, 9),
            Seen(.warning, .vocabulary, "bird_database.json", 1253, 17),
        ])
        #expect(byFile["bird_database.json"]?[0].message.hasPrefix("Amur Falcon: no validLocations, validMonths, fieldMarkData") == true)
        #expect(byFile["bird_database.json"]?[1].message == #"location "Dessert" is one edit from "Desert" (used 1 time): did you mean "Desert"?"#)
        #expect(byFile["bird_database.json"]?[1].pointer == "/birds/25/validLocations/0")

        // 2.1: says 50 species but lists 46; "Dessert" once against "Desert" twice.
        let v21 = byFile["bird_database.ac71935.json"] ?? []
        #expect(seen(v21) == [Seen(.error, .count, "bird_database.ac71935.json", 4, 26), Seen(.warning, .vocabulary, "bird_database.ac71935.json", 1219, 17)])
        #expect(v21.first?.message == "metadata.total_species is 50 but the file lists 46 birds")
        #expect(v21.last?.message.contains(#""Dessert" is one edit from "Desert" (used 2 times)"#) == true)

        // 1.2: says 33 species but lists 50; sizes of 5; variants and an area its catalog lacks.
        let v12 = byFile["bird_database.daf1338.json"] ?? []
        #expect(v12.first?.message == "metadata.total_species is 33 but the file lists 50 birds")
        #expect(v12.first.map(Seen.init) == Seen(.error, .count, "bird_database.daf1338.json", 4, 22))
        let sizes = v12.filter { $0.rule == .range }
        #expect(sizes.map { $0.message.components(separatedBy: ":")[0] } == ["Indian Peafowl", "Greater Flamingo", "Sarus Crane", "Painted Stork", "Great Indian Bustard"])
        #expect(sizes.allSatisfy { $0.message.hasSuffix("size_category 5 is outside 0–4") && $0.column == 26 })
        #expect(sizes.first?.line == 351)
        let variants = v12.filter { $0.rule == .reference && $0.message.contains("is not a variant") }
        #expect(variants.count == 10)
        #expect(variants.first?.message == #"Great Hornbill: "Broad" is not a variant of the Wings field mark (variants: Solid, Bar, Striped, Patch)"#)
        #expect(variants.first.map(Seen.init) == Seen(.error, .reference, "bird_database.daf1338.json", 317, 22))
        let areas = v12.filter { $0.message.contains(#"area "Head""#) }
        #expect(areas.map(\.line) == [1597, 1761, 1851])
        #expect(v12.count == 1 + 5 + 10 + 3)
        #expect(v12.allSatisfy { $0.severity == .error })

        // Watchlists: the Great Indian Bustard seen in "Dessert"; everything else resolves.
        #expect(seen(byFile["watchlists.json"] ?? []) == [Seen(.warning, .vocabulary, "watchlists.json", 447, 21)])
        #expect(byFile["home_data.json"] == nil)
        #expect(byFile["sharedWatchlists.json"] == nil)
        #expect(report.errors == 20 && report.warnings == 4)
        #expect(!report.passes(strict: false))
    }

    @Test("both historical versions are valid JSON (the parser agrees with Foundation)")
    func historyParses() throws {
        guard let directory = TestPaths.shared("birds/skytrails/history") else { return }
        for name in ["bird_database.ac71935.json", "bird_database.daf1338.json"] {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let document = try JSONDocument.parse([UInt8](data))
            let foundation = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(document.root["birds"]?.array?.count == (foundation?["birds"] as? [Any])?.count)
        }
    }

    @Test("the current database with the 2021 taxonomy: linked by scientific name, disagreements named")
    func taxonomy() throws {
        guard let database = TestPaths.shared("birds/skytrails/bird_database.json"),
              let csv = TestPaths.shared(Self.taxonomyFile) else { return }
        let report = try SeedValidator(taxonomyPath: csv.path).validate(paths: [database.path])
        let warnings = report.findings.filter { $0.rule == .taxonomy }
        #expect(warnings.map { "\($0.line):\($0.message.components(separatedBy: ":")[0])" } == [
            "1073:Indian Paradise Flycatcher", "1100:Indian Robin", "1276:Coppersmith Barbet", "1303:Laughing Dove",
            "1332:Spotted Dove", "1363:Brown-headed Barbet", "1766:Indian Grey Hornbill",
        ])
        #expect(warnings[1].message == #"Indian Robin: scientific name "Saxicoloides fulicatus" is not in the taxonomy; closest taxon: Indian Robin (Copsychus fulicatus, indrob1)"#)
        #expect(warnings[2].message.contains(#"family "Picidae" disagrees with the taxonomy; closest taxon: Coppersmith Barbet (Psilopogon haemacephalus, copbar1) in Megalaimidae (Asian Barbets)"#))
        #expect(warnings[3].message.hasSuffix("closest taxon: Laughing Dove (Streptopelia senegalensis, laudov1)"))
        #expect(warnings[6].message.contains(#"differs from the taxonomy's "Indian Gray Hornbill""#))

        let decoded = try #require(SeedValidator().check(paths: [database.path]).first)
        guard case let .database(birds, _) = decoded.content else { Issue.record("not a database"); return }
        let links = TaxonomyLinker(taxonomy: try Taxonomy.read(fileAt: csv.path)).link(birds, sink: nil)
        #expect(links.count == 43)   // 46 birds, 3 scientific names not in the 2021 taxonomy
        #expect(links["550e8400-e29b-41d4-a716-446655440001"]?.speciesCode == "houspa")
    }

    @Test("the 2021 taxonomy CSV: BOM, ORDER1, no concept ids, 16,753 taxa, 10,824 species")
    func taxonomyFile() throws {
        guard let csv = TestPaths.shared(Self.taxonomyFile) else { return }
        let taxonomy = try Taxonomy.read(fileAt: csv.path)
        #expect(taxonomy.taxa.count == 16_753)
        #expect(taxonomy.taxa.filter { $0.category == "species" }.count == 10_824)
        #expect(taxonomy.orderColumn == "ORDER1" && !taxonomy.hasConceptIDs)
        let ostrich = try #require(taxonomy.taxa.first)
        #expect(ostrich.taxonOrder == 1 && ostrich.speciesCode == "ostric2" && ostrich.order == "Struthioniformes")
        #expect(ostrich.familyName == "Struthionidae" && ostrich.line == 2)
        #expect(taxonomy.taxon(scientificName: "Passer domesticus")?.family == "Passeridae (Old World Sparrows)")
        #expect(taxonomy.taxon(commonName: "indian scops owl")?.scientificName == "Otus bakkamoena")
    }
}
