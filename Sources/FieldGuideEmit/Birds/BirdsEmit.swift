import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// The index/emit stage for birds: the `ingest-birds` hand-off (seed tables, and the taxa,
/// names, bar charts and seasons linked there) plus optional observations in, `birds.fgb` and
/// its entry in `manifest.json` out.
///
/// Refuses a hand-off whose report is missing or not `ok`, or whose files do not match the
/// hashes in the report (`HandOff`). Writes the artifact, then the manifest (keeping the other artifacts'
/// entries), each atomically. The manifest entry lists the seed and reference files the
/// ingest read (its report's sources), then the observations files. Every refusal is a
/// `LocatedError`: `badHandOff` for the hand-off, the reader's kind for an observations file.
///
/// ```swift
/// var sources = BirdsEmit.Sources(handOff: "output/stage/birds")
/// sources.observations = ["output/stage/exports/observations.csv"]
/// let result = try BirdsEmit.run(sources, outputDirectory: "output")
/// result.entry.counts["species"]
/// ```
public enum BirdsEmit {
    public static let artifactFile = "birds.fgb"
    public static let manifestFile = EmitSupport.manifestFile

    public struct Sources: Sendable {
        /// The directory `ingest-birds` wrote.
        public var handOff: String
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
        var manifestSources = report.sources
        for path in sources.observations {
            let (observed, read) = try ObservedBirds.read(path)
            input.observed += observed
            let digest = try FileDigest.sha256(ofFileAt: path)
            manifestSources.append(.init(file: (path as NSString).lastPathComponent, bytes: digest.bytes, sha256: digest.digest,
                                         rows: .init(read: read, kept: observed.count)))
        }

        let (artifact, counts) = BirdsArtifactBuilder(input).build()
        let artifactPath = outputDirectory + "/" + artifactFile
        var digest = StreamingDigest()
        let outputs = OutputSet()
        let written = try artifact.prepare(artifactPath) { digest.update($0) }
        try outputs.add(written.file)
        let entry = Manifest.Artifact(file: artifactFile, kind: BirdsSchema.kind.description, bytes: written.bytes,
                                      sha256: digest.finalize(), sections: written.sections, sources: manifestSources, counts: counts)
        let manifest = try EmitSupport.publish(entry, outputDirectory: outputDirectory, with: outputs, environment: environment)
        return Result(manifest: manifest, entry: entry, artifactPath: artifactPath)
    }
}

/// Reads the normalized files `ingest-birds` wrote, after checking its report and hashes
/// (`HandOff`, as `emit-aircraft` does).
///
/// ```swift
/// let (report, input) = try BirdHandOff.read("output/stage/birds")
/// input.species.count   // 46 for the SkyTrails database
/// ```
public enum BirdHandOff {
    typealias N = NormalizedBirds

    /// The hand-off files the birds artifact is built from: the seed tables and the linked taxa.
    static let files = [N.SpeciesColumn.file, N.FieldMarkColumn.file, N.ShapeColumn.file, N.VariantColumn.file, N.HotspotColumn.file,
                        N.HotspotSpeciesColumn.file, N.TaxonColumn.file, N.NameColumn.file, N.BarChartColumn.file, N.SeasonColumn.file]

    public static func read(_ handOff: String) throws(LocatedError) -> (StageReport, BirdsBuildInput) {
        do {
            let report = try N.handOff(in: handOff, reading: files).report
            var input = BirdsBuildInput()
            try readSpecies(handOff, into: &input)
            try N.read(N.ShapeColumn.self, in: handOff) { row in input.shapes.append((row[.shapeID], row[.name], row[.icon])) }
            try N.read(N.VariantColumn.self, in: handOff) { row in
                input.variants.append(.init(id: row[.variantID], fieldMarkID: row[.fieldMarkID], shapeID: row[.shapeID], area: row[.area], name: row[.name]))
            }
            try readHotspots(handOff, into: &input)
            input.taxa = try LinkedTaxa.read(from: handOff)
            input.taxa.counts = report.linkCounts
            return (report, input)
        } catch {
            throw error.kind.isUsageOrIO ? error : error.reclassified(as: .badHandOff)
        }
    }

    /// Species with their field marks.
    private static func readSpecies(_ handOff: String, into input: inout BirdsBuildInput) throws(LocatedError) {
        var marksByBird: [String: [(area: String, variantID: String)]] = [:]
        try N.read(N.FieldMarkColumn.self, in: handOff) { row in marksByBird[row[.birdID], default: []].append((row[.area], row[.variantID])) }
        try N.read(N.SpeciesColumn.self, in: handOff) { row throws(LocatedError) in
            input.species.append(.init(
                birdID: row[.birdID], speciesCode: row[.speciesCode], commonName: row[.commonName], scientificName: row[.scientificName],
                family: row[.family], order: row[.order], rarity: row[.rarity], shapeID: row[.shapeID], sizeCategory: try row.integer(.sizeCategory),
                months: try row.integers(.months), locations: row.list(.locations), imageName: row[.imageName],
                marks: marksByBird[row[.birdID]] ?? []))
        }
    }

    /// Hotspots with their species.
    private static func readHotspots(_ handOff: String, into input: inout BirdsBuildInput) throws(LocatedError) {
        var speciesBySpot: [String: [(birdID: String, probability: Int, weeks: [Int])]] = [:]
        try N.read(N.HotspotSpeciesColumn.self, in: handOff) { row throws(LocatedError) in
            speciesBySpot[row[.hotspotID], default: []].append((row[.birdID], try row.integer(.probability) ?? 0, try row.integers(.weeks)))
        }
        try N.read(N.HotspotColumn.self, in: handOff) { row throws(LocatedError) in
            input.hotspots.append(.init(id: row[.hotspotID], name: row[.name], locality: row[.locality], imageName: row[.imageName],
                                        latitude: try row.double(.latitude), longitude: try row.double(.longitude),
                                        species: speciesBySpot[row[.hotspotID]] ?? []))
        }
    }
}
