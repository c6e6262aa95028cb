import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

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
            guard value.isNumeral, let number = Double(value), number.isFinite else { return (nil, value) }
            if key == "warn" { out.warn = number } else { out.refuse = number }
        }
        return (out, "")
    }
}
