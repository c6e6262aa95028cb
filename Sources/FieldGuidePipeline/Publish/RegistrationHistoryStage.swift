import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// The `record-history` stage: the registry history (`history.fgb`) of the build a run is
/// about to publish, written before anything reads it (`export-sqlite` puts it in a table),
/// from the new aircraft artifact and the build published now (its `aircraft.fgb` and
/// `history.fgb`).
///
/// The history is the published one carried forward plus what changed between the two
/// artifacts (`RegistrationHistoryWriter`), its new events named after `build` (the run id:
/// the name the build takes under `builds/`). When the new artifact is the published one (the
/// same SHA-256 in both manifests), the published history is copied as it is, byte for byte,
/// without opening either artifact: an unchanged rerun stays unchanged, and fast.
///
/// A published history that does not open (a damaged or crafted file) is not carried
/// forward: the history starts again at this build, and `warning` says so. A published
/// artifact that does not open (or is missing) leaves nothing to compare against: the history
/// is carried without this build's changes, and `warning` says that too.
///
/// ```swift
/// let outcome = try RegistrationHistoryStage.run(aircraft: "stages/emit-aircraft", published: "output/builds/20261121T031500Z",
///                                                build: "20261122T031500Z", to: "stages/record-history/history.fgb")
/// ```
package enum RegistrationHistoryStage {
    /// What the stage did.
    package enum Outcome: Equatable, Sendable {
        /// The published history, copied: the artifact is the published one.
        case carried(events: Int)
        /// A new history: `added` events from this build, `kept` in all, `warning` when the
        /// published history could not be carried forward.
        case written(added: Int, kept: Int, warning: String?)
    }

    static let aircraftFile = "aircraft.fgb"
    /// The file the stage writes (and a build carries).
    package static var fileName: String { RegistrationHistoryWriter.file }

    /// Writes the history for the artifact in `aircraft` (a directory with `aircraft.fgb` and
    /// its `manifest.json`) to `path`, atomically; `published` is the build published now, if any.
    package static func run(aircraft: String, published: String?, build: String, to path: String) throws(LocatedError) -> Outcome {
        let fm = FileManager.default
        let publishedHistoryPath = published.map { $0 + "/" + RegistrationHistoryWriter.file }
        var previous: RegistrationHistory?
        var warning: String?
        if let publishedHistoryPath, fm.fileExists(atPath: publishedHistoryPath) {
            do { previous = try RegistrationHistory(path: publishedHistoryPath) } catch {
                warning = "\(error); the history starts again at builds/\(build)"
            }
        }
        if let previous, let published, try sameArtifact(aircraft, published) {
            guard let bytes = fm.contents(atPath: previous.path) else {
                throw LocatedError(.unreadable, file: previous.path, message: "cannot read the published history")
            }
            try AtomicFile.write([UInt8](bytes), to: path)
            return .carried(events: previous.eventCount)
        }
        let newPath = aircraft + "/" + aircraftFile
        let new: AircraftBundle
        do { new = try AircraftBundle(path: newPath) } catch { throw located(error.underlying, path: newPath) }
        var old: AircraftBundle?
        if let published {
            let oldPath = published + "/" + aircraftFile
            do { old = try AircraftBundle(path: oldPath) } catch {
                // Without the published artifact there is nothing to compare against: the history
                // goes on, but this build's changes are missing from it, and the operator is told.
                let reason = fm.fileExists(atPath: oldPath) ? located(error.underlying, path: oldPath).description : "\(oldPath): missing"
                warning = [warning, "\(reason); the changes of builds/\(build) are not recorded (nothing to compare against)"]
                    .compactMap { $0 }.joined(separator: "; ")
            }
        }
        let (added, kept) = try RegistrationHistoryWriter.write(previous: previous, old: old, new: new, build: build, to: path)
        return .written(added: added, kept: kept, warning: warning)
    }

    /// An artifact that does not open, as the located error a stage reports: I/O (exit 2) when
    /// it cannot be read, else data rejected (exit 1).
    static func located(_ error: ArtifactError, path: String) -> LocatedError {
        var kind = LocatedError.Kind.malformed
        if case .io = error { kind = .unreadable }
        let text = error.description
        return LocatedError(kind, file: path, message: text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text)
    }

    /// Whether the artifact in `aircraft` is the one `published` carries: the same SHA-256 in
    /// both manifests (a manifest that cannot be read: not the same).
    static func sameArtifact(_ aircraft: String, _ published: String) throws(LocatedError) -> Bool {
        let new = try Manifest.read(from: aircraft + "/" + Manifest.fileName).artifact(named: aircraftFile)
        let old = (try? Manifest.read(from: published + "/" + Manifest.fileName))?.artifact(named: aircraftFile)
        guard let new, let old else { return false }
        return new.sha256 == old.sha256 && new.bytes == old.bytes
    }
}
