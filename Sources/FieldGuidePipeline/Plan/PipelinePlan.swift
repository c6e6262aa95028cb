import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// A pipeline with its parameters set and its sources found: what a run will do.
///
/// `stages(in:toolDirectory:)` resolves every reference once, into the typed stages a run
/// executes (command line, inputs, outputs, report).
///
/// ```swift
/// let plan = try PipelinePlan(try PipelineDefinition.load(path: "pipelines/nightly.yaml"),
///                             parameters: ["SOURCES": "input"])
/// plan.order.map { plan.definition.stages[$0].name }
/// plan.sources["faa"]   // ["input/faa"]
/// ```
public struct PipelinePlan: Sendable {
    public let definition: PipelineDefinition
    /// Every parameter's value: the file's defaults with the overrides applied.
    public let parameters: [String: String]
    /// Each source's paths (empty for an optional source that is absent).
    public let sources: [String: [String]]
    /// Stage indexes in run order.
    public let order: [Int]
    /// For each stage index, the stage indexes it reads from.
    public let dependencies: [[Int]]

    /// Sets parameters and finds sources; a missing required source stops here.
    public init(_ definition: PipelineDefinition, parameters overrides: [String: String] = [:]) throws(PipelineError) {
        for name in overrides.keys.sorted() where definition.parameters[name] == nil {
            throw PipelineError(LocatedError(.usage, file: definition.path,
                                             message: "no parameter \(name) to set; parameters are \(definition.parameters.keys.sorted().joined(separator: ", "))"))
        }
        let parameters = definition.parameters.merging(overrides) { $1 }
        self.definition = definition
        self.parameters = parameters

        var sources: [String: [String]] = [:]
        // A source with `unless` is found after the one it names.
        for (name, spec) in definition.sources.sorted(by: { ($0.value.unless != nil ? 1 : 0, $0.key) < ($1.value.unless != nil ? 1 : 0, $1.key) }) {
            if let other = spec.unless, sources[other]?.isEmpty == false {
                sources[name] = []
                continue
            }
            let paths: [String]
            let wanted: String
            if let url = spec.url {
                wanted = Self.expand(url, parameters).trimmingCharacters(in: .whitespaces)
                paths = wanted.isEmpty ? [] : [wanted]
            } else if let path = spec.path {
                wanted = Self.expand(path, parameters)
                paths = FileManager.default.fileExists(atPath: wanted) ? [wanted] : []
            } else if let list = spec.paths {
                wanted = Self.expand(list, parameters)
                let all = wanted.split(whereSeparator: \.isWhitespace).map(String.init)
                if spec.required, let absent = all.first(where: { !FileManager.default.fileExists(atPath: $0) }) {
                    throw PipelineError(.missingSource, "source '\(name)' is required but \(absent) does not exist")
                }
                paths = all
            } else {
                wanted = Self.expand(spec.glob ?? "", parameters)
                let matches = try Glob.files(matching: wanted)
                paths = spec.first ? Array(matches.prefix(1)) : matches
            }
            if spec.required && paths.isEmpty {
                let how = spec.glob != nil ? "nothing matches \(wanted)" : spec.url != nil ? "no address is set" : "\(wanted) does not exist"
                throw PipelineError(.missingSource, "source '\(name)' is required but \(how)")
            }
            sources[name] = paths
        }
        self.sources = sources

        let index = Dictionary(uniqueKeysWithValues: definition.stages.enumerated().map { ($1.name, $0) })
        self.dependencies = definition.stages.map { stage in
            Array(Set(stage.inputs.compactMap { definition.reference($0)?.stage }.compactMap { index[$0] })).sorted()
        }
        do { self.order = try definition.stageOrder() } catch { throw PipelineError(error) }
    }

    /// `text` with every `${NAME}` replaced by its value.
    static func expand(_ text: String, _ parameters: [String: String]) -> String {
        guard text.contains("${") else { return text }
        var out = text
        for (name, value) in parameters { out = out.replacingOccurrences(of: "${\(name)}", with: value) }
        return out
    }

    /// A stage's command line with parameters set, references still in braces: the part of
    /// the fingerprint that does not depend on where files are.
    func argumentTemplate(_ stage: Int) -> [String] {
        definition.stages[stage].args.map { arg in
            switch arg {
            case .word(let w): Self.expand(w, parameters)
            case .optional(let ws): "[" + ws.map { Self.expand($0, parameters) }.joined(separator: " ") + "]"
            }
        }
    }

    /// A stage's command line with every reference replaced by `paths(ref)`. A word that is
    /// exactly one reference becomes one argument per path; an optional group with a reference
    /// that has no paths is left out; a word that is empty once parameters are set is dropped.
    func arguments(_ stage: Int, paths: (String) -> [String]) -> [String] {
        var out: [String] = []
        func words(_ word: String) -> [String]? {
            let word = Self.expand(word, parameters)
            if word.isEmpty { return [] }  // a parameter set to nothing (`STRICT=`) adds no argument
            let refs = PipelineDefinition.argumentReferences(in: word)
            if refs.count == 1, word == "{\(refs[0])}" {
                let values = paths(refs[0])
                return values.isEmpty ? nil : values
            }
            var text = word
            for ref in refs {
                guard let first = paths(ref).first else { return nil }
                text = text.replacingOccurrences(of: "{\(ref)}", with: first)
            }
            return [text]
        }
        for arg in definition.stages[stage].args {
            switch arg {
            case .word(let w):
                out += words(w) ?? []
            case .optional(let ws):
                var group: [String] = []
                var complete = true
                for w in ws {
                    guard let expanded = words(w) else { complete = false; break }
                    group += expanded
                }
                if complete { out += group }
            }
        }
        return out
    }

    /// Every stage with its references resolved against `layout`, in definition order.
    ///
    /// A stage whose command line needs an absent optional source outside an optional group
    /// (`"{exports}"` with no exports) is dropped, with the reason; so is a stage that needs a
    /// dropped stage's output. A reference inside an optional group (`[--observations,
    /// "{ingest-exports/observations.csv}"]`) is simply left out.
    func stages(in layout: StageLayout, toolDirectory: String) -> [PlannedStage] {
        var dropped: [String: String] = [:]
        var planned: [Int: PlannedStage] = [:]
        for index in order {
            let spec = definition.stages[index]
            let directory = layout.staged(spec.name)
            let paths = { (ref: String) -> [String] in
                if ref == PipelineDefinition.outputReference { return [directory] }
                if ref == PipelineDefinition.stateReference { return [layout.kept(spec.name)] }
                if ref == PipelineDefinition.runReference { return layout.run.isEmpty ? [] : [layout.run] }
                if ref == PipelineDefinition.publishedReference { return layout.published.map { [$0] } ?? [] }
                switch definition.reference(ref) {
                case .source(let s)?: return sources[s] ?? []
                case .stage(let s)?: return dropped[s] == nil ? [layout.cached(s)] : []
                case .stageFile(let s, let f)?: return dropped[s] == nil ? [layout.cached(s) + "/" + f] : []
                case nil: return []
                }
            }
            let reason = notRequested(spec) ?? requiredReferences(index).lazy.compactMap { ref -> String? in
                guard paths(ref).isEmpty else { return nil }
                switch definition.reference(ref) {
                case .source(let s)?: return "source '\(s)' is absent"
                case .stage(let s)?, .stageFile(let s, _)?: return "stage \(s) was dropped (\(dropped[s] ?? ""))"
                case nil: return nil
                }
            }.first
            if let reason { dropped[spec.name] = reason }
            planned[index] = PlannedStage(
                index: index, name: spec.name, tool: spec.tool, executable: toolDirectory + "/" + spec.tool,
                arguments: arguments(index, paths: paths), template: layout.fingerprinted(argumentTemplate(index)),
                inputs: spec.inputs.map { input($0, dropped: dropped) },
                keeps: PipelineDefinition.argumentReferences(in: argumentTemplate(index).joined(separator: " ")).contains(PipelineDefinition.stateReference)
                    ? layout.kept(spec.name) : nil,
                outputs: spec.outputs, report: spec.report.map(PlannedStage.Report.init(file:)), cache: spec.cache,
                dependencies: dependencies[index], directory: directory, timeout: .seconds(spec.timeout.seconds), priority: spec.priority, dropped: reason)
        }
        return definition.stages.indices.map { planned[$0]! }
    }

    /// Why a stage with `when:` is left out (its value is nothing, `0`, `no` or `false`), or nil.
    func notRequested(_ spec: StageSpec) -> String? {
        guard let when = spec.when else { return nil }
        let value = Self.expand(when, parameters).trimmingCharacters(in: .whitespaces).lowercased()
        guard ["", "0", "no", "false"].contains(value) else { return nil }
        return "not requested (when: \(when) is \(value.isEmpty ? "not set" : "'\(value)'"))"
    }

    /// The references a stage's command line cannot do without: those in plain words, not in
    /// an optional group.
    func requiredReferences(_ stage: Int) -> [String] {
        definition.stages[stage].args.flatMap { arg -> [String] in
            guard case .word(let w) = arg else { return [] }
            return PipelineDefinition.argumentReferences(in: Self.expand(w, parameters))
        }
    }

    /// An input reference resolved: what it names, and a source's paths.
    private func input(_ reference: String, dropped: [String: String]) -> PlannedStage.Input {
        let target = definition.reference(reference)
        switch target {
        case .source(let name)?:
            return .init(reference: reference, target: target, paths: sources[name] ?? [], url: definition.sources[name]?.url != nil)
        case .stage(let name)?, .stageFile(let name, _)?:
            return .init(reference: reference, target: target, paths: [], dropped: dropped[name] != nil)
        case nil: return .init(reference: reference, target: target, paths: [])
        }
    }
}

/// Where a run's stages write and read: the stage cache (`STATE/stages/NAME`), this run's
/// staging (`STATE/staging/RUN/stages/NAME`) and what stages keep across runs (`STATE/state/NAME`).
struct StageLayout: Sendable {
    let cache: String
    let staging: String
    var keep: String = ""
    /// This run's id (`{run}`), and the build published when it started (`{published}`, the
    /// directory `current` points at), if any.
    var run: String = ""
    var published: String? = nil

    func cached(_ stage: String) -> String { cache + "/" + stage }
    func staged(_ stage: String) -> String { staging + "/" + stage }
    func kept(_ stage: String) -> String { keep + "/" + stage }

    /// A command line template with `{run}` and `{published}` set to what they name in this
    /// run (the run id, the published build's directory name), so a fingerprint covers them:
    /// a stage naming `{run}` never reuses another run's outputs.
    func fingerprinted(_ template: [String]) -> [String] {
        let build = published.map { ($0 as NSString).lastPathComponent } ?? "none"
        return template.map {
            $0.replacingOccurrences(of: "{\(PipelineDefinition.runReference)}", with: "{run=\(run)}")
                .replacingOccurrences(of: "{\(PipelineDefinition.publishedReference)}", with: "{published=\(build)}")
        }
    }
}

/// One stage with every reference resolved: what the executor fingerprints and runs.
///
/// ```swift
/// let stage = plan.stages(in: layout, toolDirectory: ".build/debug")[0]
/// stage.arguments   // ["input/faa", "--output", "output/.pipeline/nightly/staging/RUN/stages/ingest-faa", …]
/// ```
struct PlannedStage: Sendable {
    /// One input: its reference as written, what it names, and a source's paths.
    struct Input: Sendable {
        let reference: String
        /// Nil for a reference to nothing (a definition the checks did not see).
        let target: InputReference?
        let paths: [String]
        /// The stage it names was dropped: fingerprinted as absent, not read.
        var dropped = false
        /// A `url` source: fingerprinted by its text, never read.
        var url = false
    }

    /// The stage's report, decoded typed after it runs: a `StageReport`, or the emit stages'
    /// `Manifest` (a report named `manifest.json`).
    enum Report: Sendable, Equatable {
        case stage(String)
        case manifest(String)

        init(file: String) { self = file == Manifest.fileName ? .manifest(file) : .stage(file) }

        var file: String {
            switch self {
            case .stage(let file), .manifest(let file): file
            }
        }
    }

    let index: Int
    let name: String
    let tool: String
    /// The tool's path in the tool directory.
    let executable: String
    /// The command line, every reference replaced by its paths.
    let arguments: [String]
    /// The command line with parameters set and references in braces (fingerprinted).
    let template: [String]
    let inputs: [Input]
    /// The directory it keeps across runs (`{state}`), created before it runs; nil when its
    /// command line does not name one.
    let keeps: String?
    /// Files the stage must leave in `directory`.
    let outputs: [String]
    let report: Report?
    /// Skip the stage when its fingerprint matches its last success.
    let cache: Bool
    /// Indexes of the stages it reads from.
    let dependencies: [Int]
    /// This run's output directory for the stage (`{out}`).
    let directory: String
    /// How long it may run before it is stopped with every process it started.
    var timeout: Duration = .seconds(StageTimeout.default.seconds)
    /// How it shares the cores with the stages beside it (not fingerprinted: outputs do not
    /// depend on it).
    var priority: StagePriority = .normal
    /// Why the stage does not run (an optional source it needs is absent), if it does not.
    var dropped: String? = nil
}
