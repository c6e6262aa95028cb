import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// Records one run: its id, its `RunSummary` as the run fills it in, and at the end
/// `OUTPUT/runs/RUN.json` and the `finished` event.
///
/// ```swift
/// var recorder = RunRecorder(pipeline: "nightly", parameters: ["SOURCES": "input"], outputDirectory: "output") { print($0) }
/// recorder.record(stages: results)               // false when one failed or the run was cancelled
/// let summary = recorder.finish()                // writes output/runs/20261122T031500Z.json
/// ```
struct RunRecorder {
    let outputDirectory: String
    let emit: @Sendable (PipelineEvent) -> Void
    private let start = ContinuousClock.now
    private(set) var summary: RunSummary

    /// The run's id (`20261122T031500Z`), unique among the summaries in `OUTPUT/runs`.
    var runID: String { summary.run }

    init(pipeline: String, parameters: [String: String], outputDirectory: String, emit: @escaping @Sendable (PipelineEvent) -> Void) {
        self.outputDirectory = outputDirectory
        self.emit = emit
        let started = Self.iso8601(Date())
        func summary(_ id: String) -> RunSummary {
            RunSummary(pipeline: pipeline, run: id, started: started, seconds: 0, status: .failed, message: nil, failure: nil,
                       parameters: parameters, stages: [], guards: [], build: nil, changes: nil)
        }
        let id = Self.claimRunID(in: outputDirectory + "/runs") { id in
            var unfinished = summary(id)
            unfinished.message = "the run did not finish (killed, or still running)"
            return (try? JSON.encode(unfinished)) ?? []
        }
        self.summary = summary(id)
    }

    /// The run stopped on `error` before its stages or while publishing.
    mutating func fail(_ error: PipelineError) {
        summary.message = error.message
        summary.failure = error.kind
        if error.kind == .missingSource {
            summary.guards = [.init(name: "required sources", held: false, detail: error.message)]
        }
    }

    /// Takes the stages' results; false (with the reason recorded) when one failed or the run
    /// was cancelled: nothing is published then.
    mutating func record(stages: [RunSummary.Stage], cancelled: Bool) -> Bool {
        summary.stages = stages
        if let failed = stages.first(where: { $0.status == .failed }) {
            if let seconds = failed.timedOutAfter {
                summary.message = "stage \(failed.name) timed out after \(Int(seconds)) s (its time-out); the stage and every process it started were stopped"
            } else {
                summary.message = "stage \(failed.name) failed" + (failed.exitCode.map { " (exit \($0))" } ?? "")
                    + (failed.error.flatMap { $0.split(separator: "\n").last.map { ": \($0)" } } ?? "")
            }
            summary.failure = .stageFailed
            return false
        }
        if cancelled || stages.contains(where: { $0.status == .cancelled }) {
            summary.status = .cancelled
            summary.message = "interrupted; nothing published"
            summary.failure = .cancelled
            return false
        }
        return true
    }

    /// Every stage passed and there is nothing to publish.
    mutating func passed() { summary.status = .passed }

    mutating func guardChecked(_ result: RunSummary.Guard) {
        summary.guards.append(result)
        emit(.guardChecked(result))
    }

    /// How publishing ended; `staging` is where a refused build stays.
    mutating func record(_ outcome: Publisher.Outcome, staging: String) {
        switch outcome {
        case .published(let build, let changes):
            summary.status = .published
            summary.build = build
            summary.changes = changes.map(Self.totals)
            summary.message = "published \(build)"
        case .unchanged(let build):
            summary.status = .unchanged
            summary.build = build
            summary.message = "artifacts unchanged; \(build) stays current"
        case .refused(let failed, let staged):
            summary.status = .refused
            summary.failure = .guardRefused
            summary.message = "not published: " + failed.map { "\($0.name): \($0.detail)" }.joined(separator: "; ")
                + (staged ? " (the refused build is in \(Publisher.relative(staging, to: outputDirectory))/build)"
                          : "; the artifacts equal the current build's, which stays")
        }
    }

    /// Writes `OUTPUT/runs/RUN.json`, tells the listener, and returns the summary.
    func finish() -> RunSummary {
        var summary = summary
        summary.seconds = Self.seconds(since: start)
        let runs = outputDirectory + "/runs"
        do {
            // A link planted as runs/ is not followed: the summary is not written then.
            try OutputTree(root: outputDirectory).directory("runs")
            try JSON.write(summary, to: runs + "/" + summary.run + ".json")
            summary.summaryWritten = true
            try Self.pointLatest(at: summary.run, in: runs)
        } catch let error as PipelineError {
            summary.summaryError = error.message
        } catch {
            summary.summaryError = "\(error)"
        }
        do throws(LocatedError) {
            try RunMetrics.write(summary, output: outputDirectory, state: outputDirectory + "/.pipeline/" + summary.pipeline)
        } catch {
            summary.metricsError = error.description
        }
        emit(.finished(summary))
        return summary
    }

    /// Per section of a change report: before, after, added, removed, changed and its named counts.
    static func totals(_ report: ChangeReport) -> [String: [String: Int]] {
        var out: [String: [String: Int]] = [:]
        for s in report.sections {
            out[s.title] = ["before": s.before, "after": s.after, "added": s.added.count,
                            "removed": s.removed.count, "changed": s.changed.count].merging(s.counts) { $1 }
        }
        return out
    }

    /// Seconds since `start`, to the millisecond.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return ((Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) * 1000).rounded() / 1000
    }

    static func iso8601(_ date: Date) -> String { UTCTimestamp.iso8601(date) }

    /// `20261122T031500Z`, with `-2`, `-3`… when a run of the same second exists: claimed by
    /// creating `runs/ID.json` exclusively (O_EXCL), so two processes starting in the same
    /// second never share an id, whichever of them later takes the lock. The claim holds a
    /// summary saying the run did not finish, until `finish()` replaces it.
    static func claimRunID(in runs: String, placeholder: (String) -> [UInt8]) -> String {
        let base = UTCTimestamp.compact(Date())
        try? FileManager.default.createDirectory(atPath: runs, withIntermediateDirectories: true)
        // Never through a link planted as runs/: the id is then ours, unrecorded.
        let directory = open(runs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard directory >= 0 else { return base }
        defer { close(directory) }
        var id = base
        for n in 2...10_000 {
            let fd = openat(directory, id + ".json", O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 {
                let bytes = placeholder(id)
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                return id
            }
            // Exists: taken. Anything else (a read-only or full disk): the id is ours, unrecorded.
            if errno != EEXIST { return id }
            id = "\(base)-\(n)"
        }
        return id + "-\(getpid())"
    }

    /// Points `runs/latest.json` at this run's summary (a relative symbolic link, replaced
    /// atomically by a rename).
    static func pointLatest(at id: String, in runs: String) throws {
        let temporary = runs + "/.latest.json.tmp-\(getpid())"
        unlink(temporary)
        guard symlink(id + ".json", temporary) == 0, rename(temporary, runs + "/latest.json") == 0 else {
            let reason = SystemReason.errnoText
            unlink(temporary)
            throw PipelineError(.io, "\(runs)/latest.json: cannot point at \(id).json: \(reason)")
        }
    }
}
