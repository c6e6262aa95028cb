import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// How long each source's content has stayed the same, as this installation has seen it:
/// `OUTPUT/.pipeline/NAME/sources.json`, one entry per source stem with the SHA-256 of its
/// files and when that content was first seen.
///
/// A run that reaches publishing (published, unchanged or refused) updates it: a stem whose
/// files changed starts again at the run's time; one whose files are the same keeps its date,
/// however often the files are touched or fetched again. The first run sees every source as
/// new (0 days). Deleting the file starts every source afresh.
///
/// ```json
/// { "MASTER": { "sha256": ["9f2c…"], "since": "2026-11-20T03:15:00Z" } }
/// ```
struct SourceFreshness {
    static let fileName = "sources.json"

    struct Entry: Codable, Equatable {
        /// The SHA-256 of each of the stem's files, sorted.
        var sha256: [String]
        /// When this content was first seen (ISO 8601, UTC).
        var since: String
    }

    /// The state file's path.
    let path: String
    /// The run's wall-clock time.
    let now: Date

    /// Updates the state with `manifest`'s sources and returns how long each stem has been
    /// unchanged. A state file that cannot be read is started afresh; one that cannot be
    /// written is an I/O error.
    func update(with manifest: Manifest) throws(PipelineError) -> [String: Guards.UnchangedSource] {
        var state = Self.read(path)
        var digests: [String: [String]] = [:]
        for source in Guards.uniqueSources(manifest) { digests[Guards.stem(source.file), default: []].append(source.sha256) }
        let stamp = RunRecorder.iso8601(now)
        var out: [String: Guards.UnchangedSource] = [:]
        for (stem, list) in digests {
            let sorted = list.sorted()
            if state[stem]?.sha256 != sorted || state[stem].flatMap({ Self.date($0.since) }) == nil {
                state[stem] = Entry(sha256: sorted, since: stamp)
            }
            let since = state[stem]!.since
            let days = max(0, now.timeIntervalSince(Self.date(since) ?? now) / 86_400)
            out[stem] = .init(days: days, since: since)
        }
        do throws(LocatedError) { try JSON.write(state, to: path) } catch { throw PipelineError(error) }
        return out
    }

    static func read(_ path: String) -> [String: Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return (try? JSONDecoder().decode([String: Entry].self, from: data)) ?? [:]
    }

    static func date(_ text: String) -> Date? { UTCTimestamp.date(text) }
}
