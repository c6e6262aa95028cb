import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// A BirdNET labels file: `Scientific name_Common name` per line, in one language.
///
/// Read whole, within `BoundedRead.labelsFileBytes` (16 MiB); a line that is not UTF-8 is read
/// as Latin-1 and listed in `latin1Readings`.
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
    /// The lines that were not UTF-8 and were read as Latin-1.
    public var latin1Readings: [Latin1Reading] = []

    /// Reads a labels file; a line without `_` is refused with its line number.
    public static func read(_ path: String) throws(LocatedError) -> LocalizedLabels {
        var bytes = try BoundedRead.bytes(atPath: path, limit: BoundedRead.labelsFileBytes, what: "a labels file")
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var labels = LocalizedLabels(file: path, language: language(ofFile: path), names: [:], lines: 0)
        for (index, raw) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let (text, isLatin1) = FileText.decode(raw)
            let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            if isLatin1 { labels.latin1Readings.append(Latin1Reading(file: path, line: index + 1, field: "label", value: line)) }
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
