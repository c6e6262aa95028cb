import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// What a successful stage run left: its fingerprint and the hash of every output file.
///
/// Stored as `.stage.json` inside the stage's cached output directory, so a directory is
/// either complete with its record or not there at all.
struct StageRecord: Codable, Sendable, Equatable {
    static let fileName = ".stage.json"

    var stage: String
    var fingerprint: String
    /// Relative output path → SHA-256.
    var outputs: [String: String]
    var bytes: Int
    /// One digest over all outputs (what a reference to the whole directory fingerprints as).
    var digest: String

    /// The record of the outputs under `directory`. An output the stage's own report lists
    /// (`reported`: a stage report's outputs, a manifest's artifacts) at its size keeps the
    /// digest reported, without being read again.
    ///
    /// Why: the stage hashed those bytes as it wrote them, past the page cache, so reading them
    /// back here read them from disk, one core busy and the next stage waiting: 0.15 s after
    /// `ingest-faa` (158 MB of hand-off) and 0.4 s after `emit-aircraft` (a 171 MB artifact) on
    /// the full-size nightly. What is trusted is checked downstream: an emit stage verifies every
    /// hand-off file's SHA-256 against the report as it parses it (`HandOff`), and the manifest's
    /// digest is the one published with the artifact. A file whose size differs from its report
    /// is hashed, as is everything the report does not list.
    static func make(stage: String, fingerprint: String, directory: String,
                     reported: ContentDigest.Reported = [:]) throws(PipelineError) -> StageRecord {
        let entries = try ContentDigest.entries(under: directory, reported: reported)
        let lines = entries.map { "\($0.relative) \($0.bytes) \($0.sha256)" }.joined(separator: "\n")
        return StageRecord(stage: stage, fingerprint: fingerprint,
                           outputs: Dictionary(uniqueKeysWithValues: entries.map { ($0.relative, $0.sha256) }),
                           bytes: entries.reduce(0) { $0 + $1.bytes },
                           digest: FileDigest.sha256(Array(lines.utf8)))
    }
}

/// The last successful outputs of each stage: `STATE/stages/NAME/` with its `.stage.json`.
///
/// A new result replaces the old one by two renames (old directory out of the way, new one in);
/// a run killed between them leaves no entry, and the stage simply runs again next time.
struct StageCache {
    let directory: String

    func path(_ stage: String) -> String { directory + "/" + stage }

    func record(_ stage: String) -> StageRecord? {
        guard let data = FileManager.default.contents(atPath: path(stage) + "/" + StageRecord.fileName) else { return nil }
        return try? JSONDecoder().decode(StageRecord.self, from: data)
    }

    /// Moves a finished stage's directory (with its record written inside) into the cache.
    /// `trash` is a directory of the current run where the replaced entry goes.
    func store(_ record: StageRecord, from staged: String, trash: String) throws(PipelineError) {
        let fm = FileManager.default
        do {
            try JSON.write(record, to: staged + "/" + StageRecord.fileName)
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try fm.createDirectory(atPath: trash, withIntermediateDirectories: true)
            let target = path(record.stage)
            if fm.fileExists(atPath: target) {
                try fm.moveItem(atPath: target, toPath: trash + "/" + record.stage + "-" + UUID().uuidString)
            }
            try fm.moveItem(atPath: staged, toPath: target)
        } catch let error as LocatedError {
            throw PipelineError(.io, "caching stage \(record.stage): \(error)")
        } catch {
            throw PipelineError(.io, "caching stage \(record.stage) in \(directory): \(SystemReason.of(error))")
        }
    }
}
