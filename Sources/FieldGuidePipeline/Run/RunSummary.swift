import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideArtifact
import Foundation

/// What one run did: written to `OUTPUT/runs/RUN.json` at the end of every run.
///
/// ```json
/// { "pipeline": "nightly", "run": "20261122T031500Z", "status": "published",
///   "stages": [ { "name": "ingest-faa", "status": "skipped", … } ], … }
/// ```
public struct RunSummary: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable, CaseIterable {
        /// Every stage passed, every guard held, and a new build is current.
        case published
        /// Every stage passed and the artifacts equal the current build's: nothing to publish.
        case unchanged
        /// Every stage passed (a pipeline with nothing to publish, such as validate-seeds).
        case passed
        /// A guard refused to publish; the current build stays.
        case refused
        /// A stage failed or a required source is missing; the current build stays.
        case failed
        /// Interrupted; the current build stays.
        case cancelled

        /// Published, unchanged or passed: what the exit status 0 means.
        public var succeeded: Bool { self == .published || self == .unchanged || self == .passed }
    }

    public struct Stage: Codable, Sendable, Equatable {
        public enum Status: String, Codable, Sendable {
            case ran, skipped, failed, notRun = "not-run", cancelled
            /// Not run: an optional source it needs is absent (the reason is in `error`).
            case dropped
        }
        public var name: String
        public var tool: String
        public var status: Status
        public var seconds: Double
        public var exitCode: Int32?
        public var fingerprint: String?
        /// Bytes of the stage's inputs.
        public var inputBytes: Int
        /// Named counts from the stage's report.
        public var counts: [String: Int]
        /// Rows read, kept, rejected and warned about, summed over the report's sources.
        public var rows: Manifest.Rows?
        /// The last lines the stage printed, when it failed.
        public var error: String?
        /// Seconds after which the stage was stopped for running past its time-out.
        public var timedOutAfter: Double? = nil
    }

    public struct Guard: Codable, Sendable, Equatable {
        public var name: String
        public var held: Bool
        public var detail: String
        /// A guard that did not hold but was accepted on purpose (`pipeline run --accept`).
        public var accepted: Bool?
        /// A guard that held but passed its warning threshold (`{warn: …, refuse: …}`): the
        /// build publishes, and the run says so (webhook, metrics).
        public var warned: Bool?

        public init(name: String, held: Bool, detail: String, accepted: Bool? = nil, warned: Bool? = nil) {
            self.name = name; self.held = held; self.detail = detail; self.accepted = accepted; self.warned = warned
        }

        /// `held`, `warned`, `accepted` or `refused`.
        public var outcome: String {
            if !held { return accepted == true ? "accepted" : "refused" }
            return warned == true ? "warned" : "held"
        }
    }

    public var pipeline: String
    public var run: String
    /// Wall-clock start (this is run metadata, never part of an artifact).
    public var started: String
    public var seconds: Double
    public var status: Status
    public var message: String?
    /// Why a failed, refused or cancelled run stopped.
    public var failure: PipelineError.Kind?
    public var parameters: [String: String]
    public var stages: [Stage]
    public var guards: [Guard]
    /// The published (or kept current) build, relative to the output directory.
    public var build: String?
    /// Added / removed / changed totals per section of the change report, when one was written.
    public var changes: [String: [String: Int]]?
    /// Whether `runs/RUN.json` was written (not part of the file: a full or read-only disk
    /// leaves none, and nothing should claim there is one).
    public var summaryWritten = false
    /// Why `runs/RUN.json` (or `runs/latest.json`) was not written, when it was not.
    public var summaryError: String?
    /// Why `OUTPUT/metrics.prom` was not written, when it was not (not part of the file).
    public var metricsError: String?

    /// Guards that passed their warning threshold (the build still published).
    public var warnings: [Guard] { guards.filter { $0.warned == true } }

    enum CodingKeys: String, CodingKey {
        case pipeline, run, started, seconds, status, message, failure, parameters, stages, guards, build, changes
    }
}

/// What a run reports while it goes, for a terminal or a log.
public enum PipelineEvent: Sendable {
    /// The run starts: its id and the stages in run order.
    case started(run: String, stages: [String])
    case stageStarted(stage: String, command: [String], inputBytes: Int)
    case stageLine(stage: String, line: String)
    case stageFinished(RunSummary.Stage)
    case guardChecked(RunSummary.Guard)
    /// A line about publishing (`published builds/…`, `unchanged: …`).
    case publishing(String)
    case finished(RunSummary)
}
