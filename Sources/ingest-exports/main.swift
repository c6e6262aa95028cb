import ArgumentParser
import FieldGuide
import FieldGuideCore
import FieldGuideExports
import FieldGuideFAA
import Foundation
import StageCLI

struct IngestExports: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest-exports",
        abstract: "Read metadata exports (XMP, GPX, XML and binary property lists, eBird and capture CSV) into normalized observations.",
        discussion: """
        FILE_OR_DIR names export files or directories (searched recursively, links followed, each \
        file once, for .xmp, .gpx, \
        .plist, .doentry, .csv and .xml; the format is read from the content). --aircraft \
        resolves registrations against an aircraft artifact (output/aircraft.fgb) and fills the \
        app's enrichment fields; --icao-types resolves ICAO type designators \
        (designator → [name, description, wake class] JSON); --birds resolves bird names \
        through a birds artifact's names index (output/birds.fgb) or the birds hand-off of \
        ingest-birds (its --output directory: names.csv, taxa.csv …), else they are reported \
        unresolved. Writes observations.csv, \
        exports-resolution.json, exports-rejects.csv and exports-ingest.json into --output.

        Exit status: 0 ok; 1 a file could not be read (file:line:col on standard error; the \
        other files still import); 2 usage or I/O.
        """)

    @Argument(help: "Export files, or directories holding them.")
    var paths: [String] = []

    @OptionGroup var output: StageOutput

    @Option(help: "Aircraft artifact for registration lookups (output/aircraft.fgb).")
    var aircraft: String?

    @Option(name: .customLong("icao-types"), help: "ICAO type designators JSON (designator → [name, description, wake class]).")
    var icaoTypes: String?

    @Option(help: "Share of files (0–1) that may fail to read while the stage passes; each is reported and counted (default 0: any fails the stage).")
    var maxFailedShare: Double = 0

    @Option(help: "Birds artifact (output/birds.fgb) or ingest-birds hand-off directory whose names resolve bird names.")
    var birds: String?

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one export file or directory") }
        try requirePaths(paths, option: "<paths>")
        try requirePath(aircraft, option: "--aircraft")
        try requirePath(icaoTypes, option: "--icao-types")
        try requirePath(birds, option: "--birds")
        guard (0...1).contains(maxFailedShare) else { throw ValidationError("--max-failed-share: expected 0–1, found \(maxFailedShare)") }
    }

    func run() throws {
        let log = StageLog(stage: "ingest-exports")
        var options = ExportsIngest.Options()
        options.maxFailedShare = maxFailedShare
        // An artifact or table named by an option that is wrong is a usage error, whatever is wrong in it.
        if let aircraft {
            do { options.aircraft = try AircraftBundle(path: aircraft) } catch { throw StageFailure(.usageOrIO, error.description) }
            options.aircraftSource = aircraft
            log.info("aircraft registry \(aircraft): \(formatCount(options.aircraft!.registrationCount, "registration"))")
        }
        if let icaoTypes {
            do { options.icaoTypes = try ICAOTypeTable(path: icaoTypes) } catch { throw error.asOptionError() }
            options.icaoTypesSource = icaoTypes
            log.info("ICAO types \(icaoTypes): \(formatCount(options.icaoTypes!.count, "designator"))")
        }
        if let birds {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: birds, isDirectory: &isDirectory), isDirectory.boolValue {
                do { options.birdNames = try BirdHandOffNames(handOff: birds) } catch { throw error.asOptionError() }
            } else {
                do { options.birdNames = BirdsBundleNames(bundle: try BirdsBundle(path: birds), source: birds) } catch {
                    throw StageFailure(.usageOrIO, error.description)
                }
            }
            log.info(options.birdNames!.description)
        }
        let result = try ExportsIngest(options: options).run(paths: paths, outputDirectory: output.directory)
        for file in result.files {
            if let error = file.error {
                log.error(error.description)
                continue
            }
            let kinds = file.observations.keys.sorted().map { "\(formatCount(file.observations[$0]!)) \($0)" }.joined(separator: ", ")
            let skipped = file.skipped.keys.sorted().map { "; skipped " + ExportFileSummary.skippedText(file.skipped[$0]!, $0) }.joined()
            log.info("\(file.file): \(file.format?.rawValue ?? "?"): \(formatCount(file.records, "record")) → \(kinds.isEmpty ? "no observations" : kinds), \(formatCount(file.rejected)) rejected, \(formatCount(file.warnings, "warning"))\(skipped)")
        }
        let r = result.report.counts
        log.info("subjects: \(formatCount(r["subjects.resolved"] ?? 0)) resolved, \(formatCount(r["subjects.ambiguous"] ?? 0)) ambiguous, \(formatCount(r["subjects.unknown"] ?? 0)) unknown, \(formatCount(r["subjects.unresolved"] ?? 0)) unresolved")
        log.info("wrote \(result.report.outputs.map(\.file).joined(separator: ", ")), \(ExportsIngest.reportFile) to \(output.directory)")
        if result.report.status != .ok {
            throw StageFailure(.dataRejected, result.report.failure ?? "\(formatCount(result.failedFiles, "file")) could not be read")
        }
    }
}

IngestExports.runStage(name: "ingest-exports")
