import FieldGuide
import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a pipeline: stages in dependency order (independent ones side by side), skipping
/// stages whose fingerprint matches their last success, then publishes.
///
/// State lives in `OUTPUT/.pipeline/NAME/`: `stages/` (each stage's last good outputs),
/// `staging/RUN/` (this run's staging), `lock`. Nothing under the published names changes until
/// every stage passed and every guard held.
///
/// ```swift
/// let runner = PipelineRunner(definition: try PipelineDefinition.load(path: "pipelines/nightly.yaml"),
///                             parameters: ["SOURCES": "input"],
///                             options: .init(outputDirectory: "output", toolDirectory: ".build/release"))
/// let summary = runner.run { event in print(event) }
/// summary.status   // .published, .unchanged, .failed, …
/// ```
public final class PipelineRunner: @unchecked Sendable {
    public struct Options: Sendable {
        public var outputDirectory: String
        /// Where the stage executables are.
        public var toolDirectory: String
        /// How many stages may run at once.
        public var jobs: Int
        /// The stages' environment (`SOURCE_DATE_EPOCH` in it is part of every fingerprint).
        public var environment: [String: String]
        /// Run every stage even when its fingerprint matches.
        public var force: Bool

        public init(outputDirectory: String, toolDirectory: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                    environment: [String: String] = ProcessInfo.processInfo.environment, force: Bool = false) {
            self.outputDirectory = outputDirectory
            self.toolDirectory = toolDirectory
            self.jobs = max(1, jobs)
            self.environment = environment
            self.force = force
        }
    }

    public let definition: PipelineDefinition
    public let parameters: [String: String]
    public let options: Options

    private let lock = NSCondition()
    private var cancelled = false
    private var children: [String: StageProcess] = [:]
    private var sourceDigests: [String: (sha256: String, bytes: Int)] = [:]
    private var toolDigests: [String: String] = [:]
    private var emit: @Sendable (PipelineEvent) -> Void = { _ in }

    public init(definition: PipelineDefinition, parameters: [String: String] = [:], options: Options) {
        self.definition = definition
        self.parameters = parameters
        self.options = options
    }

    /// Where this pipeline keeps its stage cache and staging directories.
    public var stateDirectory: String { options.outputDirectory + "/.pipeline/" + definition.name }

    /// Stops the run: running stages get SIGTERM, no new stage starts, nothing is published.
    public func cancel() {
        lock.lock()
        cancelled = true
        let running = Array(children.values)
        lock.broadcast()
        lock.unlock()
        running.forEach { $0.terminate() }
    }

    /// Runs the pipeline and writes its summary to `OUTPUT/runs/RUN.json`.
    public func run(onEvent: @escaping @Sendable (PipelineEvent) -> Void = { _ in }) -> RunSummary {
        emit = onEvent
        let clock = ContinuousClock.now
        let runID = Self.runID(in: options.outputDirectory + "/runs")
        var summary = RunSummary(pipeline: definition.name, run: runID, started: Self.iso8601(Date()), seconds: 0,
                                 status: .failed, message: nil, failure: nil, parameters: definition.parameters.merging(parameters) { $1 },
                                 stages: [], guards: [], build: nil, changes: nil)
        let lockFD: Int32
        do {
            lockFD = try acquireLock()
        } catch {
            summary.message = error.message
            summary.failure = error.kind
            return finish(summary, clock: clock)
        }
        defer { close(lockFD) }

        let plan: PipelinePlan
        do {
            plan = try PipelinePlan(definition, parameters: parameters)
        } catch {
            summary.message = error.message
            summary.failure = error.kind
            if error.kind == .missingSource {
                summary.guards = [.init(name: "required sources", held: false, detail: error.message)]
            }
            return finish(summary, clock: clock)
        }
        let work = stateDirectory + "/staging/" + runID
        cleanStaleStaging()
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        } catch {
            summary.message = "\(work): cannot create the staging directory: \(SystemReason.of(error))"
            summary.failure = .io
            return finish(summary, clock: clock)
        }
        emit(.started(run: runID, stages: plan.order.map { definition.stages[$0].name }))

        summary.stages = runStages(plan, work: work)
        if let failed = summary.stages.first(where: { $0.status == .failed }) {
            summary.message = "stage \(failed.name) failed" + (failed.exitCode.map { " (exit \($0))" } ?? "")
                + (failed.error.flatMap { $0.split(separator: "\n").last.map { ": \($0)" } } ?? "")
            summary.failure = .stageFailed
            return finish(summary, clock: clock)
        }
        if isCancelled || summary.stages.contains(where: { $0.status == .cancelled }) {
            summary.status = .cancelled
            summary.message = "interrupted; nothing published"
            summary.failure = .cancelled
            return finish(summary, clock: clock)
        }

        guard let publish = definition.publish else {
            summary.status = .passed
            try? FileManager.default.removeItem(atPath: work)
            return finish(summary, clock: clock)
        }
        let cache = StageCache(directory: stateDirectory + "/stages")
        let publisher = Publisher(outputDirectory: options.outputDirectory, spec: publish, guards: definition.guards,
                                  runID: runID, staging: work)
        do {
            let outcome = try publisher.publish(file: { ref in
                guard case .stageFile(let stage, let file)? = definition.reference(ref) else { return ref }
                return cache.path(stage) + "/" + file
            }, onGuard: { result in
                summary.guards.append(result)
                emit(.guardChecked(result))
            })
            switch outcome {
            case .published(let build, let changes):
                summary.status = .published
                summary.build = build
                summary.changes = changes.map(Self.totals)
                summary.message = "published \(build)"
                try? FileManager.default.removeItem(atPath: work)
            case .unchanged(let build):
                summary.status = .unchanged
                summary.build = build
                summary.message = "artifacts unchanged; \(build) stays current"
                try? FileManager.default.removeItem(atPath: work)
            case .refused(let failed):
                summary.status = .refused
                summary.failure = .guardRefused
                summary.message = "not published: " + failed.map { "\($0.name): \($0.detail)" }.joined(separator: "; ")
                    + " (the refused build is in \(Publisher.relative(work, to: options.outputDirectory))/build)"
            }
        } catch {
            summary.message = error.message
            summary.failure = error.kind
        }
        emit(.publishing(summary.message ?? ""))
        return finish(summary, clock: clock)
    }

    // MARK: Stages

    private var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    private enum Slot { case pending, running, done(RunSummary.Stage) }

    /// Stage progress, guarded by `lock`.
    private var slots: [Slot] = []
    private var runningCount = 0

    private func runStages(_ plan: PipelinePlan, work: String) -> [RunSummary.Stage] {
        lock.lock()
        slots = [Slot](repeating: .pending, count: definition.stages.count)
        var stop = false
        while true {
            if !stop && !cancelled {
                for i in plan.order where runningCount < options.jobs {
                    guard case .pending = slots[i] else { continue }
                    let depsDone = plan.dependencies[i].allSatisfy {
                        if case .done(let s) = slots[$0] { return s.status == .ran || s.status == .skipped }
                        return false
                    }
                    guard depsDone else { continue }
                    slots[i] = .running
                    runningCount += 1
                    Thread.detachNewThread { [self] in
                        let result = self.execute(i, plan, work: work)
                        self.emit(.stageFinished(result))
                        self.lock.lock()
                        self.slots[i] = .done(result)
                        self.runningCount -= 1
                        self.lock.broadcast()
                        self.lock.unlock()
                    }
                }
            }
            if runningCount == 0 { break }
            lock.wait()
            for case .done(let s) in slots where s.status == .failed || s.status == .cancelled { stop = true }
        }
        let finished = slots
        let wasCancelled = cancelled
        lock.unlock()
        return plan.order.map { i in
            if case .done(let s) = finished[i] { return s }
            let stage = definition.stages[i]
            return RunSummary.Stage(name: stage.name, tool: stage.tool, status: wasCancelled ? .cancelled : .notRun, seconds: 0,
                                    exitCode: nil, fingerprint: nil, inputBytes: 0, counts: [:], rows: nil, error: nil)
        }
    }

    /// Fingerprints one stage, then skips it or runs it and caches its outputs.
    private func execute(_ index: Int, _ plan: PipelinePlan, work: String) -> RunSummary.Stage {
        let stage = definition.stages[index]
        let started = ContinuousClock.now
        let cache = StageCache(directory: stateDirectory + "/stages")
        var result = RunSummary.Stage(name: stage.name, tool: stage.tool, status: .failed, seconds: 0, exitCode: nil,
                                      fingerprint: nil, inputBytes: 0, counts: [:], rows: nil, error: nil)
        func elapsed() -> Double { (Self.seconds(ContinuousClock.now - started) * 1000).rounded() / 1000 }

        let tool = options.toolDirectory + "/" + stage.tool
        let fingerprint: String
        do {
            (fingerprint, result.inputBytes) = try self.fingerprint(index, plan, tool: tool, cache: cache)
        } catch {
            result.error = error.message
            result.seconds = elapsed()
            return result
        }
        result.fingerprint = fingerprint

        if stage.cache, !options.force, let record = cache.record(stage.name), record.fingerprint == fingerprint {
            result.status = .skipped
            readReport(stage, in: cache.path(stage.name), into: &result)
            result.seconds = elapsed()
            return result
        }

        let staged = work + "/stages/" + stage.name
        try? FileManager.default.removeItem(atPath: staged)
        do {
            try FileManager.default.createDirectory(atPath: staged, withIntermediateDirectories: true)
        } catch {
            result.error = "\(staged): cannot create: \(SystemReason.of(error))"
            return result
        }
        let arguments = plan.arguments(index) { ref in
            if ref == PipelineDefinition.outputReference { return [staged] }
            switch definition.reference(ref) {
            case .source(let s)?: return plan.sources[s] ?? []
            case .stage(let s)?: return [cache.path(s)]
            case .stageFile(let s, let f)?: return [cache.path(s) + "/" + f]
            case nil: return []
            }
        }
        emit(.stageStarted(stage: stage.name, command: [tool] + arguments, inputBytes: result.inputBytes))
        let child = StageProcess(executable: tool, arguments: arguments, environment: options.environment)
        lock.lock()
        if cancelled {
            lock.unlock()
            result.status = .cancelled
            return result
        }
        children[stage.name] = child
        lock.unlock()
        let tail = LineTail(limit: 12)
        let status: Int32
        do {
            status = try child.run { [emit] line in
                tail.append(line)
                emit(.stageLine(stage: stage.name, line: line))
            }
        } catch {
            result.error = error.message
            result.status = error.kind == .cancelled ? .cancelled : .failed
            result.seconds = elapsed()
            return result
        }
        lock.lock()
        children[stage.name] = nil
        let wasCancelled = cancelled
        lock.unlock()
        result.exitCode = status
        result.seconds = elapsed()
        guard status == 0 else {
            result.status = wasCancelled ? .cancelled : .failed
            result.error = tail.text
            return result
        }
        if let missing = stage.outputs.first(where: { !FileManager.default.fileExists(atPath: staged + "/" + $0) }) {
            result.error = "\(stage.tool) exited 0 but did not write its declared output \(missing)"
            return result
        }
        do {
            let record = try StageRecord.make(stage: stage.name, fingerprint: fingerprint, directory: staged)
            try cache.store(record, from: staged, trash: work + "/replaced")
        } catch {
            result.error = error.message
            return result
        }
        result.status = .ran
        readReport(stage, in: cache.path(stage.name), into: &result)
        result.seconds = elapsed()
        return result
    }

    /// SHA-256 over the tool, the command line with parameters set, every input's content and
    /// `SOURCE_DATE_EPOCH`; and the inputs' size in bytes.
    private func fingerprint(_ index: Int, _ plan: PipelinePlan, tool: String, cache: StageCache) throws(PipelineError) -> (String, Int) {
        let stage = definition.stages[index]
        var lines = ["fieldguide-pipeline-stage 1", "stage \(stage.name)", "tool \(stage.tool) \(try toolDigest(tool))"]
        lines += plan.argumentTemplate(index).map { "arg \($0)" }
        var bytes = 0
        for input in stage.inputs {
            switch definition.reference(input) {
            case .source(let name)?:
                let digest = try sourceDigest(name, paths: plan.sources[name] ?? [])
                lines.append("input \(input) \(digest.sha256)")
                bytes += digest.bytes
            case .stage(let name)?:
                guard let record = cache.record(name) else { throw PipelineError(.io, "stage \(name) left no outputs for \(stage.name)") }
                lines.append("input \(input) \(record.digest)")
                bytes += record.bytes
            case .stageFile(let name, let file)?:
                guard let digest = cache.record(name)?.outputs[file] else {
                    throw PipelineError(.io, "stage \(name) left no \(file) for \(stage.name)")
                }
                lines.append("input \(input) \(digest)")
                bytes += (try? FileManager.default.attributesOfItem(atPath: cache.path(name) + "/" + file)[.size] as? Int) ?? 0
            case nil:
                throw PipelineError(LocatedError(.usage, file: definition.path, message: "stage \(stage.name) reads unknown input \(input)"))
            }
        }
        lines.append("env SOURCE_DATE_EPOCH=\(options.environment["SOURCE_DATE_EPOCH"] ?? "")")
        return (FileDigest.sha256(Array(lines.joined(separator: "\n").utf8)), bytes)
    }

    private func sourceDigest(_ name: String, paths: [String]) throws(PipelineError) -> (sha256: String, bytes: Int) {
        lock.lock()
        if let known = sourceDigests[name] { lock.unlock(); return known }
        lock.unlock()
        let digest = try ContentDigest.digest(of: paths)
        lock.lock()
        sourceDigests[name] = digest
        lock.unlock()
        return digest
    }

    private func toolDigest(_ tool: String) throws(PipelineError) -> String {
        lock.lock()
        if let known = toolDigests[tool] { lock.unlock(); return known }
        lock.unlock()
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw PipelineError(.io, "\(tool): no such stage executable (build it, or pass --bin)")
        }
        let digest: String
        do { digest = try FileDigest.sha256(ofFileAt: tool).digest } catch { throw PipelineError(error) }
        lock.lock()
        toolDigests[tool] = digest
        lock.unlock()
        return digest
    }

    /// Counts and rows from the stage's JSON report (stage reports and manifests both have
    /// `counts` and `sources[].rows`; a manifest nests them under `artifacts[]`).
    private func readReport(_ stage: StageSpec, in directory: String, into result: inout RunSummary.Stage) {
        guard let report = stage.report, let data = FileManager.default.contents(atPath: directory + "/" + report),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        var objects = [json]
        if let artifacts = json["artifacts"] as? [[String: Any]] { objects = artifacts }
        var rows: Manifest.Rows?
        for object in objects {
            for (key, value) in (object["counts"] as? [String: Any]) ?? [:] {
                if let n = value as? Int { result.counts[key, default: 0] += n }
            }
            for source in (object["sources"] as? [[String: Any]]) ?? [] {
                guard let r = source["rows"] as? [String: Any] else { continue }
                var sum = rows ?? Manifest.Rows()
                sum.read += r["read"] as? Int ?? 0
                sum.kept += r["kept"] as? Int ?? 0
                sum.rejected += r["rejected"] as? Int ?? 0
                sum.warnings += r["warnings"] as? Int ?? 0
                rows = sum
            }
        }
        result.rows = rows
    }

    // MARK: Run bookkeeping

    /// An exclusive lock on the pipeline's state: two runs never share staging or the cache.
    private func acquireLock() throws(PipelineError) -> Int32 {
        do {
            try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw PipelineError(.io, "\(stateDirectory): cannot create: \(SystemReason.of(error))")
        }
        let fd = open(stateDirectory + "/lock", O_CREAT | O_RDWR, 0o644)
        guard fd >= 0 else { throw PipelineError(.io, "\(stateDirectory)/lock: cannot open: \(SystemReason.errnoText)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw PipelineError(.locked, "another run of \(definition.name) is using \(options.outputDirectory)")
        }
        return fd
    }

    /// Staging left by killed runs (the lock says no other run is using it).
    private func cleanStaleStaging() {
        let dir = stateDirectory + "/staging"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
            try? FileManager.default.removeItem(atPath: dir + "/" + name)
        }
    }

    private func finish(_ summary: RunSummary, clock start: ContinuousClock.Instant) -> RunSummary {
        var summary = summary
        summary.seconds = (Self.seconds(ContinuousClock.now - start) * 1000).rounded() / 1000
        do throws(LocatedError) {
            try JSON.write(summary, to: options.outputDirectory + "/runs/" + summary.run + ".json")
        } catch {
            summary.message = (summary.message.map { $0 + "; " } ?? "") + "run summary not written: \(error)"
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

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func iso8601(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }

    /// `20261122T031500Z`, with `-2`, `-3`… when a run of the same second exists.
    static func runID(in runs: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = f.string(from: Date())
        var id = base
        var n = 2
        while FileManager.default.fileExists(atPath: runs + "/" + id + ".json") { id = "\(base)-\(n)"; n += 1 }
        return id
    }
}

/// The last lines of a stage's output, kept for the summary of a failed stage.
final class LineTail: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private let limit: Int
    init(limit: Int) { self.limit = limit }
    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        if lines.count > limit { lines.removeFirst() }
        lock.unlock()
    }
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return lines.joined(separator: "\n")
    }
}
