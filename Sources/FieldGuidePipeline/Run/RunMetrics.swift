import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// The run's metrics in the Prometheus text exposition format (0.0.4), written each run to
/// `OUTPUT/metrics.prom` for node_exporter's textfile collector
/// (`--collector.textfile.directory=OUTPUT`).
///
/// Every sample carries the `pipeline` label. The file is replaced atomically (a temporary
/// `.metrics.prom.tmp-…` renamed over it), so the collector never reads half a file.
///
/// ```
/// # HELP fieldguide_run_success Whether the last run ended published, unchanged or passed (1) or not (0).
/// # TYPE fieldguide_run_success gauge
/// fieldguide_run_success{pipeline="nightly"} 1
/// fieldguide_run_status{pipeline="nightly",status="published"} 1
/// fieldguide_stage_duration_seconds{pipeline="nightly",stage="ingest-faa"} 0.104
/// fieldguide_guard_held{pipeline="nightly",guard="shrink MASTER"} 1
/// ```
struct RunMetrics {
    static let fileName = "metrics.prom"
    /// The state file keeping the last success's time across failed runs.
    static let lastSuccessFile = "last-success"

    let summary: RunSummary
    /// When the run ended (Unix seconds).
    let ended: Double
    /// When a run last succeeded (this one, or the one recorded before), if ever.
    let lastSuccess: Double?

    /// The exposition text.
    func text() -> String {
        var out = MetricsText(labels: [("pipeline", summary.pipeline)])
        out.metric("fieldguide_run_success", "Whether the last run ended published, unchanged or passed (1) or not (0).")
        out.sample(summary.status.succeeded ? 1 : 0)
        out.metric("fieldguide_run_status", "The status the last run ended with: 1 for it, 0 for the others.")
        for status in RunSummary.Status.allCases { out.sample(status == summary.status ? 1 : 0, [("status", status.rawValue)]) }
        out.metric("fieldguide_run_duration_seconds", "How long the last run took.")
        out.sample(summary.seconds)
        out.metric("fieldguide_run_end_timestamp_seconds", "When the last run ended (Unix time).")
        out.sample(ended)
        if let lastSuccess {
            out.metric("fieldguide_last_success_timestamp_seconds", "When a run last ended published, unchanged or passed (Unix time).")
            out.sample(lastSuccess)
        }
        out.metric("fieldguide_stage_duration_seconds", "How long each stage of the last run took (0 when skipped).")
        for stage in summary.stages { out.sample(stage.seconds, [("stage", stage.name)]) }
        out.metric("fieldguide_stage_ran", "Whether each stage ran (1) or was skipped, dropped or not run (0) in the last run.")
        for stage in summary.stages { out.sample(stage.status == .ran ? 1 : 0, [("stage", stage.name)]) }
        out.metric("fieldguide_stage_failed", "Whether each stage failed (1) in the last run.")
        for stage in summary.stages { out.sample(stage.status == .failed ? 1 : 0, [("stage", stage.name)]) }
        out.metric("fieldguide_stage_rows", "Rows each stage's report counts, by kind (read, kept, rejected, warnings).")
        for stage in summary.stages {
            guard let rows = stage.rows else { continue }
            for (kind, value) in [("read", rows.read), ("kept", rows.kept), ("rejected", rows.rejected), ("warnings", rows.warnings)] {
                out.sample(Double(value), [("stage", stage.name), ("kind", kind)])
            }
        }
        out.metric("fieldguide_guard_held", "Whether each guard held (1: held or warned) or refused (0, also when accepted) in the last run.")
        for g in summary.guards { out.sample(g.held ? 1 : 0, [("guard", g.name)]) }
        out.metric("fieldguide_guard_warned", "Whether each guard passed its warning threshold (1) in the last run.")
        for g in summary.guards { out.sample(g.warned == true ? 1 : 0, [("guard", g.name)]) }
        out.metric("fieldguide_guards", "Guards of the last run by outcome (held, warned, refused, accepted).")
        for outcome in ["held", "warned", "refused", "accepted"] {
            out.sample(Double(summary.guards.filter { $0.outcome == outcome }.count), [("outcome", outcome)])
        }
        return out.text
    }

    /// Writes `OUTPUT/metrics.prom` (and the last success's time into `state`); the first
    /// error, when one of them cannot be written.
    static func write(_ summary: RunSummary, output: String, state: String, now: Date = Date()) throws(LocatedError) {
        let ended = (now.timeIntervalSince1970 * 1000).rounded() / 1000
        let stamp = state + "/" + lastSuccessFile
        var lastSuccess = FileManager.default.contents(atPath: stamp).flatMap { Double(String(decoding: $0, as: UTF8.self)) }
        if summary.status.succeeded {
            lastSuccess = ended
            if FileManager.default.fileExists(atPath: state) { try AtomicFile.write(String(ended), to: stamp) }
        }
        try AtomicFile.write(RunMetrics(summary: summary, ended: ended, lastSuccess: lastSuccess).text(), to: output + "/" + fileName)
    }
}

/// Builds exposition text: one `# HELP` and `# TYPE … gauge` per metric, then its samples.
struct MetricsText {
    /// Labels every sample carries.
    let labels: [(String, String)]
    private(set) var text = ""
    private var name = ""

    init(labels: [(String, String)]) { self.labels = labels }

    mutating func metric(_ name: String, _ help: String) {
        self.name = name
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) gauge\n"
    }

    mutating func sample(_ value: Double, _ extra: [(String, String)] = []) {
        let pairs = (labels + extra).map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",")
        text += "\(name){\(pairs)} \(Self.format(value))\n"
    }

    /// Integers without a fraction, others in Go's shortest form as Swift prints them.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A label value: `\`, `"` and line feeds escaped.
    static func escapeLabel(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Help text: `\` and line feeds escaped.
    static func escapeHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
