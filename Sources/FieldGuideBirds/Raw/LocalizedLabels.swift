import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// A BirdNET labels file: `Scientific name_Common name` per line, in one language.
///
/// ```swift
/// let labels = try LocalizedLabels.read("BirdNET_GLOBAL_6K_V2.4_Labels_de.txt")
/// labels.language                     // "de"
/// labels.names["Passer domesticus"]   // "Haussperling"
/// ```
public struct LocalizedLabels: Sendable {
    public var file: String
    /// From the file name's `_xx` suffix; `en` when there is none.
    public var language: String
    public var names: [String: String]
    public var lines: Int

    /// Reads a labels file; a line without `_` is refused with its line number.
    public static func read(_ path: String) throws(LocatedError) -> LocalizedLabels {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw LocatedError(path, failed: error, doing: "cannot read the labels file")
        }
        var labels = LocalizedLabels(file: path, language: language(ofFile: path), names: [:], lines: 0)
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            guard let underscore = line.firstIndex(of: "_") else {
                throw LocatedError(.malformed, file: path, line: index + 1, message: "expected \"Scientific name_Common name\", found \"\(line)\"")
            }
            labels.lines += 1
            let scientific = String(line[..<underscore]), common = String(line[line.index(after: underscore)...])
            if labels.names[scientific] == nil { labels.names[scientific] = common }
        }
        return labels
    }

    /// `…_Labels_de.txt` → `de`; `…_Labels.txt` → `en`.
    public static func language(ofFile path: String) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let underscore = stem.lastIndex(of: "_") else { return "en" }
        let suffix = stem[stem.index(after: underscore)...]
        return (2...3).contains(suffix.count) && suffix.allSatisfy(\.isLetter) ? suffix.lowercased() : "en"
    }
}
