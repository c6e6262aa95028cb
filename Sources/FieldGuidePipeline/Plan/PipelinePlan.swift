import FieldGuideDiagnostics
import Foundation

/// A pipeline with its parameters set and its sources found: what a run will do.
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
        for (name, spec) in definition.sources.sorted(by: { $0.key < $1.key }) {
            let paths: [String]
            let wanted: String
            if let path = spec.path {
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
                let matches = Glob.files(matching: wanted)
                paths = spec.first ? Array(matches.prefix(1)) : matches
            }
            if spec.required && paths.isEmpty {
                let how = spec.glob != nil ? "nothing matches \(wanted)" : "\(wanted) does not exist"
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
}
