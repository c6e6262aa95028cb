import FieldGuideDiagnostics
import FieldGuideCSV
import FieldGuideCore
import Foundation

/// What `BirdIngest.run` gives back: the stage report it wrote (`birds-ingest.json`) and the
/// seed files as validated (kind, generation and record counts of each, for the log).
///
/// The report's sources are the seed files (every record read and kept), then the reference
/// files read beside them: the taxonomy when given by path, the bar charts, the Status & Trends
/// runs and the labels files, with their rows read and kept. `emit-birds` lists them all in its
/// manifest entry, with the counts linking gave (``StageReport/linkCounts``).
///
/// ```swift
/// let result = try BirdIngest().run(paths: ["input/birds"], outputDirectory: "output/stage/birds")
/// result.report.status            // .ok
/// result.files.map(\.kind)        // [.database, .homeData, .watchlists, …]
/// ```
public struct BirdIngestResult: Sendable {
    public var report: StageReport
    public var files: [SeedFileSummary]
}

extension StageReport {
    /// What linking the sources to taxa counted (`LinkedTaxa.counts`: `barChartUnresolved`,
    /// `labels.de` …), kept among the named counts under `links.`; `emit-birds` lists them in
    /// its manifest entry. Empty for a report not written by `ingest-birds`.
    ///
    /// ```swift
    /// report.counts["links.barChartUnresolved"]   // 1
    /// report.linkCounts["barChartUnresolved"]     // 1
    /// ```
    public var linkCounts: [String: Int] {
        get {
            var found: [String: Int] = [:]
            for (name, count) in counts where name.hasPrefix(Self.linkCountPrefix) { found[String(name.dropFirst(Self.linkCountPrefix.count))] = count }
            return found
        }
        set {
            counts = counts.filter { !$0.key.hasPrefix(Self.linkCountPrefix) }
            for (name, count) in newValue { counts[Self.linkCountPrefix + name] = count }
        }
    }

    static let linkCountPrefix = "links."
}

/// Reads one bird database (any generation) with its watchlists, home data, an optional
/// taxonomy and the optional eBird bar charts, Status & Trends runs and BirdNET labels;
/// validates them, links every source to taxa once (`LinkedTaxa`), and writes the normalized
/// CSV files (`NormalizedBirds`) and its stage report.
///
/// Errors in the seed files or a malformed reference file stop the ingest: only the report
/// (status `rejected`) is written and earlier outputs stay as they were. Warnings are reported
/// and the outputs written.
///
/// ```swift
/// var ingest = BirdIngest(taxonomyPath: "taxonomy.csv")
/// ingest.barCharts = ["input/birds/ebird/barchart-fenland.txt"]   // or "Fenland=chart.txt"
/// let result = try ingest.run(paths: ["input/birds"], outputDirectory: "output/stage/birds")
/// result.report.generation   // "3.0"
/// ```
public struct BirdIngest: Sendable {
    public var taxonomyPath: String?
    /// eBird bar-chart downloads: `FILE`, or `REGION=FILE` (the region otherwise comes from the file name).
    public var barCharts: [String] = []
    /// Directories of bar charts `aggregate-ebd` computed (`barchart-REGION.txt`): each replaces
    /// a downloaded chart of the same region. Their sources are named `aggregate-ebd/FILE`, and
    /// `links.barChartsComputed` and `links.barChartsReplaced` count them (the manifest: without `links.`).
    public var computedBarCharts: [String] = []
    /// eBird Status & Trends species runs CSV.
    public var seasons: String?
    /// BirdNET labels files (language from the `_xx` suffix).
    public var labels: [String] = []

    public init(taxonomyPath: String? = nil) { self.taxonomyPath = taxonomyPath }

    public func run(paths: [String], outputDirectory: String) throws(LocatedError) -> BirdIngestResult {
        let (files, taxonomy) = try SeedValidator(taxonomyPath: taxonomyPath).checkAndLink(paths: paths)
        let validation = SeedValidator.report(files)
        let databases = files.compactMap { file -> (SeedFile, BirdDatabase)? in
            if case let .database(database, _) = file.content { return (file, database) }
            return nil
        }
        var report = Self.report(validation, generation: databases.first?.1.generation)
        let out = { (name: String) in outputDirectory + "/" + name }
        func done(_ report: StageReport) throws(LocatedError) -> BirdIngestResult {
            try report.write(to: out(NormalizedBirds.reportFile))
            return BirdIngestResult(report: report, files: validation.files)
        }

        // A seed file that does not parse (its kind unknown) is data rejected, with its
        // line:column in the report, not a missing database.
        if databases.isEmpty && report.status != .ok { return try done(report) }
        guard databases.count == 1 else {
            let names = databases.map(\.0.path)
            throw LocatedError(.usage, file: "", message: names.isEmpty ? "no bird database among \(paths.joined(separator: ", "))"
                                                                    : "more than one bird database: \(names.joined(separator: ", ")); ingest one at a time")
        }
        let (databaseFile, database) = databases[0]
        if report.status != .ok { return try done(report) }
        let references: References
        do { references = try readReferences(taxonomy: taxonomy) } catch {
            if error.kind.isUsageOrIO { throw error }
            report.status = .rejected
            report.failure = error.description
            return try done(report)
        }

        let seeds = SeedTables(database: database, links: databaseFile.taxonLinks, file: databaseFile.path, files: files)
        let linked = LinkedTaxa.link(birds: seeds.birds, taxonomy: taxonomy, barCharts: references.barCharts,
                                     seasons: references.seasons, labels: references.labels)
        // The tables and the report go into place together (`OutputSet`): a run that cannot
        // write one of them leaves an earlier run's all as they were.
        let written = OutputSet()
        var outputs: [StageReport.Output] = []
        for (name, bytes, rows) in seeds.tables + linked.tables() {
            let (size, sha256) = try written.write(bytes, to: out(name))
            outputs.append(.init(file: name, bytes: size, sha256: sha256))
            report.counts[String(name.dropLast(4))] = rows
        }
        report.outputs = outputs
        report.counts["linkedToTaxonomy"] = databaseFile.taxonLinks.count
        report.linkCounts = linked.counts.merging(references.counts) { $1 }
        report.sources += references.sources
        // The taxonomy among the inputs has its warnings already (a seed file's findings).
        Self.warn(references.readings + (taxonomyPath != nil ? taxonomy?.readings ?? [] : []), in: &report)
        try written.write(try report.encoded(), to: out(NormalizedBirds.reportFile))
        try written.commit()
        return BirdIngestResult(report: report, files: validation.files)
    }

    /// Each value read as Latin-1 (rule `encoding`) or with a control character replaced (rule
    /// `text`) becomes a warning at its file and line; the report counts the Latin-1 readings
    /// (`fieldsReadAsLatin1`).
    static func warn(_ readings: [TextReading], in report: inout StageReport) {
        guard !readings.isEmpty else { return }
        let warnings = readings.map {
            StageReport.Finding(.warning, rule: Finding.Rule($0.kind).rawValue, file: $0.file, line: $0.line, column: 1, message: $0.message)
        }
        report.findings.warnings += warnings.count
        report.findings.listed = (report.findings.listed ?? []) + warnings
        let latin1 = readings.count { $0.isLatin1 }
        if latin1 > 0 { report.counts[latin1Count] = latin1 }
    }

    /// The report's count of values that were not UTF-8 and were read as Latin-1.
    public static let latin1Count = "fieldsReadAsLatin1"

    /// The stage report of a validation: every seed file as a source, every finding listed;
    /// `rejected` when there are errors.
    static func report(_ validation: SeedValidationReport, generation: SchemaGeneration?) -> StageReport {
        StageReport(stage: NormalizedBirds.producer, status: validation.errors > 0 ? .rejected : .ok,
                    failure: validation.errors > 0 ? formatCount(validation.errors, "error") + " in the seed files" : nil, sources: validation.files.map(source),
                    findings: .init(errors: validation.errors, warnings: validation.warnings, listed: validation.findings.map(finding)),
                    generation: generation?.rawValue)
    }

    /// A seed file as a report source: every record it holds read and kept.
    static func source(_ file: SeedFileSummary) -> StageReport.Source {
        let records = file.counts.values.reduce(0, +)
        return .init(file: (file.file as NSString).lastPathComponent, bytes: file.bytes, sha256: file.sha256,
                     rows: .init(read: records, kept: records))
    }

    /// The `barchart-*.txt` files of the computed directories, by name.
    static func computedChartFiles(in directories: [String]) throws(LocatedError) -> [String] {
        var files: [String] = []
        for directory in directories {
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
                throw LocatedError(directory, failed: error, doing: "cannot list the computed bar charts")
            }
            files += names.filter { $0.hasPrefix("barchart-") && $0.hasSuffix(".txt") }.sorted().map { directory + "/" + $0 }
        }
        return files
    }

    static func finding(_ finding: Finding) -> StageReport.Finding {
        .init(finding.severity == .error ? .error : .warning, rule: finding.rule.rawValue, file: finding.file,
              line: finding.line, column: finding.column, message: finding.message)
    }

    /// Which file gave each region (or language): a second file for one is refused, naming
    /// both, before either is read. Which of two would be read, or both merged row by row (as
    /// two charts of one region were), is no answer to give for the operator.
    struct Claims {
        let what: String, of: String
        private var files: [String: String] = [:]

        init(what: String, of: String) { (self.what, self.of) = (what, of) }

        mutating func claim(_ key: String, by path: String) throws(LocatedError) {
            guard let first = files.updateValue(path, forKey: key.uppercased()) else { return }
            throw LocatedError(.usage, file: path, expected: "one \(what) per \(of)", found: "\(of) \(key) in \(first) too",
                               message: "a second \(what) for one \(of)")
        }
    }

    /// The reference files, read, and each as a report source.
    struct References {
        var barCharts: [EBirdBarChart] = []
        var seasons: [SpeciesSeasonRow] = []
        var labels: [LocalizedLabels] = []
        var sources: [StageReport.Source] = []
        /// The values that were not UTF-8 and were read as Latin-1, or held a control character.
        var readings: [TextReading] = []
        /// Computed and replaced bar charts.
        var counts: [String: Int] = [:]
    }

    private func readReferences(taxonomy: Taxonomy?) throws(LocatedError) -> References {
        var references = References()
        func source(_ path: String, read: Int, kept: Int, prefix: String = "") throws(LocatedError) {
            let digest = try FileDigest.sha256(ofFileAt: path)
            references.sources.append(.init(file: prefix + (path as NSString).lastPathComponent, bytes: digest.bytes, sha256: digest.digest,
                                            rows: .init(read: read, kept: kept)))
        }
        if let taxonomyPath, let taxonomy { try source(taxonomyPath, read: taxonomy.taxa.count, kept: taxonomy.taxa.count) }
        var computedRegions: Set<String> = [], claimed = Claims(what: "bar chart", of: "region")
        for path in try Self.computedChartFiles(in: computedBarCharts) {
            let region = EBirdBarChart.regionName(fromFile: path)
            try claimed.claim(region, by: path)
            let chart = try EBirdBarChart.read(path, region: region)
            computedRegions.insert(chart.region)
            references.barCharts.append(chart)
            references.readings += chart.readings
            try source(path, read: chart.rows.count + 1, kept: chart.rows.count + 1, prefix: "aggregate-ebd/")
        }
        var replaced = 0
        claimed = Claims(what: "bar chart", of: "region")   // a downloaded chart may share a computed one's region: it is replaced
        for argument in barCharts {
            let (path, region) = EBirdBarChart.argument(argument)
            try claimed.claim(region, by: path)
            guard !computedRegions.contains(region) else { replaced += 1; continue }
            let chart = try EBirdBarChart.read(path, region: region)
            references.barCharts.append(chart)
            references.readings += chart.readings
            try source(path, read: chart.rows.count + 1, kept: chart.rows.count + 1)
        }
        if !computedBarCharts.isEmpty {
            references.counts["barChartsComputed"] = computedRegions.count
            references.counts["barChartsReplaced"] = replaced
        }
        if let seasons {
            references.seasons = try SpeciesSeasonRow.read(seasons, readings: &references.readings)
            try source(seasons, read: references.seasons.count, kept: references.seasons.count)
        }
        var languages = Claims(what: "labels list", of: "language")
        for path in labels {
            try languages.claim(LocalizedLabels.language(ofFile: path), by: path)
            let file = try LocalizedLabels.read(path)
            references.labels.append(file)
            references.readings += file.readings
            try source(path, read: file.lines, kept: file.names.count)
        }
        return references
    }
}
