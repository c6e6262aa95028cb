import FieldGuideDiagnostics
import Foundation

/// What an input reference names.
public enum InputReference: Sendable, Equatable, Hashable {
    case source(String)
    /// A stage's whole output directory.
    case stage(String)
    /// One file of a stage's output directory.
    case stageFile(stage: String, file: String)

    /// The stage this reference depends on, if any.
    public var stage: String? {
        switch self {
        case .source: nil
        case .stage(let s), .stageFile(let s, _): s
        }
    }
}

extension PipelineDefinition {
    /// The reserved argument reference for a stage's own output directory.
    public static let outputReference = "out"

    /// What `text` refers to in this pipeline, if anything.
    public func reference(_ text: String) -> InputReference? {
        if let slash = text.firstIndex(of: "/") {
            let stage = String(text[..<slash]), file = String(text[text.index(after: slash)...])
            guard let spec = stages.first(where: { $0.name == stage }), spec.outputs.contains(file) else { return nil }
            return .stageFile(stage: stage, file: file)
        }
        if sources[text] != nil { return .source(text) }
        if stages.contains(where: { $0.name == text }) { return .stage(text) }
        return nil
    }

    /// Stage indexes in run order (each after every stage it reads from), file order kept
    /// among stages that are ready together.
    public func stageOrder() throws(LocatedError) -> [Int] {
        let index = Dictionary(uniqueKeysWithValues: stages.enumerated().map { ($1.name, $0) })
        var remaining = stages.map { Set($0.inputs.compactMap { reference($0)?.stage }.compactMap { index[$0] }) }
        var order: [Int] = []
        var done = Set<Int>()
        while order.count < stages.count {
            guard let next = remaining.indices.first(where: { !done.contains($0) && remaining[$0].isSubset(of: done) }) else {
                let stuck = remaining.indices.filter { !done.contains($0) }.map { stages[$0].name }
                throw LocatedError(.usage, file: path, message: "the stages \(stuck.joined(separator: ", ")) read each other's outputs in a cycle")
            }
            order.append(next)
            done.insert(next)
        }
        remaining.removeAll()
        return order
    }

    /// Names inside `{…}` in one argument word.
    static func argumentReferences(in word: String) -> [String] {
        var names: [String] = []
        var rest = word[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            // `${NAME}` is a parameter, not a reference.
            if open == rest.startIndex || rest[rest.index(before: open)] != "$" {
                names.append(String(rest[rest.index(after: open)..<close]))
            }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Names inside `${…}`.
    static func parameterReferences(in text: String) -> [String] {
        var names: [String] = []
        var rest = text[...]
        while let dollar = rest.range(of: "${"), let close = rest[dollar.upperBound...].firstIndex(of: "}") {
            names.append(String(rest[dollar.upperBound..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Every check that does not need the file system.
    func check(_ document: Document) throws(LocatedError) {
        func fail(_ steps: [PathStep], _ message: String) -> LocatedError { document.error(at: steps, message) }
        let namePattern = { (s: String) in
            !s.isEmpty && s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) }
        }
        guard namePattern(name) else { throw fail([.key("name")], "expected a name of letters, digits, '-', '_' or '.', found '\(name)'") }
        guard !stages.isEmpty else { throw fail([.key("stages")], "expected at least one stage") }

        func checkParameters(_ text: String, _ steps: [PathStep]) throws(LocatedError) {
            for p in Self.parameterReferences(in: text) where parameters[p] == nil {
                throw fail(steps, "unknown parameter '${\(p)}'; parameters are \(parameters.keys.sorted().joined(separator: ", "))")
            }
        }

        for (key, source) in sources.sorted(by: { $0.key < $1.key }) {
            let at: [PathStep] = [.key("sources"), .key(key)]
            guard namePattern(key), key != Self.outputReference else { throw fail(at, "'\(key)' cannot name a source") }
            let given = [source.path, source.paths, source.glob].compactMap { $0 }
            guard given.count == 1 else { throw fail(at, "expected exactly one of path, paths or glob, found \(given.count)") }
            try checkParameters(given[0], at)
        }

        var seen = Set<String>()
        for (i, stage) in stages.enumerated() {
            let at: [PathStep] = [.key("stages"), .index(i)]
            guard namePattern(stage.name), stage.name != Self.outputReference else {
                throw fail(at + [.key("name")], "'\(stage.name)' cannot name a stage (letters, digits, '-', '_', '.'; not 'out')")
            }
            guard seen.insert(stage.name).inserted else { throw fail(at + [.key("name")], "a second stage named '\(stage.name)'") }
            guard sources[stage.name] == nil else { throw fail(at + [.key("name")], "'\(stage.name)' names both a source and a stage") }
            guard !stage.tool.isEmpty, !stage.tool.contains("/") else {
                throw fail(at + [.key("tool")], "expected an executable name from the tool directory, found '\(stage.tool)'")
            }
            for (j, input) in stage.inputs.enumerated() {
                guard let ref = reference(input) else {
                    throw fail(at + [.key("inputs"), .index(j)],
                               "'\(input)' is not a source, a stage, or a declared output (stage/file)")
                }
                if ref.stage == stage.name { throw fail(at + [.key("inputs"), .index(j)], "a stage cannot read its own output") }
            }
            for (j, arg) in stage.args.enumerated() {
                for word in arg.words {
                    try checkParameters(word, at + [.key("args"), .index(j)])
                    for ref in Self.argumentReferences(in: word) where ref != Self.outputReference && !stage.inputs.contains(ref) {
                        throw fail(at + [.key("args"), .index(j)],
                                   "'{\(ref)}' is not among the stage's inputs (\(stage.inputs.joined(separator: ", "))) or {out}")
                    }
                }
            }
            if let report = stage.report, !stage.outputs.contains(report) {
                throw fail(at + [.key("report")], "the report '\(report)' is not among the stage's outputs")
            }
        }

        if let publish {
            for (field, refs) in [("artifacts", publish.artifacts), ("manifests", publish.manifests), ("reports", publish.reports)] {
                for (j, ref) in refs.enumerated() {
                    guard case .stageFile? = reference(ref) else {
                        throw fail([.key("publish"), .key(field), .index(j)], "expected a declared stage output (stage/file), found '\(ref)'")
                    }
                }
            }
            for (field, refs) in [("artifacts", publish.artifacts), ("reports", publish.reports)] {
                let names = refs.map { ($0 as NSString).lastPathComponent }
                if Set(names).count != names.count { throw fail([.key("publish"), .key(field)], "two files share a name") }
            }
        }
        for (field, limits) in [("shrink", guards.shrink), ("rejects", guards.rejects)] {
            for (key, share) in limits where !(0...1).contains(share) {
                throw fail([.key("guards"), .key(field), .key(key)], "expected a share between 0 and 1, found \(share)")
            }
        }
        _ = try stageOrder()
    }
}
