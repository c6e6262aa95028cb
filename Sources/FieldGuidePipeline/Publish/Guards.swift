import FieldGuideArtifact
import FieldGuideCore
import Foundation

/// The publish guards: compare the new build's manifest with the published one.
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
    /// were built from (ACFTREF for the registry and the manufacturer index) counts once.
    static func rowsByStem(_ manifest: Manifest) -> [String: Manifest.Rows] {
        var out: [String: Manifest.Rows] = [:]
        var seen = Set<String>()
        for artifact in manifest.artifacts {
            for source in artifact.sources where seen.insert(source.file + "\u{0}" + source.sha256).inserted {
                var rows = out[stem(source.file)] ?? Manifest.Rows()
                rows.read += source.rows.read
                rows.kept += source.rows.kept
                rows.rejected += source.rows.rejected
                rows.warnings += source.rows.warnings
                out[stem(source.file)] = rows
            }
        }
        return out
    }

    /// Every configured guard's result, shrink guards first, each list sorted by stem.
    public static func check(_ spec: GuardSpec, new: Manifest, published: Manifest?) -> [RunSummary.Guard] {
        var results: [RunSummary.Guard] = []
        let now = rowsByStem(new)
        let before = published.map(rowsByStem) ?? [:]
        for (stem, limit) in spec.shrink.sorted(by: { $0.key < $1.key }) {
            let name = "shrink \(stem)"
            guard let old = before[stem]?.read, old > 0 else {
                results.append(.init(name: name, held: true, detail: "no published build reads \(stem) yet"))
                continue
            }
            let current = now[stem]?.read ?? 0
            let drop = Double(old - current) / Double(old)
            let text = "\(formatCount(old)) → \(formatCount(current)) rows read (\(formatPercent(-drop, distinctFrom: -limit, signed: true)))"
            if drop > limit {
                results.append(.init(name: name, held: false, detail: "\(text), more than the \(formatPercent(limit)) allowed"))
            } else {
                results.append(.init(name: name, held: true, detail: "\(text), within \(formatPercent(limit))"))
            }
        }
        if !spec.rejects.isEmpty {
            for (stem, rows) in now.sorted(by: { $0.key < $1.key }) {
                guard let limit = spec.rejects[stem] ?? spec.rejects["default"], rows.read > 0 else { continue }
                let share = Double(rows.rejected) / Double(rows.read)
                let text = "\(formatCount(rows.rejected)) of \(formatCount(rows.read)) rows rejected (\(formatPercent(share, distinctFrom: limit)))"
                results.append(.init(name: "rejects \(stem)", held: share <= limit,
                                     detail: share <= limit ? "\(text), within \(formatPercent(limit))" : "\(text), more than the \(formatPercent(limit)) allowed"))
            }
        }
        return results
    }
}
