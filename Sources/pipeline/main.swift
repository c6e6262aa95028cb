import ArgumentParser
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuidePipeline
import FieldGuideWebhook
import Foundation
import StageCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct PipelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "Run a declarative FieldGuide pipeline (pipelines/*.yaml).",
        discussion: """
            A pipeline file names its sources, its stages (each a stage executable with inputs, \
            outputs and arguments), the guards that must hold and what to publish. Stages run in \
            the order their inputs require, independent ones side by side; a stage whose \
            fingerprint (SHA-256 of its tool, arguments and inputs) matches its last success is \
            skipped. The new build is published into OUTPUT only when every stage passed and \
            every guard held, in one atomic step (OUTPUT/current → builds/RUN, previous kept).

            Exit status: 0 published, unchanged or passed; 1 a stage failed, a source is missing \
            or a guard refused; 2 usage or I/O; 130 interrupted.
            """,
        subcommands: [Run.self, Plan.self, Check.self, Rollback.self],
        defaultSubcommand: Run.self
    )
}

struct Common: ParsableArguments {
    @Argument(help: "The pipeline file (pipelines/nightly.yaml).") var file: String
    @Option(name: .customLong("set"), help: "Set a parameter: NAME=VALUE (repeatable).") var settings: [String] = []

    func validate() throws { try requirePath(file, option: "<file>") }

    func parameters() throws -> [String: String] {
        var out: [String: String] = [:]
        for item in settings {
            guard let eq = item.firstIndex(of: "="), eq != item.startIndex else {
                throw StageFailure(.usageOrIO, "--set expects NAME=VALUE, found '\(item)'")
            }
            out[String(item[..<eq])] = String(item[item.index(after: eq)...])
        }
        return out
    }

    func definition() throws(LocatedError) -> PipelineDefinition {
        try PipelineDefinition.load(path: file)
    }
}

enum ProgressMode: String, ExpressibleByArgument { case auto, bar, plain }

extension PipelineCommand {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run the pipeline and publish its artifacts.")
        @OptionGroup var common: Common
        @Option(name: .shortAndLong, help: "Output directory (builds, current, runs, state).") var output = "output"
        @Option(help: "Directory of the stage executables (default: beside this executable).") var bin: String?
        @Option(help: "Stages to run at once (default: the number of cores).") var jobs = ProcessInfo.processInfo.activeProcessorCount
        @Flag(help: "Run every stage, ignoring fingerprints.") var force = false
        @Option(help: "Accept a guard's refusal on purpose, recorded in the run summary: shrink:SOURCE, rejects:SOURCE, min_rows:SOURCE, join:model, freshness:SOURCE (repeatable).")
        var accept: [String] = []
        @Option(help: "Progress display: auto (a bar on a terminal), bar or plain.") var progress: ProgressMode = .auto
        @Option(help: "Seconds a stopped stage (interrupted, or past its time-out) has between SIGTERM and SIGKILL.")
        var killGrace: Double = 5

        func validate() throws {
            try requirePath(output, option: "--output")
            try requirePath(bin, option: "--bin")
            guard killGrace >= 0, killGrace <= 3600 else { throw ValidationError("--kill-grace: expected seconds from 0 to 3600, found \(killGrace)") }
            for item in accept {
                let parts = item.split(separator: ":")
                guard parts.count == 2, ["shrink", "rejects", "min_rows", "join", "freshness"].contains(parts[0]), !parts[1].isEmpty else {
                    throw ValidationError("--accept: expected KIND:NAME, KIND one of shrink, rejects, min_rows, join, freshness (shrink:MASTER), found \(item)")
                }
            }
        }

        /// The webhook the run tells, when the pipeline file or FIELDGUIDE_WEBHOOK_URL names one; a
        /// malformed address is a usage error before any stage runs.
        func notifier(_ definition: PipelineDefinition, parameters: [String: String]) throws -> Webhook? {
            guard let address = definition.webhook(parameters: parameters, environment: ProcessInfo.processInfo.environment) else { return nil }
            do {
                return try Webhook(url: address, timeout: Double(definition.notify?.timeout.seconds ?? 10))
            } catch {
                throw StageFailure(.usageOrIO, "\(definition.path): notify.webhook: \(error.description)")
            }
        }

        /// Posts the run summary when the run failed, was refused or interrupted, or warned; a
        /// webhook that fails is logged and changes nothing else.
        func notify(_ webhook: Webhook, _ summary: RunSummary, display: Display) {
            guard !summary.status.succeeded || !summary.warnings.isEmpty, let body = try? JSON.encode(summary) else { return }
            let why = summary.status.succeeded ? "\(summary.warnings.count) guard warning\(summary.warnings.count == 1 ? "" : "s")" : summary.status.rawValue
            let host = (webhook.url.host ?? "") + (webhook.url.port.map { ":\($0)" } ?? "")
            switch webhook.post(Data(body)) {
            case .delivered(let status):
                display.note("webhook \(host) told (\(why)): HTTP \(status)")
            case .rejected(let status):
                display.note("webhook \(host) answered HTTP \(status); not delivered (the run's result stands)")
            case .failed(let reason):
                display.note("webhook \(host) \(reason); not delivered (the run's result stands)")
            }
        }

        func run() throws {
            let definition = try common.definition()
            var options = PipelineRunner.Options(outputDirectory: output, toolDirectory: bin ?? executableDirectory(),
                                                 jobs: jobs, force: force)
            options.accept = Set(accept.map { $0.replacingOccurrences(of: ":", with: " ") })
            options.killGrace = .milliseconds(Int((killGrace * 1000).rounded()))
            let parameters = try common.parameters()
            let webhook = try notifier(definition, parameters: parameters)
            let runner = PipelineRunner(definition: definition, parameters: parameters, options: options)
            let display = Display(bar: progress == .bar || (progress == .auto && isatty(STDERR_FILENO) == 1))
            let signals = [SIGINT, SIGTERM].map { sig -> DispatchSourceSignal in
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler {
                    display.note("interrupted: stopping the running stages; nothing will be published")
                    runner.cancel()
                }
                source.resume()
                return source
            }
            let summary = runner.run { display.handle($0) }
            signals.forEach { $0.cancel() }
            if let webhook { notify(webhook, summary, display: display) }
            switch summary.status {
            case .published, .unchanged, .passed: return
            case .cancelled: throw ExitCode(130)
            case .failed, .refused:
                // A stage that failed on usage or I/O (its exit 2: a wrong path) passes that on.
                let stage = summary.stages.first { $0.status == .failed }
                if summary.failure == .stageFailed, stage?.exitCode == StageExit.usageOrIO.rawValue { throw ExitCode(StageExit.usageOrIO.rawValue) }
                throw ExitCode(StageExit(summary.failure ?? .io).rawValue)
            }
        }
    }

    struct Rollback: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Point current back at the previous build, atomically; previous then names the build rolled back from.",
            discussion: """
                Takes the run lock, swaps OUTPUT/current to the build OUTPUT/previous names (one rename), \
                then points previous at the build rolled back from, so a second rollback undoes the first. \
                Exit status: 0 rolled back; 2 when there is no previous build, another run holds the lock, \
                or the output directory cannot be changed.
                """)
        @Argument(help: "The pipeline file (pipelines/nightly.yaml): it names the state directory and lock.") var file: String
        @Option(name: .shortAndLong, help: "Output directory (builds, current, previous).") var output = "output"

        func validate() throws {
            try requirePath(file, option: "<file>")
            try requirePath(output, option: "--output")
        }

        func run() throws {
            let definition = try PipelineDefinition.load(path: file)
            let runner = PipelineRunner(definition: definition, options: .init(outputDirectory: output, toolDirectory: executableDirectory()))
            do {
                let result = try runner.rollback()
                FileHandle.standardError.write(Data("pipeline: rolled back: current → \(result.to) (was \(result.from)); previous → \(result.from)\n".utf8))
            } catch {
                throw StageFailure(StageExit(error.kind), error.message)
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a pipeline file without running it (names, references, outputs, time-outs): exit 0, or 2 with file:line:column.")
        @Argument(help: "The pipeline file (pipelines/nightly.yaml).") var file: String

        func validate() throws { try requirePath(file, option: "<file>") }

        func run() throws {
            let definition = try PipelineDefinition.load(path: file)
            let timeouts = Set(definition.stages.map(\.timeout.description)).sorted().joined(separator: ", ")
            print("\(file): pipeline \(definition.name), \(formatCount(definition.stages.count, "stage")) (time-outs \(timeouts)): ok")
        }
    }

    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the stages in run order with their inputs, and the sources found.")
        @OptionGroup var common: Common

        func run() throws {
            let definition = try common.definition()
            let parameters = try common.parameters()
            let plan: PipelinePlan
            do { plan = try PipelinePlan(definition, parameters: parameters) } catch {
                throw StageFailure(StageExit(error.kind), error.message)
            }
            print("pipeline \(definition.name): \(formatCount(definition.stages.count, "stage"))")
            for index in plan.order {
                let stage = definition.stages[index]
                let after = plan.dependencies[index].map { definition.stages[$0].name }
                print("  \(stage.name) (\(stage.tool))" + (after.isEmpty ? "" : " after \(after.joined(separator: ", "))"))
                print("    inputs:  \(stage.inputs.joined(separator: ", "))")
                print("    outputs: \(stage.outputs.joined(separator: ", "))")
            }
            print("sources:")
            for (name, paths) in plan.sources.sorted(by: { $0.key < $1.key }) {
                print("  \(name): " + (paths.isEmpty ? "(none)" : paths.joined(separator: " ")))
            }
        }
    }
}

extension StageExit {
    /// A failed run's exit status: data rejected when a stage failed, a source is missing or a
    /// guard refused; usage or I/O otherwise (the pipeline file, the lock, the directories).
    init(_ failure: PipelineError.Kind) {
        switch failure {
        case .stageFailed, .missingSource, .guardRefused: self = .dataRejected
        case .invalidDefinition, .io, .cancelled, .locked: self = .usageOrIO
        }
    }
}

/// The directory holding this executable (where `swift build` puts the stage executables too).
func executableDirectory() -> String {
    let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
    return FilePath.directory(of: path)
}

/// Prints events: plain lines, or the same lines above a progress bar on a terminal.
final class Display: @unchecked Sendable {
    private let bar: Bool
    private let lock = NSLock()
    private var total = 0
    private var finished = 0
    private var bytesDone = 0
    private var guardsHeld = 0
    private var running: [String] = []
    private let start = ContinuousClock.now
    private var ticker: DispatchSourceTimer?

    init(bar: Bool) { self.bar = bar }

    func handle(_ event: PipelineEvent) {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .started(let run, let stages):
            total = stages.count
            line("pipeline: run \(run): \(stages.joined(separator: " → "))")
            if bar {
                let timer = DispatchSource.makeTimerSource(queue: .global())
                timer.schedule(deadline: .now() + 0.2, repeating: 0.2)
                timer.setEventHandler { [weak self] in self?.redraw() }
                timer.resume()
                ticker = timer
            }
        case .stageStarted(let stage, _, let bytes):
            running.append(stage)
            line("[\(stage)] started (\(Display.megabytes(bytes)) of input)")
        case .stageLine(let stage, let text):
            // GitHub workflow commands (validate --format github) only work at the line start.
            line(text.hasPrefix("::") ? text : "[\(stage)] \(text)")
        case .stageFinished(let s):
            running.removeAll { $0 == s.name }
            finished += 1
            bytesDone += s.inputBytes
            var text = "[\(s.name)] \(s.status.rawValue)"
            switch s.status {
            case .ran: text += String(format: " in %.2f s", s.seconds)
            case .skipped: text += ": inputs unchanged since its last successful run"
            case .dropped: text += ": \(s.error ?? "an input is absent"); the stages after it run without it"
            case .failed:
                if let seconds = s.timedOutAfter {
                    text += ": timed out after \(Int(seconds)) s; stopped with every process it started"
                } else {
                    text += s.exitCode.map { " (exit \($0))" } ?? (s.error.map { ": \($0)" } ?? "")
                }
            default: break
            }
            if let rows = s.rows { text += "; rows read \(formatCount(rows.read)), rejected \(formatCount(rows.rejected))" }
            line(text)
        case .guardChecked(let g):
            if g.warned == true { line("guard \(g.name) WARNING: \(g.detail)") }
            if g.held { guardsHeld += 1 } else if g.accepted == true { line("guard \(g.name) ACCEPTED (--accept): \(g.detail)") } else { line("guard \(g.name) REFUSED: \(g.detail)") }
        case .publishing(let message):
            if guardsHeld > 0 { line("pipeline: \(formatCount(guardsHeld, "guard")) held (details in the run summary)") }
            line("pipeline: \(message)")
        case .finished(let summary):
            ticker?.cancel()
            ticker = nil
            if bar { clearBar() }
            let ran = summary.stages.filter { $0.status == .ran }.count
            let skipped = summary.stages.filter { $0.status == .skipped }.count
            line(String(format: "pipeline: %@ in %.2f s (%d ran, %d skipped)", summary.status.rawValue, summary.seconds, ran, skipped)
                 + (summary.status == .published || summary.status == .unchanged ? "" : (summary.message.map { ": \($0)" } ?? "")),
                 redraw: false)
            if summary.summaryWritten { line("pipeline: summary in runs/\(summary.run).json", redraw: false) }
            if let reason = summary.summaryError { line("pipeline: run summary not recorded: \(reason)", redraw: false) }
            if let reason = summary.metricsError { line("pipeline: metrics not written: \(reason)", redraw: false) }
        }
    }

    func note(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        line("pipeline: \(text)")
    }

    /// One line on standard error, its control characters escaped: a stage's output is
    /// forwarded as it is read, and a tool that prints an escape sequence or a carriage return
    /// must not clear the operator's terminal or overwrite a line of the log.
    private func line(_ text: String, redraw: Bool = true) {
        if bar { clearBar() }
        FileHandle.standardError.write(Data((LocatedError.visible(text) + "\n").utf8))
        if bar && redraw { drawBar() }
    }

    private func redraw() {
        lock.lock()
        defer { lock.unlock() }
        guard ticker != nil else { return }
        clearBar()
        drawBar()
    }

    private func clearBar() { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }

    private func drawBar() {
        let width = 24
        let filled = total == 0 ? 0 : width * finished / total
        let seconds = Double((ContinuousClock.now - start).components.seconds)
            + Double((ContinuousClock.now - start).components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(bytesDone) / 1_048_576 / seconds : 0
        var text = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "] "
        text += "\(finished)/\(total) stages · \(Display.megabytes(bytesDone)) · " + String(format: "%.1f MB/s · %.1f s", rate, seconds)
        if !running.isEmpty { text += " · " + running.joined(separator: ", ") }
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes < 1_048_576 ? String(format: "%.1f KB", Double(bytes) / 1024) : String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}

PipelineCommand.runStage(name: "pipeline")
