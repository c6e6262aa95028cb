import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import Yams

extension PipelineDefinition {
    /// Reads and checks a pipeline file.
    ///
    /// Syntax errors, unknown keys, wrong value types and broken references are all reported as
    /// `file:line:column: where: what was expected, what was found`: a ``LocatedError`` of kind
    /// `.usage` (the pipeline file is the command's program), or an I/O kind when the file
    /// cannot be read.
    ///
    /// ```swift
    /// let nightly = try PipelineDefinition.load(path: "pipelines/nightly.yaml")
    /// nightly.stages.map(\.name)   // ["ingest-faa", "emit-aircraft", …]
    /// ```
    public static func load(path: String) throws(LocatedError) -> PipelineDefinition {
        let data: [UInt8]
        do throws(LocatedError) {
            data = try BoundedRead.bytes(atPath: path, limit: BoundedRead.pipelineFileBytes, what: "a pipeline file")
        } catch {
            if error.kind == .tooLarge { throw error.asOptionError() }   // the command's program: a usage error
            var unread = error
            unread.message = "cannot read the pipeline file: " + error.message
            throw unread
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw LocatedError(.usage, file: path, message: "not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses pipeline YAML; `path` names it in errors.
    public static func parse(_ text: String, path: String) throws(LocatedError) -> PipelineDefinition {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw LocatedError(.usage, file: path, message: "empty file: expected a mapping with name and stages")
            }
            root = node
        } catch let error as LocatedError {
            throw error
        } catch let error as YamlError {
            throw Document.error(for: error, path: path)
        } catch {
            throw LocatedError(.usage, file: path, message: "not readable as YAML")
        }
        let document = Document(path: path, root: root)
        try document.checkKeys()

        let file: FileShape
        do {
            file = try YAMLDecoder().decode(FileShape.self, from: root)
        } catch let error as DecodingError {
            throw document.error(for: error)
        } catch {
            throw LocatedError(.usage, file: path, message: "not a pipeline")
        }
        let definition = PipelineDefinition(
            name: file.name, description: file.description, parameters: file.parameters ?? [:],
            sources: file.sources ?? [:], stages: file.stages, publish: file.publish,
            guards: file.guards ?? GuardSpec(), notify: file.notify, path: path)
        try definition.check(document)
        return definition
    }
}

/// The file as written, before checks.
private struct FileShape: Decodable {
    var name: String
    var description: String?
    var parameters: [String: String]?
    var sources: [String: SourceSpec]?
    var stages: [StageSpec]
    var publish: PublishSpec?
    var guards: GuardSpec?
    var notify: NotifySpec?
}

/// One step of a path into the YAML tree.
enum PathStep: CustomStringConvertible {
    case key(String)
    case index(Int)

    var description: String {
        switch self {
        case .key(let k): ".\(k)"
        case .index(let i): "[\(i)]"
        }
    }
}

/// The composed YAML tree, for locating errors by path.
struct Document {
    let path: String
    let root: Node

    /// `stages[2].args` for a path.
    static func render(_ steps: [PathStep]) -> String {
        var text = steps.map(\.description).joined()
        if text.hasPrefix(".") { text.removeFirst() }
        return text.isEmpty ? "(top level)" : text
    }

    /// The node at `steps`, or the deepest node found on the way.
    func node(at steps: [PathStep]) -> Node {
        var node = root
        for step in steps {
            switch step {
            case .key(let k):
                guard let next = node.mapping?[k] else { return node }
                node = next
            case .index(let i):
                guard let seq = node.sequence, i < seq.count else { return node }
                node = seq[i]
            }
        }
        return node
    }

    /// A usage error at `steps` (`pipelines/nightly.yaml:42:7: stages[3].args: …`).
    func error(at steps: [PathStep], _ message: String) -> LocatedError {
        let mark = node(at: steps).mark
        return LocatedError(.usage, file: path, line: mark?.line, column: mark?.column, field: Document.render(steps), message: message)
    }

    /// A YAML syntax error at the place libyaml stopped, without its source snippet.
    static func error(for error: YamlError, path: String) -> LocatedError {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let within = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            // libyaml's bound on nesting, in its words an instruction to its caller.
            let words = problem.hasPrefix("Maximum nesting level reached") ? "expected lists and mappings nested at most 1,000 deep, found deeper" : problem
            return LocatedError(.usage, file: path, line: mark.line, column: mark.column, message: words + within)
        case let .duplicatedKeysInMapping(duplicates, context):
            return LocatedError(.usage, file: path, line: context.mark.line, column: context.mark.column,
                                message: "duplicated keys \(duplicates.sorted().map { "'\($0)'" }.joined(separator: ", "))")
        default:
            return LocatedError(.usage, file: path, message: "not valid YAML: \(error)")
        }
    }

    /// A decoding error with the place it happened and the value found there.
    func error(for error: DecodingError) -> LocatedError {
        func steps(_ codingPath: [CodingKey]) -> [PathStep] {
            codingPath.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) }
        }
        switch error {
        case .typeMismatch(let type, let context):
            let at = steps(context.codingPath)
            return self.error(at: at, "expected \(Document.describe(type)), found \(describe(node(at: at)))")
        case .valueNotFound(let type, let context):
            return self.error(at: steps(context.codingPath), "expected \(Document.describe(type)), found nothing")
        case .keyNotFound(let key, let context):
            return self.error(at: steps(context.codingPath), "missing required key '\(key.stringValue)'")
        case .dataCorrupted(let context):
            let at = steps(context.codingPath)
            return self.error(at: at, "\(context.debugDescription) (found \(describe(node(at: at))))")
        @unknown default:
            return LocatedError(.usage, file: path, message: "not a pipeline")
        }
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        // Yams asks for a scalar, a sequence or a mapping before it converts one to the type
        // wanted: its own type names mean nothing to whoever wrote the file.
        case is Node.Scalar.Type: return "a single value"
        case is Node.Sequence.Type: return "a list"
        case is Node.Mapping.Type: return "a mapping"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "a list" }
            if name.hasPrefix("Dictionary") { return "a mapping" }
            return name
        }
    }

    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s): "'\(s.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// Unknown keys are errors (a misspelt `input:` would otherwise be ignored silently).
    func checkKeys() throws(LocatedError) {
        let top: Set = ["name", "description", "parameters", "sources", "stages", "publish", "guards", "notify"]
        try keys(of: [], allowed: top)
        if case .mapping(let sources)? = root.mapping?["sources"] {
            for (key, _) in sources {
                try keys(of: [.key("sources"), .key(key.string ?? "")], allowed: ["path", "paths", "glob", "required", "first", "url", "unless"])
            }
        }
        if let stages = root.mapping?["stages"]?.sequence {
            for i in 0..<stages.count {
                try keys(of: [.key("stages"), .index(i)],
                         allowed: ["name", "tool", "description", "inputs", "outputs", "args", "report", "cache", "timeout", "when", "priority"])
            }
        }
        try keys(of: [.key("publish")], allowed: ["artifacts", "manifests", "reports", "keep", "history"])
        try keys(of: [.key("guards")], allowed: ["shrink", "rejects", "min_rows", "join", "freshness"])
        try keys(of: [.key("notify")], allowed: ["webhook", "timeout"])
        try keys(of: [.key("guards"), .key("join")], allowed: Set(GuardSpec.joinCounts.keys))
        for kind in ["shrink", "rejects", "min_rows", "join", "freshness"] {
            guard case .mapping(let limits)? = root.mapping?["guards"]?.mapping?[kind] else { continue }
            for (key, _) in limits {
                try keys(of: [.key("guards"), .key(kind), .key(key.string ?? "")], allowed: ["warn", "refuse"])
            }
        }
    }

    private func keys(of steps: [PathStep], allowed: Set<String>) throws(LocatedError) {
        var node = root
        for step in steps {
            switch step {
            case .key(let k):
                guard let next = node.mapping?[k] else { return }
                node = next
            case .index(let i):
                guard let seq = node.sequence, i < seq.count else { return }
                node = seq[i]
            }
        }
        guard let mapping = node.mapping else { return }
        for (key, _) in mapping where !allowed.contains(key.string ?? "") {
            throw LocatedError(.usage, file: path, line: key.mark?.line, column: key.mark?.column, field: Document.render(steps),
                               message: "unknown key '\(key.string ?? "?")'; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
    }
}
