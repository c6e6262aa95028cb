import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import Foundation

/// The publish guards: compare the new build's manifest with the published one, with floors
/// and join shares of its own, and with how long each source has stayed the same.
///
/// Each guard's limit is a `GuardLimit`: past `warn` the guard holds with a warning, past
/// `refuse` it refuses to publish.
///
/// ```swift
/// let results = Guards.check(GuardSpec(shrink: ["MASTER": 0.02]), new: manifest, published: current)
/// results.filter { !$0.held }   // "shrink MASTER: 316,000 → 300,000 rows read (−5.1%), more than 2%"
/// ```
public enum Guards {
    /// `MASTER.txt`, `MASTER-2.txt` and `dir/MASTER.txt` all have the stem `MASTER`.
    public static func stem(_ file: String) -> String {
        var name = (file as NSString).lastPathComponent
        if let dot = name.firstIndex(of: ".") { name = String(name[..<dot]) }
        if let dash = name.lastIndex(of: "-"), name[name.index(after: dash)...].allSatisfy(\.isNumber),
           name.index(after: dash) < name.endIndex {
            name = String(name[..<dash])
        }
        return name
    }

    /// Rows summed per source stem over every artifact of a manifest; a file two artifacts
    /// were built from (ACFTREF for the registry and the manufacturer index) counts once. The
    /// sums stop at `Int.max`: a published manifest's counts are read back, not trusted.
    static func rowsByStem(_ manifest: Manifest) -> [String: Manifest.Rows] {
        var out: [String: Manifest.Rows] = [:]
        for source in uniqueSources(manifest) {
            out[stem(source.file)] = (out[stem(source.file)] ?? Manifest.Rows()) + source.rows
        }
        return out
    }

    /// Every source of a manifest once (by file name and content).
    static func uniqueSources(_ manifest: Manifest) -> [Manifest.Source] {
        var seen = Set<String>()
        return manifest.artifacts.flatMap(\.sources).filter { seen.insert($0.file + "\u{0}" + $0.sha256).inserted }
    }

    /// Every configured guard's result: shrink, rejects, min_rows, join, then freshness, each
    /// list sorted by stem. `unchangedDays` gives, per source stem, how many days its content
    /// has stayed the same (`SourceFreshness`); stems it lacks are not checked for freshness.
    public static func check(_ spec: GuardSpec, new: Manifest, published: Manifest?,
                             unchangedDays: [String: UnchangedSource] = [:]) -> [RunSummary.Guard] {
        let now = rowsByStem(new)
        let before = published.map(rowsByStem) ?? [:]
        var results: [RunSummary.Guard] = []
        for (stem, limit) in spec.shrink.sorted(by: { $0.key < $1.key }) {
            let name = "shrink \(stem)"
            guard let old = before[stem]?.read, old > 0 else {
                results.append(.init(name: name, held: true, detail: "no published build reads \(stem) yet"))
                continue
            }
            let current = now[stem]?.read ?? 0
            let drop = (Double(old) - Double(current)) / Double(old)
            let text = "\(formatCount(old)) → \(formatCount(current)) rows read (\(formatPercent(-drop, distinctFrom: -(limit.refuse ?? limit.warn!), signed: true)))"
            results.append(judge(name, text, value: drop, limit: limit) { formatPercent($0) })
        }
        if !spec.rejects.isEmpty {
            for (stem, rows) in now.sorted(by: { $0.key < $1.key }) {
                guard let limit = spec.rejects[stem] ?? spec.rejects["default"], rows.read > 0 else { continue }
                let share = Double(rows.rejected) / Double(rows.read)
                let text = "\(formatCount(rows.rejected)) of \(formatCount(rows.read)) rows rejected (\(formatPercent(share, distinctFrom: limit.refuse ?? limit.warn!)))"
                results.append(judge("rejects \(stem)", text, value: share, limit: limit) { formatPercent($0) })
            }
        }
        for (stem, limit) in spec.minRows.sorted(by: { $0.key < $1.key }) {
            let read = now[stem]?.read ?? 0
            results.append(judge("min_rows \(stem)", "\(formatCount(read)) rows read", value: Double(read), limit: limit, floor: true) {
                formatCount(Int($0))
            })
        }
        results += checkJoins(spec.join, new)
        for (stem, limit) in spec.freshness.sorted(by: { $0.key < $1.key }) {
            guard let unchanged = unchangedDays[stem] else {
                results.append(.init(name: "freshness \(stem)", held: true, detail: "no source \(stem) in this build"))
                continue
            }
            let text = "\(stem) unchanged for \(formatDays(unchanged.days)) (since \(unchanged.since))"
            results.append(judge("freshness \(stem)", text, value: unchanged.days, limit: limit) { formatDays($0) })
        }
        return results
    }

    /// How long a source's content has stayed the same.
    public struct UnchangedSource: Sendable, Equatable {
        public var days: Double
        /// When this installation first saw the content (ISO 8601).
        public var since: String
        public init(days: Double, since: String) { self.days = days; self.since = since }
    }

    /// The join guards: the share of registrations without a model (engine) row, from the
    /// counts of the artifact that has them.
    private static func checkJoins(_ limits: [String: GuardLimit], _ manifest: Manifest) -> [RunSummary.Guard] {
        limits.sorted(by: { $0.key < $1.key }).compactMap { key, limit in
            guard let count = GuardSpec.joinCounts[key],
                  let entry = manifest.artifacts.first(where: { $0.counts[count] != nil && $0.counts["registrations"] != nil }) else {
                return .init(name: "join \(key)", held: true, detail: "no artifact in this build counts its registrations")
            }
            let without = entry.counts[count] ?? 0, total = entry.counts["registrations"] ?? 0
            let share = total == 0 ? 0 : Double(without) / Double(total)
            let what = key == "model" ? "an ACFTREF model" : "an ENGINE row"
            // A small share keeps two significant digits: 120 of 316,000 is 0.038%, not 0%.
            let percent = share > 0 && share < 0.001 ? String(format: "%.2g%%", share * 100) : formatPercent(share, distinctFrom: limit.refuse ?? limit.warn!)
            let text = "\(formatCount(without)) of \(formatCount(total)) registrations without \(what) (\(percent))"
            return judge("join \(key)", text, value: share, limit: limit) { formatPercent($0) }
        }
    }

    /// A guard's result for `value` against its limit: refused past `refuse`, held with a
    /// warning past `warn`, held otherwise. A `floor` is passed by falling below it.
    static func judge(_ name: String, _ text: String, value: Double, limit: GuardLimit, floor: Bool = false,
                      show: (Double) -> String) -> RunSummary.Guard {
        let passes = { (threshold: Double) in floor ? value < threshold : value > threshold }
        let beyond = floor ? "fewer than" : "more than"
        if let refuse = limit.refuse, passes(refuse) {
            return .init(name: name, held: false, detail: "\(text), \(beyond) the \(show(refuse)) \(floor ? "required" : "allowed")")
        }
        if let warn = limit.warn, passes(warn) {
            let refusal = limit.refuse.map { "; refused past \(show($0))" } ?? ""
            return .init(name: name, held: true, detail: "\(text), \(beyond) the \(show(warn)) warning threshold\(refusal)", warned: true)
        }
        let bound = limit.refuse ?? limit.warn!
        return .init(name: name, held: true, detail: "\(text), \(floor ? "at least" : "within") \(show(bound))")
    }

    /// `9.2 days`, `1 day`.
    static func formatDays(_ days: Double) -> String {
        let rounded = (days * 10).rounded() / 10
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
        return text + (text == "1" ? " day" : " days")
    }
}
