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
/// Three parts do the work: the plan resolves every stage's references once
/// (`PipelinePlan.stages`), `StageScheduler` decides which stage runs when, `StageExecutor`
/// runs one (fingerprint → cache → process → store), and `RunRecorder` keeps the summary and
/// writes it to `OUTPUT/runs/RUN.json`. This type holds them together: lock, staging, publish.
///
/// State lives in `OUTPUT/.pipeline/NAME/`: `stages/` (each stage's last good outputs),
/// `staging/RUN/` (this run's staging), `lock`, `digests.json` (`DigestCache`). Nothing under the published names changes until
/// every stage passed and every guard held.
///
/// ```swift
/// let runner = PipelineRunner(definition: try PipelineDefinition.load(path: "pipelines/nightly.yaml"),
///                             parameters: ["SOURCES": "input"],
///                             options: .init(outputDirectory: "output", toolDirectory: ".build/release"))
/// let summary = runner.run { event in print(event) }
/// summary.status   // .published, .unchanged, .failed, …
/// ```
public final class PipelineRunner: Sendable {
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
        /// Guards whose refusal is accepted for this run (`shrink MASTER`), recorded as such.
        public var accept: Set<String> = []
        /// How long a stopped stage (interrupted, or past its time-out) has between SIGTERM
        /// and SIGKILL.
        public var killGrace: Duration = .seconds(5)
        /// The run's wall-clock time, for the freshness guard (how long a source has stayed the same).
        public var now = Date()

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
    private let cancellation = Cancellation()

    public init(definition: PipelineDefinition, parameters: [String: String] = [:], options: Options) {
        self.definition = definition
        self.parameters = parameters
        self.options = options
    }

    /// Where this pipeline keeps its stage cache and staging directories.
    public var stateDirectory: String { options.outputDirectory + "/.pipeline/" + definition.name }

    /// Stops the run: running stages get SIGTERM, no new stage starts, nothing is published.
    public func cancel() { cancellation.cancel() }

    /// Runs the pipeline and writes its summary to `OUTPUT/runs/RUN.json`.
    public func run(onEvent: @escaping @Sendable (PipelineEvent) -> Void = { _ in }) -> RunSummary {
        var recorder = RunRecorder(pipeline: definition.name, parameters: definition.parameters.merging(parameters) { $1 },
                                   outputDirectory: options.outputDirectory, emit: onEvent)
        let lockFD: Int32
        do { lockFD = try acquireLock() } catch {
            recorder.fail(error)
            return recorder.finish()
        }
        defer { close(lockFD) }

        let plan: PipelinePlan
        let guards: GuardSpec
        let work = stateDirectory + "/staging/" + recorder.runID
        do {
            try clearLeftovers()
            plan = try PipelinePlan(definition, parameters: parameters)
            guards = try definition.guards.resolved(plan.parameters, file: definition.path)
            try tree.directory(stateRelative + "/staging/" + recorder.runID)
        } catch {
            recorder.fail(error)
            return recorder.finish()
        }
        let layout = StageLayout(cache: stateDirectory + "/stages", staging: work + "/stages", keep: stateDirectory + "/state",
                                 run: recorder.runID, published: Publisher.currentBuild(in: options.outputDirectory))
        let stages = plan.stages(in: layout, toolDirectory: options.toolDirectory)
        onEvent(.started(run: recorder.runID, stages: plan.order.map { stages[$0].name }))

        // Source and tool digests carried over from the last run by their files' stamps; a
        // forced run hashes everything again.
        let digests = DigestCache(path: stateDirectory + "/" + DigestCache.fileName, trusted: !options.force)
        let executor = StageExecutor(cache: StageCache(directory: layout.cache), trash: work + "/replaced",
                                     environment: options.environment, force: options.force, cancellation: cancellation,
                                     tree: tree, grace: options.killGrace, digests: digests, emit: onEvent)
        let scheduler = StageScheduler(stages: stages, order: plan.order, jobs: options.jobs, cancellation: cancellation)
        let results = scheduler.run(executor.execute) { onEvent(.stageFinished($0)) }
        digests.save()
        guard recorder.record(stages: results, cancelled: cancellation.isCancelled) else { return recorder.finish() }

        if let spec = definition.publish {
            publish(spec, guards: guards, layout: layout, work: work, dropped: Set(stages.filter { $0.dropped != nil }.map(\.name)), recorder: &recorder)
            onEvent(.publishing(recorder.summary.message ?? ""))
        } else {
            recorder.passed()
            try? tree.remove(stateRelative + "/staging/" + recorder.runID)
        }
        return recorder.finish()
    }

    /// Assembles, guards and publishes the build from the stages' cached outputs.
    private func publish(_ spec: PublishSpec, guards: GuardSpec, layout: StageLayout, work: String, dropped: Set<String>, recorder: inout RunRecorder) {
        let publisher = Publisher(outputDirectory: options.outputDirectory, spec: spec, guards: guards,
                                  runID: recorder.runID, staging: work, accept: options.accept, tree: tree,
                                  freshness: SourceFreshness(path: stateDirectory + "/" + SourceFreshness.fileName, now: options.now))
        do {
            let outcome = try publisher.publish(file: { ref in
                guard case .stageFile(let stage, let file)? = definition.reference(ref) else { return ref }
                return dropped.contains(stage) ? nil : layout.cached(stage) + "/" + file
            }, onGuard: { recorder.guardChecked($0) })
            recorder.record(outcome, staging: work)
            if case .refused(_, staged: true) = outcome {} else { try? tree.remove(stateRelative + "/staging/" + recorder.runID) }
        } catch {
            recorder.fail(error)
        }
    }

    // MARK: Run state

    /// The output directory, walked without following links.
    private var tree: OutputTree { OutputTree(root: options.outputDirectory) }

    /// The state directory relative to the output directory.
    private var stateRelative: String { ".pipeline/" + definition.name }

    /// An exclusive lock on the pipeline's state: two runs never share staging or the cache.
    /// The state directory must be a real directory inside the output (never a link).
    func acquireLock() throws(PipelineError) -> Int32 {
        try tree.directory(stateRelative)
        let fd = open(stateDirectory + "/lock", O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PipelineError(.io, "\(stateDirectory)/lock: cannot open: \(SystemReason.errnoText)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw PipelineError(.locked, "another run of \(definition.name) is using \(options.outputDirectory)")
        }
        return fd
    }

    /// What killed runs left, removed under the lock: their stage processes, their staging, and
    /// the temporary files of a swap or a summary write whose process is gone. The directories the pipeline keeps must
    /// be real directories: a link planted in their place is refused before anything is deleted.
    private func clearLeftovers() throws(PipelineError) {
        for directory in ["runs", "builds", stateRelative + "/stages"] { _ = try tree.isDirectory(directory) }
        try tree.directory(stateRelative + "/staging")
        StrayStages.stop(staging: stateDirectory + "/staging")
        try tree.removeContents(of: stateRelative + "/staging")
        for (directory, names) in [("", try tree.names(in: "")), ("runs", try tree.names(in: "runs"))] {
            for name in names where Leftover.isStale(name) {
                try tree.remove(directory.isEmpty ? name : directory + "/" + name)
            }
        }
    }
}

/// Temporary files named after the process that wrote them: `current.tmp-PID` (a link being
/// swapped), `.NAME.tmp-PID-RANDOM` (an atomic write).
enum Leftover {
    /// The writing process's id in a temporary file's name, or nil for any other name.
    static func pid(in name: String) -> pid_t? {
        guard let marker = name.range(of: ".tmp-", options: .backwards) else { return nil }
        let rest = name[marker.upperBound...]
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 10, let pid = pid_t(digits) else { return nil }
        let tail = rest.dropFirst(digits.count)
        // `-RANDOM` after the pid (an atomic write's temporary file), or nothing (a link swap's).
        guard tail.isEmpty || (tail.first == "-" && tail.dropFirst().allSatisfy { $0.isASCII && $0.isNumber } && tail.count > 1) else {
            return nil
        }
        return pid
    }

    /// A temporary file whose writer is no longer running (a live process keeps its files: it
    /// may be a refused run writing its summary beside this one).
    static func isStale(_ name: String) -> Bool {
        guard let pid = pid(in: name), pid > 0 else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
