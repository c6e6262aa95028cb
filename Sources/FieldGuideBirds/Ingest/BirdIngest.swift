import FieldGuideDiagnostics
import FieldGuideCSV
import FieldGuideCore
import Foundation

/// The normalized files `ingest-birds` writes, and their columns.
///
/// Lists inside a field (months, locations, weeks, dates) are joined with `;`. Dates are
/// ISO 8601 UTC, converted from the seed files' seconds since 2001-01-01. Rows are in the
/// order of the seed files, so identical inputs give byte-identical outputs.
public enum NormalizedBirds {
    public static let speciesFile = "species.csv"
    public static let fieldMarksFile = "species-field-marks.csv"
    public static let shapesFile = "shapes.csv"
    public static let variantsFile = "field-mark-variants.csv"
    public static let watchlistsFile = "watchlists.csv"
    public static let watchlistEntriesFile = "watchlist-entries.csv"
    public static let hotspotsFile = "hotspots.csv"
    public static let hotspotSpeciesFile = "hotspot-species.csv"
    public static let migrationFile = "migration-sessions.csv"
    public static let trajectoryFile = "migration-points.csv"
    public static let reportFile = "birds-ingest.json"

    public static let speciesHeader = ["bird_id", "species_code", "common_name", "scientific_name", "family", "order", "rarity",
                                       "shape_id", "size_category", "months", "locations", "image_name"]
    public static let fieldMarksHeader = ["bird_id", "area", "variant_id", "variant_name", "colors"]
    public static let shapesHeader = ["shape_id", "name", "icon"]
    public static let variantsHeader = ["variant_id", "field_mark_id", "shape_id", "area", "name"]
    public static let watchlistsHeader = ["watchlist_id", "kind", "title", "location", "start", "end", "date_range", "main_image_name"]
    public static let watchlistEntriesHeader = ["watchlist_id", "list", "bird_id", "name", "dates"]
    public static let hotspotsHeader = ["hotspot_id", "name", "locality", "latitude", "longitude", "image_name"]
    public static let hotspotSpeciesHeader = ["hotspot_id", "bird_id", "probability", "weeks"]
    public static let migrationHeader = ["session_id", "bird_id", "start_week", "end_week", "hemisphere"]
    public static let trajectoryHeader = ["session_id", "week", "latitude", "longitude", "probability"]
}

/// What `ingest-birds` read and wrote: per file kind, generation, hash and counts; every
/// finding; and the SHA-256 of each output (the hand-off the next stage checks).
public struct BirdIngestReport: Sendable, Codable {
    public var status: String
    public var failure: String?
    /// The generation of the bird database read (`3.0`, `2.1`, `1.2`), migrated to the current model.
    public var generation: SchemaGeneration?
    public var files: [SeedFileSummary]
    public var counts: [String: Int]
    public var findings: [Finding]
    public var outputs: [String: String]
}

/// Reads one bird database (any generation) with its watchlists, home data and an optional
/// taxonomy, validates them, and writes the normalized CSV files and a JSON report.
///
/// Errors stop the ingest: only the report (status `failed`) is written and earlier outputs
/// stay as they were. Warnings are reported and the outputs written.
///
/// ```swift
/// let report = try BirdIngest(taxonomyPath: "taxonomy.csv").run(paths: ["input/birds"], outputDirectory: "output/stage/birds")
/// report.generation   // .v3_0
/// ```
public struct BirdIngest: Sendable {
    public var taxonomyPath: String?

    public init(taxonomyPath: String? = nil) { self.taxonomyPath = taxonomyPath }

    public func run(paths: [String], outputDirectory: String) throws(LocatedError) -> BirdIngestReport {
        let validator = SeedValidator(taxonomyPath: taxonomyPath)
        let files = try validator.check(paths: paths)
        let validation = SeedValidator.report(files)
        let databases = files.compactMap { file -> (SeedFile, BirdDatabase)? in
            if case let .database(database, _) = file.content { return (file, database) }
            return nil
        }
        let summaries = validation.files
        var report = BirdIngestReport(status: "ok", failure: nil, generation: databases.first?.1.generation, files: summaries,
                                      counts: [:], findings: validation.findings, outputs: [:])
        let out = { (name: String) in outputDirectory + "/" + name }

        guard databases.count == 1 else {
            let names = databases.map(\.0.path)
            throw LocatedError(.usage, file: "", message: names.isEmpty ? "no bird database among \(paths.joined(separator: ", "))"
                                                                    : "more than one bird database: \(names.joined(separator: ", ")); ingest one at a time")
        }
        let (databaseFile, database) = databases[0]
        if validation.errors > 0 {
            report.status = "failed"
            report.failure = "\(validation.errors) errors in the seed files"
            try JSON.write(report, to: out(NormalizedBirds.reportFile))
            return report
        }

        var taxonomy: Taxonomy?
        if let taxonomyPath {
            taxonomy = try SeedValidator.readTaxonomy(option: taxonomyPath)
        } else {
            for file in files { if case let .taxonomy(found) = file.content { taxonomy = found; break } }
        }
        let links = taxonomy.map { TaxonomyLinker(taxonomy: $0).link(database, sink: nil) } ?? [:]
        let index = DatabaseIndex.make(database, file: databaseFile.path)

        var tables: [(String, [String], [[String]])] = []
        var species: [[String]] = [], marks: [[String]] = []
        let variants = Dictionary(database.variants.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for bird in database.birds {
            species.append([bird.id, links[bird.id]?.speciesCode ?? "", bird.commonName, bird.scientificName, bird.family ?? links[bird.id]?.familyName ?? "",
                            bird.order ?? links[bird.id]?.order ?? "", bird.rarity ?? "", bird.shapeID, String(bird.sizeCategory),
                            bird.months.map(String.init).joined(separator: ";"), bird.locations.joined(separator: ";"), bird.imageName ?? ""])
            for mark in bird.fieldMarks {
                marks.append([bird.id, mark.area, mark.variantID, mark.variantName ?? variants[mark.variantID]?.name ?? "", mark.colors.joined(separator: ";")])
            }
        }
        tables.append((NormalizedBirds.speciesFile, NormalizedBirds.speciesHeader, species))
        tables.append((NormalizedBirds.fieldMarksFile, NormalizedBirds.fieldMarksHeader, marks))
        tables.append((NormalizedBirds.shapesFile, NormalizedBirds.shapesHeader, database.shapes.map { [$0.id, $0.name, $0.icon ?? ""] }))
        let marksByID = Dictionary(database.fieldMarks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        tables.append((NormalizedBirds.variantsFile, NormalizedBirds.variantsHeader, database.variants.map {
            [$0.id, $0.fieldMarkID, marksByID[$0.fieldMarkID]?.shapeID ?? "", marksByID[$0.fieldMarkID]?.area ?? "", $0.name]
        }))

        tables += companionTables(files, index: index)

        for (name, header, rows) in tables {
            var writer = CSVWriter()
            writer.write(header)
            for row in rows { writer.write(row) }
            try AtomicFile.write(writer.bytes, to: out(name))
            report.outputs[name] = FileDigest.sha256(writer.bytes)
            report.counts[String(name.dropLast(4))] = rows.count
        }
        report.counts["linkedToTaxonomy"] = links.count
        try JSON.write(report, to: out(NormalizedBirds.reportFile))
        return report
    }

    /// The watchlist and home-data tables (lists, entries, hotspots, their species, migration
    /// sessions and points) of the companion files, entries resolved against the database.
    private func companionTables(_ files: [SeedFile], index: DatabaseIndex) -> [(String, [String], [[String]])] {
        var lists: [[String]] = [], entries: [[String]] = [], hotspots: [[String]] = [], hotspotSpecies: [[String]] = []
        var sessions: [[String]] = [], points: [[String]] = []
        for file in files {
            switch file.content {
            case let .watchlists(found):
                for list in found {
                    lists.append([list.id, list.isShared ? "shared" : "personal", list.title, list.location ?? "", ReferenceDate.iso8601(list.startDate),
                                  ReferenceDate.iso8601(list.endDate), list.dateRange ?? "", list.mainImageName ?? ""])
                    for entry in list.entries {
                        let bird = entry.id.flatMap(index.bird(id:)) ?? entry.name.flatMap(index.bird(commonName:))
                        entries.append([list.id, entry.list.rawValue, bird?.id ?? "", bird?.commonName ?? entry.name ?? "",
                                        entry.dates.map(ReferenceDate.iso8601).joined(separator: ";")])
                    }
                }
            case let .homeData(home):
                for spot in home.hotspots {
                    hotspots.append([spot.id, spot.name, spot.locality ?? "", number(spot.latitude), number(spot.longitude), spot.imageName ?? ""])
                    for item in spot.species {
                        hotspotSpecies.append([spot.id, item.birdID, String(item.probability), item.validWeeks.map(String.init).joined(separator: ";")])
                    }
                }
                for session in home.migrationSessions {
                    sessions.append([session.id, session.birdID, String(session.startWeek), String(session.endWeek), session.hemisphere ?? ""])
                    for point in session.points {
                        points.append([session.id, String(point.week), number(point.latitude), number(point.longitude), String(point.probability)])
                    }
                }
            default: break
            }
        }
        return [(NormalizedBirds.watchlistsFile, NormalizedBirds.watchlistsHeader, lists),
                (NormalizedBirds.watchlistEntriesFile, NormalizedBirds.watchlistEntriesHeader, entries),
                (NormalizedBirds.hotspotsFile, NormalizedBirds.hotspotsHeader, hotspots),
                (NormalizedBirds.hotspotSpeciesFile, NormalizedBirds.hotspotSpeciesHeader, hotspotSpecies),
                (NormalizedBirds.migrationFile, NormalizedBirds.migrationHeader, sessions),
                (NormalizedBirds.trajectoryFile, NormalizedBirds.trajectoryHeader, points)]
    }

    /// The shortest decimal that reads back as the same Double (`18.5204`, `73`).
    private func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
