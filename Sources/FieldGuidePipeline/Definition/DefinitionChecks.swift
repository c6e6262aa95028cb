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
    /// The reserved argument reference for the directory a stage keeps across runs.
    public static let stateReference = "state"
    /// The reserved argument reference for this run's id: the name its build takes under
    /// `builds/` when it publishes. Part of the fingerprint, so a stage naming it runs every time.
    public static let runReference = "run"
    /// The reserved argument reference for the build published now (`OUTPUT/builds/NAME`, what
    /// `current` points at); absent before the first build. Fingerprinted by the build's name.
    public static let publishedReference = "published"
    /// The references every stage may name besides its inputs.
    static let builtInReferences: Set = [outputReference, stateReference, runReference, publishedReference]
    static let builtInRule = "not 'out', 'state', 'run' or 'published'"

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

    /// What a pipeline, stage or source name may be: it names directories
    /// (`OUTPUT/.pipeline/NAME`, `stages/NAME`), so never `.`, `..` or a path.
    public static let identifierRule = "a name of ASCII letters, digits, '-' and '_', starting with a letter or digit, at most 64 characters"

    /// `[A-Za-z0-9][A-Za-z0-9_-]*`, at most 64 characters.
    public static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, text.utf8.count <= 64, Self.isAlphanumeric(first) else { return false }
        return text.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    static let fileNameRule = "ASCII letters, digits, '.', '-' and '_', not starting with '.'"

    /// A tool's or a path component's name: `[A-Za-z0-9_-][A-Za-z0-9._-]*` (so never `.` or
    /// `..`, never hidden), at most 255 bytes.
    static func isFileName(_ text: String) -> Bool {
        guard let first = text.utf8.first, first != UInt8(ascii: "."), text.utf8.count <= 255 else { return false }
        return text.utf8.allSatisfy { isAlphanumeric($0) || "._-".utf8.contains($0) }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Why `path` cannot be a declared output, or nil: outputs are relative, normalized paths
    /// of file names (`reports/rejects.csv`): no `/` at either end, no `//`, `.` or `..`, no
    /// hidden names (the cache keeps its record as `.stage.json`).
    static func outputPathProblem(_ path: String) -> String? {
        if path.hasPrefix("/") { return "relative, not absolute" }
        let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if components.contains("..") { return "no '..'" }
        if components.contains(where: \.isEmpty) || components.contains(".") { return "normalized: no empty or '.' components" }
        if components.count > 8 { return "at most 8 directories deep" }
        if let bad = components.first(where: { !isFileName($0) }) { return "each name of \(fileNameRule), not '\(bad)'" }
        return nil
    }

    /// Names in the output directory that an artifact cannot take.
    static let reservedNames: Set = ["current", "previous", "builds", "runs", "manifest.json", "changes.md", "changes.json", "history.fgb",
                                     "reports", "metrics.prom"]

    /// Every check that does not need the file system.
    func check(_ document: Document) throws(LocatedError) {
        func fail(_ steps: [PathStep], _ message: String) -> LocatedError { document.error(at: steps, message) }
        guard Self.isIdentifier(name) else { throw fail([.key("name")], "expected \(Self.identifierRule), found '\(name)'") }
        guard !stages.isEmpty else { throw fail([.key("stages")], "expected at least one stage") }

        func checkParameters(_ text: String, _ steps: [PathStep]) throws(LocatedError) {
            for p in Self.parameterReferences(in: text) where parameters[p] == nil {
                throw fail(steps, "unknown parameter '${\(p)}'; parameters are \(parameters.keys.sorted().joined(separator: ", "))")
            }
        }

        for (key, source) in sources.sorted(by: { $0.key < $1.key }) {
            let at: [PathStep] = [.key("sources"), .key(key)]
            guard Self.isIdentifier(key), !Self.builtInReferences.contains(key) else {
                throw fail(at, "'\(key)' cannot name a source: expected \(Self.identifierRule), \(Self.builtInRule)")
            }
            let given = [source.path, source.paths, source.glob, source.url].compactMap { $0 }
            guard given.count == 1 else { throw fail(at, "expected exactly one of path, paths, glob or url, found \(given.count)") }
            try checkParameters(given[0], at)
            if let other = source.unless, sources[other] == nil || other == key || sources[other]?.unless != nil {
                throw fail(at + [.key("unless")], "expected another source's name (one without unless of its own), found '\(other)'")
            }
        }

        var seen = Set<String>()
        for (i, stage) in stages.enumerated() {
            let at: [PathStep] = [.key("stages"), .index(i)]
            guard Self.isIdentifier(stage.name), !Self.builtInReferences.contains(stage.name) else {
                throw fail(at + [.key("name")], "'\(stage.name)' cannot name a stage: expected \(Self.identifierRule), \(Self.builtInRule)")
            }
            guard seen.insert(stage.name).inserted else { throw fail(at + [.key("name")], "a second stage named '\(stage.name)'") }
            guard sources[stage.name] == nil else { throw fail(at + [.key("name")], "'\(stage.name)' names both a source and a stage") }
            guard Self.isFileName(stage.tool) else {
                throw fail(at + [.key("tool")], "expected an executable name from the tool directory (\(Self.fileNameRule)), found '\(stage.tool)'")
            }
            for (j, output) in stage.outputs.enumerated() {
                if let problem = Self.outputPathProblem(output) {
                    throw fail(at + [.key("outputs"), .index(j)], "expected a path inside the stage's directory (\(problem)), found '\(output)'")
                }
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
                    for ref in Self.argumentReferences(in: word)
                    where !Self.builtInReferences.contains(ref) && !stage.inputs.contains(ref) {
                        throw fail(at + [.key("args"), .index(j)],
                                   "'{\(ref)}' is not among the stage's inputs (\(stage.inputs.joined(separator: ", "))), {out}, {state}, {run} or {published}")
                    }
                }
            }
            if let when = stage.when { try checkParameters(when, at + [.key("when")]) }
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
            if let history = publish.history {
                guard case .stageFile? = reference(history) else {
                    throw fail([.key("publish"), .key("history")], "expected a declared stage output (stage/file), found '\(history)'")
                }
            }
            for (field, refs) in [("artifacts", publish.artifacts), ("reports", publish.reports)] {
                let names = refs.map { ($0 as NSString).lastPathComponent }
                if Set(names).count != names.count { throw fail([.key("publish"), .key(field)], "two files share a name") }
            }
            // Artifacts are published under their names in the build and beside `current`.
            for (j, ref) in publish.artifacts.enumerated() where Self.reservedNames.contains((ref as NSString).lastPathComponent) {
                throw fail([.key("publish"), .key("artifacts"), .index(j)],
                           "'\((ref as NSString).lastPathComponent)' is a name the output directory keeps for itself "
                           + "(\(Self.reservedNames.sorted().joined(separator: ", "))); rename the stage's output")
            }
        }
        try checkGuards(fail)
        if let webhook = notify?.webhook {
            try checkParameters(webhook, [.key("notify"), .key("webhook")])
            let literal = !webhook.contains("${") && !webhook.isEmpty
            if literal, !(webhook.hasPrefix("http://") || webhook.hasPrefix("https://")) || URL(string: webhook)?.host == nil {
                throw fail([.key("notify"), .key("webhook")], "expected an http:// or https:// address or a parameter, found '\(webhook)'")
            }
        }
        _ = try stageOrder()
    }

    /// Each guard limit in range, its warning before its refusal, its parameters known.
    private func checkGuards(_ fail: ([PathStep], String) -> LocatedError) throws(LocatedError) {
        for (field, limits) in guards.byField {
            for (key, limit) in limits.sorted(by: { $0.key < $1.key }) {
                for (_, text) in limit.references.sorted(by: { $0.key < $1.key }) {
                    for p in Self.parameterReferences(in: text) where parameters[p] == nil {
                        throw fail([.key("guards"), .key(field), .key(key)],
                                   "unknown parameter '${\(p)}'; parameters are \(parameters.keys.sorted().joined(separator: ", "))")
                    }
                }
            }
        }
        if let problem = guards.problem() { throw fail([.key("guards"), .key(problem.field), .key(problem.key)], problem.message) }
    }

    /// `250000` rather than `250000.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
