import ArgumentParser
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuidePipeline
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
        subcommands: [Run.self, Plan.self, Check.self],
        defaultSubcommand: Run.self
    )
}

struct Common: ParsableArguments {
    @Argument(help: "The pipeline file (pipelines/nightly.yaml).") var file: String
    @Option(name: .customLong("set"), help: "Set a parameter: NAME=VALUE (repeatable).") var settings: [String] = []

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
        @Option(help: "Accept a guard's refusal on purpose, recorded in the run summary: shrink:SOURCE or rejects:SOURCE (repeatable).")
        var accept: [String] = []
        @Option(help: "Progress display: auto (a bar on a terminal), bar or plain.") var progress: ProgressMode = .auto
        @Option(help: "Seconds a stopped stage (interrupted, or past its time-out) has between SIGTERM and SIGKILL.")
        var killGrace: Double = 5

        func validate() throws {
            guard killGrace >= 0, killGrace <= 3600 else { throw ValidationError("--kill-grace: expected seconds from 0 to 3600, found \(killGrace)") }
            for item in accept {
                let parts = item.split(separator: ":")
                guard parts.count == 2, ["shrink", "rejects"].contains(parts[0]), !parts[1].isEmpty else {
                    throw ValidationError("--accept: expected shrink:SOURCE or rejects:SOURCE (shrink:MASTER), found \(item)")
                }
            }
        }

        func run() throws {
            let definition = try common.definition()
            var options = PipelineRunner.Options(outputDirectory: output, toolDirectory: bin ?? executableDirectory(),
                                                 jobs: jobs, force: force)
            options.accept = Set(accept.map { $0.replacingOccurrences(of: ":", with: " ") })
            options.killGrace = .milliseconds(Int((killGrace * 1000).rounded()))
            let runner = PipelineRunner(definition: definition, parameters: try common.parameters(), options: options)
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

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a pipeline file without running it (names, references, outputs, time-outs): exit 0, or 2 with file:line:column.")
        @Argument(help: "The pipeline file (pipelines/nightly.yaml).") var file: String

        func run() throws {
            let definition = try PipelineDefinition.load(path: file)
            let timeouts = Set(definition.stages.map(\.timeout.description)).sorted().joined(separator: ", ")
            print("\(file): pipeline \(definition.name), \(definition.stages.count) stages (time-outs \(timeouts)): ok")
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
            print("pipeline \(definition.name): \(definition.stages.count) stages")
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
    return (path as NSString).deletingLastPathComponent
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
            if g.held { guardsHeld += 1 } else if g.accepted == true { line("guard \(g.name) ACCEPTED (--accept): \(g.detail)") } else { line("guard \(g.name) REFUSED: \(g.detail)") }
        case .publishing(let message):
            if guardsHeld > 0 { line("pipeline: \(guardsHeld) guards held (details in the run summary)") }
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
        }
    }

    func note(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        line("pipeline: \(text)")
    }

    private func line(_ text: String, redraw: Bool = true) {
        if bar { clearBar() }
        FileHandle.standardError.write(Data((text + "\n").utf8))
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
