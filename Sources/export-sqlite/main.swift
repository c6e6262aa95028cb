import ArgumentParser
import FieldGuide
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideEmit
import FieldGuideSQLite
import Foundation
import StageCLI

struct ExportSQLite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-sqlite",
        abstract: "Write aircraft.sqlite for analysts from an aircraft artifact (models, engines, registrations, code lookups, owner search).",
        discussion: """
        ARTIFACT_DIR is the --output directory of emit-aircraft (aircraft.fgb and its manifest.json). \
        Writes aircraft.sqlite and its manifest.json entry into --output, atomically: the tables \
        models, engines, registrations, deregistered, reserved and history with the FAA's codes, one lookup table per code table \
        (code → name), and owners_fts, an FTS5 index over owner names; byte-identical for an \
        identical artifact. Ready for Datasette or sqlite-utils. With --history (record-history's \
        history.fgb) the history table holds the registry history, event kinds through \
        history_kind, status and model codes with their names; without it the table is empty.

        Exit status: 0 ok; 1 the artifact is damaged; 2 usage or I/O.
        """)

    @Argument(help: "The directory emit-aircraft wrote (aircraft.fgb, manifest.json).")
    var artifactDirectory: String

    @Option(help: "The registry history (history.fgb, record-history's) for the history table; without it the table is empty.")
    var history: String?

    @OptionGroup var output: StageOutput

    func validate() throws {
        try requirePath(artifactDirectory, option: "<artifact-directory>")
        try requirePath(history, option: "--history")
    }

    func run() throws {
        let log = StageLog(stage: "export-sqlite")
        let artifact = artifactDirectory + "/" + AircraftEmit.artifactFile
        let bundle: AircraftBundle
        do { bundle = try AircraftBundle(path: artifact) } catch { throw error.underlying }
        let source = try Manifest.read(from: artifactDirectory + "/" + EmitSupport.manifestFile).artifact(named: AircraftEmit.artifactFile)
        let path = try output.prepared(file: AircraftSQLiteExport.fileName)
        var events: RegistrationHistory?
        if let history {
            do { events = try RegistrationHistory(path: history) } catch { throw error.underlying }
        }
        let counts = try AircraftSQLiteExport.write(bundle: bundle, history: events, to: path)
        let digest = try FileDigest.sha256(ofFileAt: path)
        let entry = Manifest.Artifact(file: AircraftSQLiteExport.fileName, kind: "SQLT", bytes: digest.bytes, sha256: digest.digest, sections: [],
                                      sources: source?.sources ?? [], counts: counts, asOf: source?.asOf)
        _ = try EmitSupport.publish(entry, outputDirectory: output.directory)
        log.info("wrote \(path) (\(formatCount(digest.bytes)) bytes: \(formatCount(counts["registrations"] ?? 0)) registrations, \(formatCount(counts["models"] ?? 0)) models, \(formatCount(counts["engines"] ?? 0)) engines, \(formatCount(counts["history"] ?? 0)) history events, \(AircraftSQLiteExport.codeTableCount) code tables), \(EmitSupport.manifestFile)")
    }
}

ExportSQLite.runStage(name: "export-sqlite")
