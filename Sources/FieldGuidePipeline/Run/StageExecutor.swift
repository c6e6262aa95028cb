import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideWorkers
import Foundation

/// Runs one planned stage: fingerprint → cache → process → store.
///
/// A stage whose fingerprint matches its last success (and whose cached report decodes) is
/// skipped. Otherwise its tool runs into this run's staging directory; it passes when it exits
/// 0, leaves every declared output, and its report decodes typed (a `StageReport` with status
/// `ok`, or an emit stage's `Manifest`). Only then does the directory replace the cached one.
///
/// ```swift
/// let executor = StageExecutor(cache: StageCache(directory: state + "/stages"), trash: work + "/replaced",
///                              environment: ProcessInfo.processInfo.environment, force: false,
///                              cancellation: Cancellation()) { event in print(event) }
/// let result = executor.execute(stage)   // RunSummary.Stage: ran, skipped, failed or cancelled
/// ```
final class StageExecutor: Sendable {
    let cache: StageCache
    /// Where replaced cache entries go (inside this run's staging).
    let trash: String
    /// The pipeline's environment (`SOURCE_DATE_EPOCH` in it is part of every fingerprint).
    let environment: [String: String]
    /// What the stages run with: `environment` and glibc's huge pages (`StageEnvironment`).
    private let stageEnvironment: [String: String]
    /// Run every stage even when its fingerprint matches.
    let force: Bool
    let cancellation: Cancellation
    /// The output directory, for removing and checking without following links.
    let tree: OutputTree
    /// How long a stopped stage has between SIGTERM and SIGKILL.
    let grace: Duration
    let emit: @Sendable (PipelineEvent) -> Void
    private let digests: DigestMemo

    /// `digests` keeps the source and tool digests across runs (`DigestCache`).
    init(cache: StageCache, trash: String, environment: [String: String], force: Bool, cancellation: Cancellation,
         tree: OutputTree, grace: Duration = .seconds(5), digests: DigestCache = DigestCache(path: nil),
         emit: @escaping @Sendable (PipelineEvent) -> Void) {
        self.digests = DigestMemo(cache: digests)
        self.cache = cache; self.trash = trash; self.environment = environment; self.force = force
        stageEnvironment = StageEnvironment.forStages(environment)
        self.cancellation = cancellation; self.tree = tree; self.grace = grace; self.emit = emit
    }

    /// Fingerprints the stage, then skips it or runs it and caches its outputs.
    func execute(_ stage: PlannedStage) -> RunSummary.Stage {
        let started = ContinuousClock.now
        var result = RunSummary.Stage(name: stage.name, tool: stage.tool, status: .failed, seconds: 0, exitCode: nil,
                                      fingerprint: nil, inputBytes: 0, counts: [:], rows: nil, error: nil)
        if let reason = stage.dropped {
            (result.status, result.error) = (.dropped, reason)
            return result
        }
        do {
            guard stage.cache, !force, cache.record(stage.name) != nil else {
                try runFingerprintingMeanwhile(stage, into: &result)
                result.seconds = RunRecorder.seconds(since: started)
                return result
            }
            let (fingerprint, bytes) = try self.fingerprint(stage)
            result.fingerprint = fingerprint
            result.inputBytes = bytes
            if cache.record(stage.name)?.fingerprint == fingerprint,
               let summary = try? ReportSummary(stage.report, in: cache.path(stage.name), tool: stage.tool) {
                result.status = .skipped
                (result.counts, result.rows) = (summary.counts, summary.rows)
            } else {
                try run(stage, fingerprint: { _ in fingerprint }, into: &result)
            }
        } catch {
            result.error = error.message
            result.status = error.kind == .cancelled ? .cancelled : .failed
        }
        result.seconds = RunRecorder.seconds(since: started)
        return result
    }

    /// Runs a stage that runs whatever its fingerprint says (nothing cached to match it, or a
    /// forced run), fingerprinted meanwhile or right after.
    ///
    /// Why: the fingerprint only decides whether to skip, and such a stage is never skipped;
    /// hashing first put 210 MB of FAA files (and each 25 MB tool) in front of the first
    /// run's critical path. The tool and the other inputs are hashed on another thread while
    /// it runs. So are the sources, except for a stage with a stage report: such a report lists
    /// every source the stage read with the SHA-256 of the bytes it read, so those files take
    /// the reported digest when their stamp is still the one they had when the stage started,
    /// and only the rest are hashed once it ends (hashing the 503 MB of FAA sources beside
    /// `ingest-faa` took a core from it for 0.5 s). The source files' stamps are taken before
    /// the stage starts, so a source that changed meanwhile still fails the stage
    /// (`checkSourcesUnchanged`).
    private func runFingerprintingMeanwhile(_ stage: PlannedStage, into result: inout RunSummary.Stage) throws(PipelineError) {
        let startedAt = DigestCache.now()
        let stamps = startingStamps(stage, bytes: &result.inputBytes)  // the size, for the progress display until the fingerprint says
        let reportsSources = if case .stage? = stage.report { true } else { false }
        let hashing = BackgroundTask { [self] () throws -> (String, Int)? in
            if reportsSources { _ = try digests.tool(stage.executable); return nil }
            return try fingerprint(stage)
        }
        defer { _ = hashing.wait() }  // however the stage ends, nothing hashes past it
        var taken: (String, Int)?
        try run(stage, fingerprint: { (summary) throws(PipelineError) -> String in
            do {
                taken = try hashing.value()
                if taken == nil {
                    taken = try fingerprint(stage, reportedSources: Self.match(summary.sources, to: stamps, startedAt: startedAt))
                }
                return taken!.0
            } catch let error as PipelineError { throw error } catch {
                throw PipelineError(.io, "\(stage.name): fingerprinting failed: \(error)")
            }
        }, startedWith: stamps, into: &result)
        if let (fingerprint, bytes) = taken { (result.fingerprint, result.inputBytes) = (fingerprint, bytes) }
    }

    /// The stamps of the stage's source files before it starts, by source; adds every input's
    /// size to `bytes` (a stage input's recorded outputs, a stage file's size).
    private func startingStamps(_ stage: PlannedStage, bytes: inout Int) -> [String: [String: ContentDigest.Stamp]] {
        var stamps: [String: [String: ContentDigest.Stamp]] = [:]
        bytes = 0
        for input in stage.inputs where !input.dropped {
            switch input.target {
            case .source(let name)?:
                let started = ContentDigest.stamps(input.paths) ?? [:]
                stamps[name] = started
                bytes += started.values.reduce(0) { $0 + Int($1.size) }
            case .stage(let name)?:
                bytes += cache.record(name)?.bytes ?? 0
            case .stageFile(let name, let file)?:
                bytes += ContentDigest.Stamp(path: cache.path(name) + "/" + file).map { Int($0.size) } ?? 0
            case nil:
                continue
            }
        }
        return stamps
    }

    /// The sources a stage report lists, matched to the stage's source files: by the path the
    /// report gives, or by a tail of path components (a file name) that names exactly one of
    /// them. Each carries the file's stamp at the start; a name that fits none or several is
    /// left out, so that file is hashed.
    static func match(_ reported: ContentDigest.Reported, to stamps: [String: [String: ContentDigest.Stamp]],
                      startedAt: Int64) -> ContentDigest.Reported {
        var byTail: [String: [String]] = [:]
        for path in stamps.values.flatMap(\.keys) {
            var tail = path[...]
            while true {
                byTail[String(tail), default: []].append(path)
                guard let slash = tail.firstIndex(of: "/") else { break }
                tail = tail[tail.index(after: slash)...]
            }
        }
        let started = stamps.values.reduce(into: [String: ContentDigest.Stamp]()) { $0.merge($1) { first, _ in first } }
        var matched: ContentDigest.Reported = [:], contradicted = Set<String>()
        for (name, file) in reported {
            guard let paths = byTail[name], paths.count == 1, let path = paths.first else { continue }
            let entry = ContentDigest.ReportedFile(sha256: file.sha256, bytes: file.bytes, startedWith: started[path], startedAt: startedAt)
            if let other = matched.updateValue(entry, forKey: path), other != entry { contradicted.insert(path) }
        }
        for path in contradicted { matched[path] = nil }  // two names for one file, two digests: hashed
        return matched
    }

    /// Runs the tool into the stage's staging directory, checks what it left, caches it.
    /// `fingerprint` is asked for once the tool has exited; `startedWith` holds the stamps of
    /// the source files when the tool started, when it was fingerprinted meanwhile.
    private func run(_ stage: PlannedStage, fingerprint: (ReportSummary) throws(PipelineError) -> String,
                     startedWith: [String: [String: ContentDigest.Stamp]] = [:], into result: inout RunSummary.Stage) throws(PipelineError) {
        let directory = tree.relative(stage.directory) ?? stage.directory
        try tree.remove(directory)
        try tree.directory(directory)
        if let keeps = stage.keeps { try tree.directory(tree.relative(keeps) ?? keeps) }
        emit(.stageStarted(stage: stage.name, command: [stage.executable] + stage.arguments, inputBytes: result.inputBytes))
        let child = StageProcess(executable: stage.executable, arguments: stage.arguments, environment: stageEnvironment,
                                 priority: stage.priority, grace: grace)
        guard cancellation.register(child) else { throw PipelineError(.cancelled, "not started: the run was interrupted") }
        defer { cancellation.unregister(child) }
        let tail = LineTail(limit: 12)
        // The process group is recorded so that the next run can stop it if this one is killed.
        let groupRecord = StrayStages.record(for: stage.directory)
        let ending = try child.run(timeout: stage.timeout, onStart: { pid in
            _ = FileManager.default.createFile(atPath: groupRecord, contents: Data("\(pid)\n".utf8))
        }) { [emit] line in
            tail.append(line)
            emit(.stageLine(stage: stage.name, line: line))
        }
        if ending.timedOut {
            result.timedOutAfter = Double(stage.timeout.components.seconds)
            throw PipelineError(.stageFailed, tail.text + (tail.text.isEmpty ? "" : "\n")
                                + "timed out after \(stage.timeout.components.seconds) s: stopped with every process it started")
        }
        result.exitCode = ending.status
        guard ending.status == 0 else { throw PipelineError(cancellation.isCancelled ? .cancelled : .stageFailed, tail.text) }
        for output in stage.outputs {
            guard FileManager.default.fileExists(atPath: stage.directory + "/" + output) else {
                throw PipelineError(.stageFailed, "\(stage.tool) exited 0 but did not write its declared output \(output)")
            }
            do { try tree.requireRegularFile(directory + "/" + output) } catch {
                throw PipelineError(.stageFailed, "\(stage.tool) exited 0 but its declared output \(output) is not a file inside its directory: \(error.message)")
            }
        }
        let summary = try ReportSummary(stage.report, in: stage.directory, tool: stage.tool)
        let fingerprint = try fingerprint(summary)
        try checkSourcesUnchanged(stage, startedWith: startedWith)
        let record = try StageRecord.make(stage: stage.name, fingerprint: fingerprint, directory: stage.directory, reported: summary.outputs)
        try cache.store(record, from: stage.directory, trash: trash)
        result.status = .ran
        (result.counts, result.rows) = (summary.counts, summary.rows)
    }

    /// Fails the stage when a source it read changed after it was fingerprinted: what the
    /// stage read is then not what its fingerprint (and the run summary) would record.
    private func checkSourcesUnchanged(_ stage: PlannedStage, startedWith: [String: [String: ContentDigest.Stamp]]) throws(PipelineError) {
        for input in stage.inputs where !input.dropped {
            guard case .source(let name)? = input.target, let change = digests.change(in: name, startedWith: startedWith[name]) else { continue }
            throw PipelineError(.stageFailed, "source '\(name)' changed while the run read it (\(change)): what \(stage.name) read "
                                + "may mix old and new content, so nothing of it is kept; run again once the source is complete")
        }
    }

    /// SHA-256 over the tool, the command line with parameters set, every input's content and
    /// `SOURCE_DATE_EPOCH`; and the inputs' size in bytes.
    private func fingerprint(_ stage: PlannedStage, reportedSources: ContentDigest.Reported = [:]) throws(PipelineError) -> (String, Int) {
        var lines = ["fieldguide-pipeline-stage 1", "stage \(stage.name)", "tool \(stage.tool) \(try digests.tool(stage.executable))"]
        lines += stage.template.map { "arg \($0)" }
        var bytes = 0
        for input in stage.inputs {
            if input.dropped {
                lines.append("input \(input.reference) absent")
                continue
            }
            switch input.target {
            case .source? where input.url:
                lines.append("input \(input.reference) url \(input.paths.joined(separator: " "))")
            case .source(let name)?:
                let digest = try digests.source(name, paths: input.paths, reported: reportedSources)
                lines.append("input \(input.reference) \(digest.sha256)")
                bytes += digest.bytes
            case .stage(let name)?:
                guard let record = cache.record(name) else { throw PipelineError(.io, "stage \(name) left no outputs for \(stage.name)") }
                lines.append("input \(input.reference) \(record.digest)")
                bytes += record.bytes
            case .stageFile(let name, let file)?:
                guard let digest = cache.record(name)?.outputs[file] else {
                    throw PipelineError(.io, "stage \(name) left no \(file) for \(stage.name)")
                }
                lines.append("input \(input.reference) \(digest)")
                bytes += (try? FileManager.default.attributesOfItem(atPath: cache.path(name) + "/" + file)[.size] as? Int) ?? 0
            case nil:
                throw PipelineError(.invalidDefinition, "stage \(stage.name) reads unknown input \(input.reference)")
            }
        }
        lines.append("env SOURCE_DATE_EPOCH=\(environment["SOURCE_DATE_EPOCH"] ?? "")")
        return (FileDigest.sha256(Array(lines.joined(separator: "\n").utf8)), bytes)
    }
}

/// What the run summary takes from a stage's report, decoded typed: its named counts, and
/// its rows summed over its sources (over every artifact's sources for a manifest).
///
/// ```swift
/// let summary = try ReportSummary(.stage("faa-ingest.json"), in: directory, tool: "ingest-faa")
/// summary.rows?.read   // 52
/// ```
struct ReportSummary: Sendable, Equatable {
    var counts: [String: Int] = [:]
    var rows: Manifest.Rows?
    /// The outputs the report lists with their SHA-256 and size, by full path (`StageRecord.make`).
    var outputs: ContentDigest.Reported = [:]
    /// The sources a stage report lists, by the name it gives them (a path as the stage was
    /// given it, or a file name): `StageExecutor` matches them to the stage's source files.
    var sources: ContentDigest.Reported = [:]

    /// A report that does not decode, or a stage report whose status is not `ok`, fails the stage.
    init(_ report: PlannedStage.Report?, in directory: String, tool: String) throws(PipelineError) {
        guard let report else { return }
        let path = directory + "/" + report.file
        switch report {
        case .stage:
            let decoded: StageReport
            do { decoded = try StageReport.read(from: path) } catch {
                throw PipelineError(.stageFailed, "\(tool) exited 0 but \(error.description)")
            }
            guard decoded.status == .ok else {
                throw PipelineError(.stageFailed, "\(tool) exited 0 but \(path) says \(decoded.status.rawValue): \(decoded.failure ?? "no reason given")")
            }
            (counts, rows) = (decoded.counts, decoded.rows)
            for output in decoded.outputs { outputs[directory + "/" + output.file] = .init(sha256: output.sha256, bytes: output.bytes) }
            for source in decoded.sources { sources[source.file] = .init(sha256: source.sha256, bytes: source.bytes) }
        case .manifest:
            let manifest: Manifest
            do { manifest = try Manifest.read(from: path) } catch {
                throw PipelineError(.stageFailed, "\(tool) exited 0 but \(error.description)")
            }
            for artifact in manifest.artifacts {
                counts.merge(artifact.counts, uniquingKeysWith: +)
                outputs[directory + "/" + artifact.file] = .init(sha256: artifact.sha256, bytes: artifact.bytes)
                rows = artifact.sources.reduce(rows) { ($0 ?? Manifest.Rows()) + $1.rows }
            }
        }
    }
}

/// Source and tool digests, each taken once per run however many stages read them.
private final class DigestMemo: @unchecked Sendable {
    private let cache: DigestCache
    private let lock = NSLock()
    private var sources: [String: ContentDigest.Source] = [:]
    private var tools: [String: String] = [:]

    init(cache: DigestCache) { self.cache = cache }

    func source(_ name: String, paths: [String], reported: ContentDigest.Reported = [:]) throws(PipelineError) -> (sha256: String, bytes: Int) {
        if let known = locked({ sources[name] }) { return (known.sha256, known.bytes) }
        let digest = try ContentDigest.source(paths, digests: cache, reported: reported)
        locked { sources[name] = digest }
        return (digest.sha256, digest.bytes)
    }

    /// What changed in the source `name` since its digest was taken (or since `startedWith`,
    /// stamps taken before it), or nil.
    func change(in name: String, startedWith: [String: ContentDigest.Stamp]? = nil) -> String? {
        locked { sources[name] }.flatMap { ContentDigest.change(in: $0, startedWith: startedWith) }
    }

    func tool(_ path: String) throws(PipelineError) -> String {
        if let known = locked({ tools[path] }) { return known }
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw PipelineError(.io, "\(path): no such stage executable (build it, or pass --bin)")
        }
        let digest: String
        let stamp = ContentDigest.Stamp(path: path) ?? ContentDigest.Stamp()
        do { digest = try cache.sha256(ofFileAt: path, stamp: stamp).digest } catch { throw PipelineError(error) }
        locked { tools[path] = digest }
        return digest
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
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
