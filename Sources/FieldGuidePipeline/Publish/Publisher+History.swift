import FieldGuide
import FieldGuideArtifact
import FieldGuideCore
import Foundation

/// The registry history each published build carries (`history.fgb`, see
/// `RegistrationHistoryWriter`): the current build's history carried forward, plus the changes
/// between the current build's aircraft artifact and the new one.
extension Publisher {
    /// Writes `history.fgb` into the build being assembled, when it has an aircraft artifact.
    ///
    /// A current history that does not open (a damaged or crafted file) is not carried forward:
    /// the new history starts at this build, and the log says so; the build still publishes.
    func writeHistory(into build: String, name: String, current: String?, manifest: Manifest) throws(PipelineError) {
        guard let entry = manifest.artifacts.first(where: { $0.kind == AircraftSchema.kind.description }) else { return }
        let fm = FileManager.default
        let new: AircraftBundle
        do { new = try AircraftBundle(path: build + "/" + entry.file) } catch {
            throw PipelineError(.io, "history for \(entry.file): \(error)")
        }
        let oldPath = current.map { $0 + "/" + entry.file }
        let old = oldPath.flatMap { fm.fileExists(atPath: $0) ? try? AircraftBundle(path: $0) : nil }
        var previous: RegistrationHistory?
        if let current, fm.fileExists(atPath: current + "/" + RegistrationHistoryWriter.file) {
            do { previous = try RegistrationHistory(path: current + "/" + RegistrationHistoryWriter.file) } catch {
                FileHandle.standardError.write(Data("pipeline: warning: \(error); the history starts again at builds/\(name)\n".utf8))
            }
        }
        do {
            try RegistrationHistoryWriter.write(previous: previous, old: old, new: new, build: name,
                                                to: build + "/" + RegistrationHistoryWriter.file)
        } catch {
            throw PipelineError(error)
        }
    }
}
