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

/// Where a source's files are: one path, a whitespace-separated list of paths, a glob, or
/// an address a stage fetches (`url`).
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
    /// An address (`${FAA_URL}`), present when not empty once parameters are set. The pipeline
    /// never reads it: it is fingerprinted by its text, and the stage that takes it fetches it.
    public var url: String?
    /// Another source's name: when that one is present, this one counts as absent and is not
    /// required (`faa` from `${SOURCES}/faa` unless `faa-url` is set).
    public var unless: String?

    enum CodingKeys: String, CodingKey { case path, paths, glob, required, first, url, unless }

    public init(path: String? = nil, paths: String? = nil, glob: String? = nil, required: Bool = false, first: Bool = false,
                url: String? = nil, unless: String? = nil) {
        self.path = path; self.paths = paths; self.glob = glob; self.required = required; self.first = first
        self.url = url; self.unless = unless
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decodeIfPresent(String.self, forKey: .path)
        paths = try c.decodeIfPresent(String.self, forKey: .paths)
        glob = try c.decodeIfPresent(String.self, forKey: .glob)
        required = try c.decodeIfPresent(Bool.self, forKey: .required) ?? false
        first = try c.decodeIfPresent(Bool.self, forKey: .first) ?? false
        url = try c.decodeIfPresent(String.self, forKey: .url)
        unless = try c.decodeIfPresent(String.self, forKey: .unless)
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
    /// arguments), `{out}` by the stage's output directory and `{state}` by a directory the
    /// stage keeps across runs (`OUTPUT/.pipeline/NAME/state/STAGE`, for a fetch's validators),
    /// `{run}` by the run's id (its build's name) and `{published}` by the build published now
    /// (none before the first). A nested list is an optional group, dropped when one of its
    /// references has no paths.
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
    /// How the stage shares the cores with the stages running beside it (`priority: background`
    /// for one the run does not wait on first; default `normal`).
    public var priority: StagePriority

    enum CodingKeys: String, CodingKey { case name, tool, description, inputs, outputs, args, report, cache, timeout, when, priority }

    public init(name: String, tool: String, inputs: [String], outputs: [String], args: [ArgSpec],
                report: String? = nil, cache: Bool = true, description: String? = nil, timeout: StageTimeout = .default) {
        self.name = name; self.tool = tool; self.inputs = inputs; self.outputs = outputs
        self.args = args; self.report = report; self.cache = cache; self.description = description
        self.timeout = timeout
        priority = .normal
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
        priority = try c.decodeIfPresent(StagePriority.self, forKey: .priority) ?? .normal
    }
}

/// How a stage shares the machine's cores with the stages running beside it.
///
/// A `background` stage runs nicer than the pipeline (its nice value plus 10, at most 19, with
/// every thread and process it starts): beside stages at `normal` it gets about a tenth of a
/// core they want, so a stage the run waits on (the FAA ingest, then its emit) is hardly slowed
/// by one that can finish later (the bird sources, the manufacturer index), which takes the
/// cores they leave idle. Alone on the machine it runs as fast as at `normal`.
///
/// ```yaml
/// - name: ingest-birds
///   priority: background
/// ```
public enum StagePriority: String, Sendable, Equatable, Decodable {
    case normal
    case background

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let value = StagePriority(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected normal or background")
        }
        self = value
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
    /// The registry history the build carries as `history.fgb` (a stage's output, written from
    /// the build published before: see `RegistrationHistoryStage`), or nil.
    public var history: String?

    enum CodingKeys: String, CodingKey { case artifacts, manifests, reports, keep, history }

    public init(artifacts: [String], manifests: [String] = [], reports: [String] = [], keep: Int = 2, history: String? = nil) {
        self.artifacts = artifacts; self.manifests = manifests; self.reports = reports; self.keep = keep; self.history = history
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        artifacts = try c.decodeIfPresent([String].self, forKey: .artifacts) ?? []
        manifests = try c.decodeIfPresent([String].self, forKey: .manifests) ?? []
        reports = try c.decodeIfPresent([String].self, forKey: .reports) ?? []
        keep = max(2, try c.decodeIfPresent(Int.self, forKey: .keep) ?? 2)
        history = try c.decodeIfPresent(String.self, forKey: .history)
    }
}
