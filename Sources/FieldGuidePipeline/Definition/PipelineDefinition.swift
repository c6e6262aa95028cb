import FieldGuideDiagnostics
import Foundation

/// A pipeline file (`pipelines/nightly.yaml`): parameters, sources, stages, guards and what to publish.
///
/// Stages name their inputs: a source (`faa`), another stage's whole output directory
/// (`ingest-faa`) or one of its files (`emit-aircraft/aircraft.fgb`). The run order follows from
/// those references; stages that do not depend on each other run side by side.
///
/// ```yaml
/// name: nightly
/// parameters: { SOURCES: input }
/// sources:
///   faa: { path: "${SOURCES}/faa", required: true }
/// stages:
///   - name: ingest-faa
///     tool: ingest-faa
///     inputs: [faa]
///     outputs: [registrations.csv, faa-ingest.json]
///     args: ["{faa}", --output, "{out}"]
/// ```
public struct PipelineDefinition: Sendable, Equatable {
    /// The pipeline's name: it names the state directory (`OUTPUT/.pipeline/NAME`).
    public var name: String
    public var description: String?
    /// Default values for `${NAME}` references; `--set NAME=VALUE` overrides them.
    public var parameters: [String: String]
    public var sources: [String: SourceSpec]
    public var stages: [StageSpec]
    public var publish: PublishSpec?
    public var guards: GuardSpec
    /// Whom to tell when a run fails, refuses or warns.
    public var notify: NotifySpec?
    /// The file it was read from (for located errors).
    public var path: String
}

/// Whom a run tells when it fails, is refused, is interrupted or warns: a webhook that gets
/// the run summary's JSON in a POST. A notification that fails is logged, never fatal.
///
/// ```yaml
/// notify:
///   webhook: "${WEBHOOK_URL}"   # empty: no webhook (FIELDGUIDE_WEBHOOK_URL is used then, when set)
///   timeout: 10s                # the whole POST, default 10 s
/// ```
public struct NotifySpec: Sendable, Equatable, Decodable {
    /// An `http://` or `https://` address, or a parameter.
    public var webhook: String?
    public var timeout: StageTimeout

    /// The environment variable that names the webhook when the pipeline file leaves it empty.
    public static let environmentVariable = "FIELDGUIDE_WEBHOOK_URL"

    enum CodingKeys: String, CodingKey { case webhook, timeout }

    public init(webhook: String?, timeout: StageTimeout = StageTimeout(seconds: 10)) { self.webhook = webhook; self.timeout = timeout }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        webhook = try c.decodeIfPresent(String.self, forKey: .webhook)
        timeout = try c.decodeIfPresent(StageTimeout.self, forKey: .timeout) ?? StageTimeout(seconds: 10)
    }
}

extension PipelineDefinition {
    /// The webhook address for a run with `parameters` set: the pipeline file's (parameters
    /// expanded), else `FIELDGUIDE_WEBHOOK_URL` from `environment`; nil when neither names one.
    public func webhook(parameters: [String: String], environment: [String: String]) -> String? {
        let file = notify?.webhook.map { PipelinePlan.expand($0, self.parameters.merging(parameters) { $1 }) }
        let address = file?.trimmingCharacters(in: .whitespaces) ?? ""
        if !address.isEmpty { return address }
        let fromEnvironment = environment[NotifySpec.environmentVariable]?.trimmingCharacters(in: .whitespaces) ?? ""
        return fromEnvironment.isEmpty ? nil : fromEnvironment
    }
}

/// Where a source's files are: one path, a whitespace-separated list of paths, or a glob.
public struct SourceSpec: Sendable, Equatable, Decodable {
    /// A file or directory (a directory's files are all fingerprinted).
    public var path: String?
    /// Several paths separated by whitespace (for a parameter such as `PATHS=a b`).
    public var paths: String?
    /// `*`, `?`, `[…]` within a name, `**` across directories; matches are sorted.
    public var glob: String?
    /// A run stops before any stage when a required source is missing or matches nothing.
    public var required: Bool = false
    /// Only the first match of a glob (for options that take one file).
    public var first: Bool = false

    enum CodingKeys: String, CodingKey { case path, paths, glob, required, first }

    public init(path: String? = nil, paths: String? = nil, glob: String? = nil, required: Bool = false, first: Bool = false) {
        self.path = path; self.paths = paths; self.glob = glob; self.required = required; self.first = first
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decodeIfPresent(String.self, forKey: .path)
        paths = try c.decodeIfPresent(String.self, forKey: .paths)
        glob = try c.decodeIfPresent(String.self, forKey: .glob)
        required = try c.decodeIfPresent(Bool.self, forKey: .required) ?? false
        first = try c.decodeIfPresent(Bool.self, forKey: .first) ?? false
    }
}

/// One stage: a stage executable, its inputs and outputs and its command line.
public struct StageSpec: Sendable, Equatable, Decodable {
    public var name: String
    /// The executable's name, looked up in the pipeline's tool directory.
    public var tool: String
    public var description: String?
    /// References this stage reads: sources, stages, or `stage/file`.
    public var inputs: [String]
    /// Files the stage must leave in its output directory (checked after it runs).
    public var outputs: [String]
    /// The command line. `{ref}` is replaced by an input's paths (several paths become several
    /// arguments) and `{out}` by the stage's output directory. A nested list is an optional
    /// group, dropped when one of its references has no paths.
    public var args: [ArgSpec]
    /// The stage's report in its output directory, decoded typed once the stage exits 0: a
    /// `StageReport` (which must say `ok`), or for `manifest.json` an emit stage's `Manifest`.
    /// A report that does not decode fails the stage; its counts and rows go into the run summary.
    public var report: String?
    /// Skip the stage when its fingerprint matches its last successful run (default true).
    public var cache: Bool
    /// How long the stage may run (`timeout: 90s`, `30m`, `2h` or a number of seconds; default
    /// ``StageTimeout/default``, one hour). Past it the stage and every process it started are
    /// stopped and the run fails.
    public var timeout: StageTimeout
    /// Run the stage only on request: `when: "${SQLITE}"` drops it (as `dropped`, its
    /// outputs left out of the build) unless the value is set to something other than
    /// nothing, `0`, `no` or `false`.
    public var when: String?

    enum CodingKeys: String, CodingKey { case name, tool, description, inputs, outputs, args, report, cache, timeout, when }

    public init(name: String, tool: String, inputs: [String], outputs: [String], args: [ArgSpec],
                report: String? = nil, cache: Bool = true, description: String? = nil, timeout: StageTimeout = .default) {
        self.name = name; self.tool = tool; self.inputs = inputs; self.outputs = outputs
        self.args = args; self.report = report; self.cache = cache; self.description = description
        self.timeout = timeout
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        tool = try c.decodeIfPresent(String.self, forKey: .tool) ?? name
        description = try c.decodeIfPresent(String.self, forKey: .description)
        inputs = try c.decodeIfPresent([String].self, forKey: .inputs) ?? []
        outputs = try c.decodeIfPresent([String].self, forKey: .outputs) ?? []
        args = try c.decodeIfPresent([ArgSpec].self, forKey: .args) ?? []
        report = try c.decodeIfPresent(String.self, forKey: .report)
        cache = try c.decodeIfPresent(Bool.self, forKey: .cache) ?? true
        timeout = try c.decodeIfPresent(StageTimeout.self, forKey: .timeout) ?? .default
        when = try c.decodeIfPresent(String.self, forKey: .when)
    }
}

/// A stage's time-out: whole seconds, written `90`, `90s`, `30m` or `2h`, from 1 s to 7 days.
///
/// ```yaml
/// - name: ingest-faa
///   timeout: 20m
/// ```
public struct StageTimeout: Sendable, Equatable, Decodable, CustomStringConvertible {
    /// Seconds.
    public var seconds: Int

    /// One hour: generous for every stage of the nightly (the full FAA ingest takes seconds).
    public static let `default` = StageTimeout(seconds: 3600)
    /// The longest time-out a pipeline file may ask for.
    public static let maximum = 7 * 24 * 3600

    public init(seconds: Int) { self.seconds = seconds }

    /// `90`, `90s`, `30m`, `2h`; nil for anything else or outside 1 s … 7 days.
    public init?(_ text: String) {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        var unit = 1
        if let last = digits.last, let scale = units[last] {
            unit = scale
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count <= 9,
              let value = Int(digits), value * unit >= 1, value * unit <= Self.maximum else { return nil }
        seconds = value * unit
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text: String
        if let number = try? c.decode(Int.self) { text = String(number) } else { text = try c.decode(String.self) }
        guard let value = StageTimeout(text) else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "expected a time-out such as 90s, 30m or 2h (whole seconds, minutes or hours, 1 s to 7 days)")
        }
        self = value
    }

    public var description: String {
        if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}

/// One command-line item: a word, or an optional group of words.
public enum ArgSpec: Sendable, Equatable, Decodable {
    case word(String)
    case optional([String])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let words = try? c.decode([String].self) {
            self = .optional(words)
        } else {
            self = .word(try c.decode(String.self))
        }
    }

    var words: [String] {
        switch self {
        case .word(let w): [w]
        case .optional(let ws): ws
        }
    }
}

/// What a successful run publishes, all as `stage/file` references.
public struct PublishSpec: Sendable, Equatable, Decodable {
    /// Artifact files, published under their own names.
    public var artifacts: [String]
    /// `manifest.json` files merged into the build's one manifest.
    public var manifests: [String]
    /// Rejects and stage reports, published under `reports/`.
    public var reports: [String]
    /// How many builds to keep under `builds/` (at least 2: current and previous).
    public var keep: Int

    enum CodingKeys: String, CodingKey { case artifacts, manifests, reports, keep }

    public init(artifacts: [String], manifests: [String] = [], reports: [String] = [], keep: Int = 2) {
        self.artifacts = artifacts; self.manifests = manifests; self.reports = reports; self.keep = keep
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        artifacts = try c.decodeIfPresent([String].self, forKey: .artifacts) ?? []
        manifests = try c.decodeIfPresent([String].self, forKey: .manifests) ?? []
        reports = try c.decodeIfPresent([String].self, forKey: .reports) ?? []
        keep = max(2, try c.decodeIfPresent(Int.self, forKey: .keep) ?? 2)
    }
}

/// Conditions checked before publishing, against the new manifest and the published one.
///
/// Every guard takes a limit: a number (past it the guard refuses to publish) or
/// `{warn: W, refuse: R}` (past `W` the run publishes with a warning: the run summary, the
/// webhook and the metrics say so; past `R` it refuses).
///
/// ```yaml
/// guards:
///   shrink:    { MASTER: {warn: 0.005, refuse: 0.02} }   # rows read fall against the published build
///   rejects:   { default: 0.02, MASTER: 0.01 }           # rejected rows' share of rows read
///   min_rows:  { MASTER: 250000 }                        # an absolute floor of rows read
///   join:      { model: {warn: 0.01, refuse: 0.05} }     # share of MASTER rows without an ACFTREF model
///   freshness: { MASTER: {warn: 3, refuse: 8} }          # days a source's content has stayed the same
/// ```
public struct GuardSpec: Sendable, Equatable, Decodable {
    /// Largest allowed drop in rows read, as a share, per source (by file stem: `MASTER`
    /// covers `MASTER.txt` and `MASTER-1.txt`…), against the last published build.
    public var shrink: [String: GuardLimit]
    /// Largest allowed share of rejected rows per source stem; `default` covers the rest.
    public var rejects: [String: GuardLimit]
    /// Fewest rows read per source stem (`MASTER: 250000`): a floor that holds on the first
    /// build too, when `shrink` has nothing to compare with.
    public var minRows: [String: GuardLimit]
    /// Largest share of registrations without a joined reference row: `model` (no ACFTREF
    /// model for MASTER's code) and `engine` (no ENGINE row), from the aircraft artifact's counts.
    public var join: [String: GuardLimit]
    /// Most days a source stem's content may stay the same (as this installation has seen it:
    /// `OUTPUT/.pipeline/NAME/sources.json`); checked on unchanged runs too.
    public var freshness: [String: GuardLimit]

    /// Each kind of guard by its name in the file.
    var byField: [(field: String, limits: [String: GuardLimit])] {
        [("shrink", shrink), ("rejects", rejects), ("min_rows", minRows), ("join", join), ("freshness", freshness)]
    }

    /// The first limit out of range or with its warning after its refusal (values set so
    /// far; parameters are checked once set).
    func problem() -> (field: String, key: String, message: String)? {
        let rules: [String: (range: ClosedRange<Double>, what: String, rising: Bool)] = [
            "shrink": (0...1, "a share between 0 and 1", true), "rejects": (0...1, "a share between 0 and 1", true),
            "join": (0...1, "a share between 0 and 1", true), "min_rows": (0...1e12, "a whole number of rows, 0 or more", false),
            "freshness": (0.001...36_500, "a number of days above 0", true),
        ]
        for (field, limits) in byField {
            let rule = rules[field]!
            for (key, limit) in limits.sorted(by: { $0.key < $1.key }) {
                for value in limit.values where !rule.range.contains(value) || (field == "min_rows" && value != value.rounded()) {
                    return (field, key, "expected \(rule.what), found \(PipelineDefinition.number(value))")
                }
                if let warn = limit.warn, let refuse = limit.refuse, rule.rising ? warn > refuse : warn < refuse {
                    return (field, key, "expected warn \(rule.rising ? "at most" : "at least") refuse (a warning comes before a refusal), "
                            + "found warn \(PipelineDefinition.number(warn)), refuse \(PipelineDefinition.number(refuse))")
                }
            }
        }
        return nil
    }

    /// The guards with their parameters set; a value that is not a number, or out of range
    /// once set, is a usage error naming the pipeline file and the guard.
    func resolved(_ parameters: [String: String], file: String) throws(PipelineError) -> GuardSpec {
        func resolve(_ field: String, _ limits: [String: GuardLimit]) throws(PipelineError) -> [String: GuardLimit] {
            var out: [String: GuardLimit] = [:]
            for (key, limit) in limits {
                let (resolved, found) = limit.resolved(parameters)
                guard let resolved else {
                    throw PipelineError(LocatedError(.usage, file: file, field: "guards.\(field).\(key)",
                                                     message: "expected a number once its parameters are set, found '\(found)'"))
                }
                if !resolved.values.isEmpty { out[key] = resolved }
            }
            return out
        }
        let spec = GuardSpec(shrink: try resolve("shrink", shrink), rejects: try resolve("rejects", rejects), minRows: try resolve("min_rows", minRows),
                             join: try resolve("join", join), freshness: try resolve("freshness", freshness))
        if let problem = spec.problem() {
            throw PipelineError(LocatedError(.usage, file: file, field: "guards.\(problem.field).\(problem.key)", message: problem.message))
        }
        return spec
    }

    /// The `join` keys and the manifest counts they read.
    public static let joinCounts = ["engine": "registrationsWithoutEngine", "model": "registrationsWithoutModel"]

    enum CodingKeys: String, CodingKey {
        case shrink, rejects, minRows = "min_rows", join, freshness
    }

    public init(shrink: [String: GuardLimit] = [:], rejects: [String: GuardLimit] = [:], minRows: [String: GuardLimit] = [:],
                join: [String: GuardLimit] = [:], freshness: [String: GuardLimit] = [:]) {
        self.shrink = shrink; self.rejects = rejects; self.minRows = minRows; self.join = join; self.freshness = freshness
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        shrink = try c.decodeIfPresent([String: GuardLimit].self, forKey: .shrink) ?? [:]
        rejects = try c.decodeIfPresent([String: GuardLimit].self, forKey: .rejects) ?? [:]
        minRows = try c.decodeIfPresent([String: GuardLimit].self, forKey: .minRows) ?? [:]
        join = try c.decodeIfPresent([String: GuardLimit].self, forKey: .join) ?? [:]
        freshness = try c.decodeIfPresent([String: GuardLimit].self, forKey: .freshness) ?? [:]
    }
}

/// A guard's limit: a number alone refuses past it; `{warn: W, refuse: R}` warns past `W`
/// and refuses past `R` (either may be left out). A value may be a parameter,
/// `"${MASTER_MIN_ROWS}"`, set when the run starts (`--set MASTER_MIN_ROWS=250000`).
///
/// ```swift
/// let limit: GuardLimit = 0.02                       // refuse past 2%
/// GuardLimit(warn: 0.005, refuse: 0.02)              // warn past 0.5%, refuse past 2%
/// ```
public struct GuardLimit: Sendable, Equatable, Decodable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var warn: Double?
    public var refuse: Double?
    /// Values written as `${NAME}`, by threshold (`warn`, `refuse`), until `resolved`.
    public var references: [String: String] = [:]

    enum CodingKeys: String, CodingKey { case warn, refuse }

    public init(warn: Double? = nil, refuse: Double? = nil, references: [String: String] = [:]) {
        self.warn = warn; self.refuse = refuse; self.references = references
    }
    public init(floatLiteral value: Double) { self.init(refuse: value) }
    public init(integerLiteral value: Int) { self.init(refuse: Double(value)) }

    public init(from decoder: Decoder) throws {
        self.init()
        guard let c = try? decoder.container(keyedBy: CodingKeys.self) else {
            // A scalar: the refusal threshold (a number, or a parameter).
            set(try decoder.singleValueContainer().decode(Threshold.self).value, for: .refuse)
            return
        }
        for key in [CodingKeys.warn, .refuse] {
            if let threshold = try c.decodeIfPresent(Threshold.self, forKey: key) { set(threshold.value, for: key) }
        }
        guard warn != nil || refuse != nil || !references.isEmpty else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected a number or {warn: N, refuse: N}"))
        }
    }

    /// One threshold as written: a number or `"${NAME}"`.
    private struct Threshold: Decodable {
        enum Value { case number(Double), reference(String) }
        let value: Value

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let number = try? c.decode(Double.self) {
                value = .number(number)
                return
            }
            let text = (try? c.decode(String.self)) ?? ""
            guard text.hasPrefix("${"), text.hasSuffix("}"), PipelineDefinition.parameterReferences(in: text).count == 1 else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a number or a parameter such as \"${MASTER_MIN_ROWS}\"")
            }
            value = .reference(text)
        }
    }

    private mutating func set(_ value: Threshold.Value, for key: CodingKeys) {
        switch value {
        case .number(let n): if key == .warn { warn = n } else { refuse = n }
        case .reference(let text): references[key.rawValue] = text
        }
    }

    /// Both thresholds given, for checks.
    var values: [Double] { [warn, refuse].compactMap { $0 } }

    /// The limit with its parameters set (a parameter set to nothing leaves its threshold
    /// unset); nil (and the text found) when a value is not a number.
    func resolved(_ parameters: [String: String]) -> (limit: GuardLimit?, found: String) {
        var out = self
        out.references = [:]
        for (key, text) in references.sorted(by: { $0.key < $1.key }) {
            let value = PipelinePlan.expand(text, parameters).trimmingCharacters(in: .whitespaces)
            if value.isEmpty { continue }
            guard let number = Double(value), number.isFinite else { return (nil, value) }
            if key == "warn" { out.warn = number } else { out.refuse = number }
        }
        return (out, "")
    }
}
