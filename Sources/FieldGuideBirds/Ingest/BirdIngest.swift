import FieldGuideDiagnostics
import FieldGuideCSV
import FieldGuideCore
import Foundation

/// What `ingest-birds` read and wrote: per file kind, generation, hash and counts; every
/// finding; the reference files read beside the seeds; and the SHA-256 of each output (the
/// hand-off the next stage checks).
public struct BirdIngestReport: Sendable, Codable {
    public var status: String
    public var failure: String?
    /// The generation of the bird database read (`3.0`, `2.1`, `1.2`), migrated to the current model.
    public var generation: SchemaGeneration?
    public var files: [SeedFileSummary]
    /// The taxonomy (when given by path), bar charts, Status & Trends runs and labels files.
    public var sources: [ReferenceFileSummary]
    public var counts: [String: Int]
    /// What linking the sources to taxa counted (`LinkedTaxa.counts`): `emit-birds` lists them
    /// in its manifest entry.
    public var linkCounts: [String: Int]
    public var findings: [Finding]
    public var outputs: [String: String]
}

/// A reference file `ingest-birds` read beside the seeds: what it is, its bytes and hash, and
/// the rows read and kept (what `emit-birds` lists among its manifest entry's sources).
///
/// ```swift
/// report.sources.map(\.file)   // ["input/birds/taxonomy/taxonomy.csv", "input/birds/ebird/barchart-fenland.txt", …]
/// ```
public struct ReferenceFileSummary: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case taxonomy, barChart, seasons, labels }
    public var file: String
    public var kind: Kind
    public var bytes: Int
    public var sha256: String
    public var rowsRead: Int
    public var rowsKept: Int
}

/// Reads one bird database (any generation) with its watchlists, home data, an optional
/// taxonomy and the optional eBird bar charts, Status & Trends runs and BirdNET labels;
/// validates them, links every source to taxa once (`LinkedTaxa`), and writes the normalized
/// CSV files (`NormalizedBirds`) and a JSON report.
///
/// Errors stop the ingest: only the report (status `failed`) is written and earlier outputs
/// stay as they were. Warnings are reported and the outputs written.
///
/// ```swift
/// var ingest = BirdIngest(taxonomyPath: "taxonomy.csv")
/// ingest.barCharts = ["input/birds/ebird/barchart-fenland.txt"]   // or "Fenland=chart.txt"
/// let report = try ingest.run(paths: ["input/birds"], outputDirectory: "output/stage/birds")
/// report.generation   // .v3_0
/// ```
public struct BirdIngest: Sendable {
    public var taxonomyPath: String?
    /// eBird bar-chart downloads: `FILE`, or `REGION=FILE` (the region otherwise comes from the file name).
    public var barCharts: [String] = []
    /// eBird Status & Trends species runs CSV.
    public var seasons: String?
    /// BirdNET labels files (language from the `_xx` suffix).
    public var labels: [String] = []

    public init(taxonomyPath: String? = nil) { self.taxonomyPath = taxonomyPath }

    public func run(paths: [String], outputDirectory: String) throws(BirdsError) -> BirdIngestReport {
        let (files, taxonomy) = try SeedValidator(taxonomyPath: taxonomyPath).checkAndLink(paths: paths)
        let validation = SeedValidator.report(files)
        let databases = files.compactMap { file -> (SeedFile, BirdDatabase)? in
            if case let .database(database, _) = file.content { return (file, database) }
            return nil
        }
        var report = BirdIngestReport(status: "ok", failure: nil, generation: databases.first?.1.generation, files: validation.files,
                                      sources: [], counts: [:], linkCounts: [:], findings: validation.findings, outputs: [:])
        let out = { (name: String) in outputDirectory + "/" + name }

        guard databases.count == 1 else {
            let names = databases.map(\.0.path)
            throw BirdsError(.usage, names.isEmpty ? "no bird database among \(paths.joined(separator: ", "))"
                                                   : "more than one bird database: \(names.joined(separator: ", ")); ingest one at a time")
        }
        let (databaseFile, database) = databases[0]
        if validation.errors > 0 {
            return try failed(report, "\(validation.errors) errors in the seed files", to: out(NormalizedBirds.reportFile))
        }
        let references: References
        do { references = try readReferences(taxonomy: taxonomy) } catch {
            if error.kind.isUsageOrIO { throw BirdsError(.io, error.description) }
            return try failed(report, error.description, to: out(NormalizedBirds.reportFile))
        }

        let seeds = SeedTables(database: database, links: databaseFile.taxonLinks, file: databaseFile.path, files: files)
        let linked = LinkedTaxa.link(birds: seeds.birds, taxonomy: taxonomy, barCharts: references.barCharts,
                                     seasons: references.seasons, labels: references.labels)
        for (name, bytes, rows) in seeds.tables + linked.tables() {
            do { try AtomicFile.write(bytes, to: out(name)) } catch { throw BirdsError(.io, error.description) }
            report.outputs[name] = FileDigest.sha256(bytes)
            report.counts[String(name.dropLast(4))] = rows
        }
        report.counts["linkedToTaxonomy"] = databaseFile.taxonLinks.count
        report.sources = references.summaries
        report.linkCounts = linked.counts
        try write(report, to: out(NormalizedBirds.reportFile))
        return report
    }

    /// The reference files, read.
    struct References {
        var barCharts: [EBirdBarChart] = []
        var seasons: [SpeciesSeasonRow] = []
        var labels: [LocalizedLabels] = []
        var summaries: [ReferenceFileSummary] = []
    }

    private func readReferences(taxonomy: Taxonomy?) throws(LocatedError) -> References {
        var references = References()
        func summary(_ path: String, _ kind: ReferenceFileSummary.Kind, read: Int, kept: Int) throws(LocatedError) {
            let digest: (digest: String, bytes: Int)
            do { digest = try FileDigest.sha256(ofFileAt: path) } catch { throw LocatedError(.unreadable, file: path, message: "cannot read") }
            references.summaries.append(ReferenceFileSummary(file: path, kind: kind, bytes: digest.bytes, sha256: digest.digest,
                                                             rowsRead: read, rowsKept: kept))
        }
        if let taxonomyPath, let taxonomy { try summary(taxonomyPath, .taxonomy, read: taxonomy.taxa.count, kept: taxonomy.taxa.count) }
        for argument in barCharts {
            let (path, region) = EBirdBarChart.argument(argument)
            let chart = try EBirdBarChart.read(path, region: region)
            references.barCharts.append(chart)
            try summary(path, .barChart, read: chart.rows.count + 1, kept: chart.rows.count + 1)
        }
        if let seasons {
            references.seasons = try SpeciesSeasonRow.read(seasons)
            try summary(seasons, .seasons, read: references.seasons.count, kept: references.seasons.count)
        }
        for path in labels {
            let file = try LocalizedLabels.read(path)
            references.labels.append(file)
            try summary(path, .labels, read: file.lines, kept: file.names.count)
        }
        return references
    }

    private func failed(_ report: BirdIngestReport, _ reason: String, to path: String) throws(BirdsError) -> BirdIngestReport {
        var report = report
        report.status = "failed"
        report.failure = reason
        try write(report, to: path)
        return report
    }

    private func write(_ report: BirdIngestReport, to path: String) throws(BirdsError) {
        do { try AtomicFile.write(try JSON.encode(report), to: path) } catch { throw BirdsError(.io, "\(path): \(error)") }
    }
}
