import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// The index/emit stage for birds: the `ingest-birds` hand-off (plus optional eBird bar
/// charts, Status & Trends seasons, BirdNET labels and a taxonomy) in, `birds.fgb` and its
/// entry in `manifest.json` out.
///
/// Refuses a hand-off whose report is missing or failed, or whose files do not match the
/// hashes in the report. Writes the artifact, then the manifest (keeping the other artifacts'
/// entries), each atomically.
///
/// ```swift
/// var sources = BirdsEmit.Sources(handOff: "output/stage/birds")
/// sources.barCharts = ["input/birds/ebird/barchart-svalbard.txt"]
/// let result = try BirdsEmit.run(sources, outputDirectory: "output")
/// result.entry.counts["species"]
/// ```
public enum BirdsEmit {
    public static let artifactFile = "birds.fgb"
    public static let manifestFile = EmitSupport.manifestFile

    public struct Sources: Sendable {
        public var handOff: String
        /// Bar-chart files; `REGION=FILE` names the region, otherwise the file name does (`barchart-svalbard.txt` → Svalbard).
        public var barCharts: [String] = []
        public var seasons: String?
        public var labels: [String] = []
        /// eBird/Clements taxonomy CSV, to resolve bar-chart and seed taxa to species codes.
        public var taxonomy: String?
        /// `observations.csv` files from `ingest-exports`: resolved birds become the observed source.
        public var observations: [String] = []

        public init(handOff: String) { self.handOff = handOff }
    }

    public struct Result: Sendable {
        public var manifest: Manifest
        public var entry: Manifest.Artifact
        public var artifactPath: String
    }

    public static func run(_ sources: Sources, outputDirectory: String,
                           environment: [String: String] = ProcessInfo.processInfo.environment) throws(LocatedError) -> Result {
        let (report, input0) = try BirdHandOff.read(sources.handOff)
        var input = input0
        var manifestSources = report.files.map {
            Manifest.Source(file: ($0.file as NSString).lastPathComponent, bytes: $0.bytes, sha256: $0.sha256,
                            rows: .init(read: $0.counts.values.reduce(0, +), kept: $0.counts.values.reduce(0, +)))
        }
        func source(_ path: String, rows: Int, kept: Int) throws(LocatedError) {
            let digest = try FileDigest.sha256(ofFileAt: path)
            manifestSources.append(.init(file: (path as NSString).lastPathComponent, bytes: digest.bytes, sha256: digest.digest,
                                         rows: .init(read: rows, kept: kept)))
        }
        if let path = sources.taxonomy {
            input.taxonomy = try Taxonomy.read(fileAt: path)
            try source(path, rows: input.taxonomy!.taxa.count, kept: input.taxonomy!.taxa.count)
        }
        for argument in sources.barCharts {
            var path = argument, region: String?
            if let equals = argument.firstIndex(of: "="), !FileManager.default.fileExists(atPath: argument) {
                region = String(argument[..<equals])
                path = String(argument[argument.index(after: equals)...])
            }
            let chart = try EBirdBarChart.read(path, region: region ?? EBirdBarChart.regionName(fromFile: path))
            input.barCharts.append(chart)
            try source(path, rows: chart.rows.count + 1, kept: chart.rows.count + 1)
        }
        if let path = sources.seasons {
            input.seasons = try SpeciesSeasonRow.read(path)
            try source(path, rows: input.seasons.count, kept: input.seasons.count)
        }
        for path in sources.labels {
            let labels = try LocalizedLabels.read(path)
            input.labels.append(labels)
            try source(path, rows: labels.lines, kept: labels.names.count)
        }

        for path in sources.observations {
            let (observed, read) = try ObservedBirds.read(path)
            input.observed += observed
            try source(path, rows: read, kept: observed.count)
        }

        let (artifact, counts) = BirdsArtifactBuilder(input).build()
        let artifactPath = outputDirectory + "/" + artifactFile
        var digest = StreamingDigest()
        let written = try artifact.write(to: artifactPath) { digest.update($0) }
        let entry = Manifest.Artifact(file: artifactFile, kind: BirdsSchema.kind.description, bytes: written.bytes,
                                      sha256: digest.finalize(), sections: written.sections.map(Manifest.Section.init), sources: manifestSources, counts: counts)
        let manifest = try EmitSupport.publish(entry, outputDirectory: outputDirectory, environment: environment)
        return Result(manifest: manifest, entry: entry, artifactPath: artifactPath)
    }
}

/// Reads the normalized files `ingest-birds` wrote, after checking its report and hashes.
///
/// ```swift
/// let (report, input) = try BirdHandOff.read("output/stage/birds")
/// input.species.count   // 46 for the SkyTrails database
/// ```
public enum BirdHandOff {
    public static func read(_ handOff: String) throws(LocatedError) -> (BirdIngestReport, BirdsBuildInput) {
        let reportPath = handOff + "/" + NormalizedBirds.reportFile
        guard FileManager.default.fileExists(atPath: reportPath) else {
            throw LocatedError(.badHandOff, file: reportPath, message: "expected the ingest report of ingest-birds, found none (run ingest-birds first)")
        }
        let report: BirdIngestReport
        do { report = try JSON.decode(BirdIngestReport.self, fromFileAt: reportPath, as: "the ingest report") } catch {
            throw error.reclassified(as: .badHandOff)
        }
        guard report.status == "ok" else {
            throw LocatedError(.badHandOff, file: reportPath, message: "ingest failed, nothing to emit: \(report.failure ?? "no reason given")")
        }
        if let bad = EmitSupport.firstMismatch(handOff: handOff, outputs: report.outputs) {
            throw LocatedError(.badHandOff, file: bad.path, message: "expected SHA-256 \(bad.expected) from the ingest report, found \(bad.found)")
        }
        func table(_ name: String, _ header: [String]) throws(LocatedError) -> CSVTable {
            try CSVTable.read(handOff + "/" + name, required: header)
        }
        func list(_ text: String) -> [String] { text.split(separator: ";").map(String.init) }
        func integers(_ table: CSVTable, _ row: (line: Int, fields: [String]), _ column: String) throws(LocatedError) -> [Int] {
            var out: [Int] = []
            for item in list(table.field(row, column)) {
                guard let n = Int(item) else {
                    throw LocatedError(.badHandOff, file: table.file, line: row.line, message: "expected numbers separated by ; in \(column), found \(item)")
                }
                out.append(n)
            }
            return out
        }

        var input = BirdsBuildInput()
        let marks = try table(NormalizedBirds.fieldMarksFile, NormalizedBirds.fieldMarksHeader)
        var marksByBird: [String: [(area: String, variantID: String)]] = [:]
        for row in marks.rows { marksByBird[marks.field(row, "bird_id"), default: []].append((marks.field(row, "area"), marks.field(row, "variant_id"))) }
        let species = try table(NormalizedBirds.speciesFile, NormalizedBirds.speciesHeader)
        for row in species.rows {
            let f = { (column: String) in species.field(row, column) }
            input.species.append(.init(
                birdID: f("bird_id"), speciesCode: f("species_code"), commonName: f("common_name"), scientificName: f("scientific_name"),
                family: f("family"), order: f("order"), rarity: f("rarity"), shapeID: f("shape_id"), sizeCategory: Int(f("size_category")),
                months: try integers(species, row, "months"), locations: list(f("locations")), imageName: f("image_name"),
                marks: marksByBird[f("bird_id")] ?? []))
        }
        let shapes = try table(NormalizedBirds.shapesFile, NormalizedBirds.shapesHeader)
        input.shapes = shapes.rows.map { (shapes.field($0, "shape_id"), shapes.field($0, "name"), shapes.field($0, "icon")) }
        let variants = try table(NormalizedBirds.variantsFile, NormalizedBirds.variantsHeader)
        input.variants = variants.rows.map {
            .init(id: variants.field($0, "variant_id"), fieldMarkID: variants.field($0, "field_mark_id"), shapeID: variants.field($0, "shape_id"),
                  area: variants.field($0, "area"), name: variants.field($0, "name"))
        }
        let spotSpecies = try table(NormalizedBirds.hotspotSpeciesFile, NormalizedBirds.hotspotSpeciesHeader)
        var speciesBySpot: [String: [(birdID: String, probability: Int, weeks: [Int])]] = [:]
        for row in spotSpecies.rows {
            speciesBySpot[spotSpecies.field(row, "hotspot_id"), default: []].append(
                (spotSpecies.field(row, "bird_id"), Int(spotSpecies.field(row, "probability")) ?? 0, try integers(spotSpecies, row, "weeks")))
        }
        let spots = try table(NormalizedBirds.hotspotsFile, NormalizedBirds.hotspotsHeader)
        for row in spots.rows {
            guard let latitude = Double(spots.field(row, "latitude")), let longitude = Double(spots.field(row, "longitude")) else {
                throw LocatedError(.badHandOff, file: spots.file, line: row.line, message: "expected numeric latitude and longitude")
            }
            let id = spots.field(row, "hotspot_id")
            input.hotspots.append(.init(id: id, name: spots.field(row, "name"), locality: spots.field(row, "locality"),
                                        imageName: spots.field(row, "image_name"), latitude: latitude, longitude: longitude,
                                        species: speciesBySpot[id] ?? []))
        }
        return (report, input)
    }
}
