import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// The `aggregate-ebd` stage: eBird Basic Dataset files in, one eBird bar chart per region out
/// (`barchart-US-NY.txt`), computed by eBird's rules, with the rejects report and stage report
/// every stage writes.
///
/// Each data row, in this order (the Spark job, `pipelines/spark/ebd_barcharts.py`, keeps the
/// same rules, so both engines write the same bytes):
/// 1. a row without the header's field count is rejected (`fields`);
/// 2. a row whose ALL SPECIES REPORTED is not `1` is skipped: only complete checklists count;
/// 3. an OBSERVATION DATE that is not a calendar date `YYYY-MM-DD` is rejected (`date`);
/// 4. SAMPLING EVENT IDENTIFIER must be `S` and 1–11 digits, GROUP IDENTIFIER empty or `G` and
///    1–11 digits (no leading zero), else rejected (`checklist`);
/// 5. an approved row (APPROVED `1`) needs a TAXONOMIC ORDER of 1–9 digits and a COMMON NAME,
///    else rejected (`taxon`);
/// 6. an empty region column at the level is a warning and the row is not counted
///    (`noRegion`: counted, not guessed); a code that is not letters, digits and `-` (up to
///    16 bytes) is rejected (`region`);
/// 7. the row counts its checklist (the GROUP IDENTIFIER, else the SAMPLING EVENT IDENTIFIER)
///    in its region and period, once; an approved row counts its taxon (COMMON NAME: a
///    subspecies or form under its species, a spuh, slash or hybrid as itself) on that
///    checklist, once. A sampling-event file's rows count checklists only (steps 1–4, 6, 7).
///
/// Frequency = checklists reporting the taxon ÷ checklists, per region and period; taxa by
/// their least TAXONOMIC ORDER, then name.
///
/// ```swift
/// let result = try EBDAggregation(options: .init(level: .state)).run(inputs: ["ebd.txt"], outputDirectory: "out")
/// result.report.outputs.map(\.file)   // ["barchart-US-NY.txt", …]
/// ```
public struct EBDAggregation: Sendable {
    public static let producer = "aggregate-ebd"
    public static let reportFile = "ebd-aggregate.json"
    public static let rejectsFile = "ebd-rejects.csv"

    public struct Options: Sendable {
        public var level: EBDRegionLevel
        /// Sampling-event files: their checklists count in the sample sizes, detections or none.
        public var samplingEvents: [String]
        /// The stage fails when a file rejects more than this share of its rows (0…1).
        public var maxRejectShare: Double
        /// Findings listed in the rejects report per reason; the rest are counted only.
        public var listedPerReason: Int
        /// The longest line a file may have (bytes).
        public var maxLineBytes: Int

        public init(level: EBDRegionLevel, samplingEvents: [String] = [], maxRejectShare: Double = 0.02,
                    listedPerReason: Int = 1_000, maxLineBytes: Int = 1 << 20) {
            self.level = level; self.samplingEvents = samplingEvents; self.maxRejectShare = maxRejectShare
            self.listedPerReason = listedPerReason; self.maxLineBytes = maxLineBytes
        }
    }

    /// What a run did: its report, and how it held the (checklist, taxon) question.
    public struct Result: Sendable {
        public var report: StageReport
        /// Nil when the input was in eBird's order (taxon by taxon); else the taxon whose rows
        /// resumed, after which the run counted again with a (checklist, taxon) set.
        public var notGroupedByTaxon: String?
        /// Bytes held by the checklist tables at the end (the memory that grows with checklists).
        public var tableBytes: Int
    }

    public let options: Options

    public init(options: Options) { self.options = options }

    /// Reads every input (then the sampling-event file), and writes the bar charts, the rejects
    /// report and the stage report into `outputDirectory`. On a data error only the rejects
    /// report and a `rejected` report are written (`failed` for a file that cannot be read),
    /// earlier bar charts stay, and the error is thrown.
    public func run(inputs: [String], outputDirectory: String) throws -> Result {
        try AtomicFile.prepareDirectory(outputDirectory)
        var tally = EBDTally(dedup: .taxonBlocks, listedPerReason: options.listedPerReason)
        var resumed: String?
        do {
            do { try read(inputs, into: &tally) } catch let notGrouped as BarChartCounts.NotGroupedByTaxon {
                resumed = notGrouped.name
                tally = EBDTally(dedup: .pairs, listedPerReason: options.listedPerReason)
                try read(inputs, into: &tally)
            }
            try EBDOutcome.checkRejectShares(tally.sources, max: options.maxRejectShare)
            var outcome = EBDOutcome(tally: tally)
            var written: [StageReport.Output] = []
            let set = OutputSet()
            try tally.counts.forEachChart { chart in
                written.append(try EBDOutcome.write(chart.bytes(), named: chart.fileName, in: outputDirectory, into: set))
            }
            outcome.counts["countedWithPairSet"] = resumed == nil ? 0 : 1
            let report = try outcome.commit(outputs: written, set: set, to: outputDirectory)
            return Result(report: report, notGroupedByTaxon: resumed, tableBytes: tally.counts.tableBytes)
        } catch let error as LocatedError where error.kind != .unwritable {
            try EBDOutcome(tally: tally).fail(error, outputDirectory: outputDirectory)
        }
    }

    private func read(_ inputs: [String], into tally: inout EBDTally) throws {
        let reader = EBDReader(level: options.level, maxLineBytes: options.maxLineBytes)
        for input in inputs { try reader.read(input, kind: .observations, into: &tally) }
        for sampling in options.samplingEvents { try reader.read(sampling, kind: .samplingEvents, into: &tally) }
    }
}

/// What either engine hands the stage to write: the sources with their rows, the rejects
/// report, the named counts.
public struct EBDOutcome: Sendable {
    public var sources: [StageReport.Source]
    public var rejects: RejectsReport
    public var counts: [String: Int]

    public init(sources: [StageReport.Source], rejects: RejectsReport, counts: [String: Int]) {
        self.sources = sources
        self.rejects = rejects
        self.counts = counts
    }

    init(tally: EBDTally) {
        sources = tally.sources
        rejects = tally.rejects
        counts = tally.reasons
        counts["regions"] = tally.counts.regionCodes.count
        counts["taxa"] = tally.counts.taxonCount
        counts["checklists"] = tally.counts.checklistCount
        counts["detections"] = tally.counts.detections
        counts["incompleteRows"] = tally.incompleteRows
        counts["unapprovedRows"] = tally.unapprovedRows
    }

    /// Fails when a file rejected more than `max` of its rows.
    public static func checkRejectShares(_ sources: [StageReport.Source], max: Double) throws(LocatedError) {
        for source in sources where source.rows.read > 0 {
            let share = Double(source.rows.rejected) / Double(source.rows.read)
            if share > max {
                throw LocatedError(.tooManyRejects, file: source.file,
                                   message: "\(source.rows.rejected) of \(source.rows.read) rows rejected (\(formatPercent(share, distinctFrom: max))), more than the allowed \(formatPercent(max)); see \(EBDAggregation.rejectsFile)")
            }
        }
    }

    /// Writes one bar chart beside its place in `directory`, into `set` (committed with the
    /// run's other outputs); its output entry.
    public static func write(_ bytes: [UInt8], named name: String, in directory: String,
                             into set: OutputSet) throws(LocatedError) -> StageReport.Output {
        let (size, sha256) = try set.write(bytes, to: directory + "/" + name)
        return StageReport.Output(file: name, bytes: size, sha256: sha256)
    }

    /// Writes the rejects report and an `ok` stage report listing `outputs` into `set`, commits
    /// the set (the charts, the two reports: all on disk before any is renamed into place), and
    /// removes the bar charts an earlier run left that this one did not write.
    public func commit(outputs: [StageReport.Output], set: OutputSet, to directory: String) throws(LocatedError) -> StageReport {
        try set.write(rejects.csvBytes(), to: directory + "/" + EBDAggregation.rejectsFile)
        let report = report(.ok, outputs: outputs)
        try set.write(try report.encoded(), to: directory + "/" + EBDAggregation.reportFile)
        try set.commit()
        try Self.removeCharts(in: directory, except: Set(outputs.map(\.file)))
        return report
    }

    /// Removes every `barchart-*.txt` in `directory` not named in `kept`: a region an earlier
    /// run charted and this one did not (another dataset, another `--level`) would otherwise
    /// stay beside this run's charts, unlisted in its report, and `ingest-birds
    /// --computed-barcharts` reads every chart in the directory. Only a run that commits
    /// removes them: a failed one leaves the earlier charts as they were.
    static func removeCharts(in directory: String, except kept: Set<String>) throws(LocatedError) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            throw LocatedError(directory, failed: error, .unwritable, doing: "cannot list the output directory")
        }
        for name in names where name.hasPrefix("barchart-") && name.hasSuffix(".txt") && !kept.contains(name) {
            guard unlink(directory + "/" + name) == 0 || errno == ENOENT else {
                throw LocatedError(.unwritable, file: directory + "/" + name, message: "cannot remove the stale bar chart: \(SystemReason.errnoText)")
            }
        }
    }

    /// Writes the rejects report and a `rejected` report (`failed` for usage or I/O), then throws.
    public func fail(_ error: LocatedError, outputDirectory: String) throws -> Never {
        try fail(error.kind.isUsageOrIO ? .failed : .rejected, message: error.description, outputDirectory: outputDirectory)
        throw error
    }

    /// Writes the rejects report and a report with `status` and `message`.
    public func fail(_ status: StageReport.Status, message: String, outputDirectory: String) throws(LocatedError) {
        let outputs = OutputSet()   // the two reports go into place together, as a good run's outputs do
        try outputs.write(rejects.csvBytes(), to: outputDirectory + "/" + EBDAggregation.rejectsFile)
        try outputs.write(try report(status, failure: message).encoded(), to: outputDirectory + "/" + EBDAggregation.reportFile)
        try outputs.commit()
    }

    func report(_ status: StageReport.Status, failure: String? = nil, outputs: [StageReport.Output] = []) -> StageReport {
        let rejected = sources.reduce(0) { $0 + $1.rows.rejected }, warnings = sources.reduce(0) { $0 + $1.rows.warnings }
        return StageReport(stage: EBDAggregation.producer, status: status, failure: failure, sources: sources, outputs: outputs,
                           findings: .init(errors: rejected, warnings: warnings), counts: counts)
    }
}
