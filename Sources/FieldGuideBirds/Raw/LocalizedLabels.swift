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

    /// Reads a labels file; a line without a name on each side of its `_`, or a scientific name
    /// labelled twice, is refused with its line number.
    public static func read(_ path: String) throws(LocatedError) -> LocalizedLabels {
        var bytes = try BoundedRead.bytes(atPath: path, limit: BoundedRead.labelsFileBytes, what: "a labels file")
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var labels = LocalizedLabels(file: path, language: language(ofFile: path), names: [:], lines: 0)
        var firstLines: [String: Int] = [:]   // each scientific name's line
        for (index, raw) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let (text, isLatin1) = FileText.decode(raw)
            let line = Self.trimmed(text)
            if line.isEmpty { continue }
            if isLatin1 { labels.latin1Readings.append(Latin1Reading(file: path, line: index + 1, field: "label", value: line)) }
            guard let underscore = Self.firstUnderscore(line), underscore != line.startIndex, line.index(after: underscore) != line.endIndex else {
                throw LocatedError(.malformed, file: path, line: index + 1, message: "expected \"Scientific name_Common name\", found \"\(line)\"")
            }
            labels.lines += 1
            let scientific = String(line[..<underscore]), common = String(line[line.index(after: underscore)...])
            // One name a species in one language: a second would be dropped or kept by chance.
            if let earlier = firstLines.updateValue(index + 1, forKey: scientific) {
                throw LocatedError(.malformed, file: path, line: index + 1, expected: "each scientific name once",
                                   found: "\(scientific) on line \(earlier) too", message: "a species labelled twice")
            }
            labels.names[scientific] = common
        }
        return labels
    }

    /// `text` without leading and trailing white space and line ends, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` trims them (Foundation's set: U+0009–U+000D,
    /// U+0020, U+0085, U+00A0, U+1680, U+2000–U+200B, U+2028, U+2029, U+202F, U+205F, U+3000).
    /// Without Foundation's bridge to `NSString`, which cost most of this reader's time (six
    /// labels files, 45K lines); a line with nothing to trim is returned as it is.
    package static func trimmed(_ text: String) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
            default: return false
            }
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last, isSpace(first) || isSpace(last) else { return text }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[start...end])
    }

    /// `line.firstIndex(of: "_")`, found by its byte when what precedes it is ASCII and an
    /// ASCII byte (or nothing) follows: then that `_` is a character of its own (only a
    /// non-ASCII mark can join it), and the scientific names before it are ASCII. Else the
    /// search by characters, which cost a tenth of ingest-birds on every line.
    package static func firstUnderscore(_ line: String) -> String.Index? {
        let bytes = line.utf8
        if let at = bytes.firstIndex(where: { $0 == UInt8(ascii: "_") || $0 >= 0x80 }), bytes[at] == UInt8(ascii: "_") {
            let next = bytes.index(after: at)
            if next == bytes.endIndex || bytes[next] < 0x80 { return at }
        }
        return line.firstIndex(of: "_")
    }

    /// `…_Labels_de.txt` → `de`; `…_Labels.txt` → `en`.
    public static func language(ofFile path: String) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let underscore = stem.lastIndex(of: "_") else { return "en" }
        let suffix = stem[stem.index(after: underscore)...]
        return (2...3).contains(suffix.count) && suffix.allSatisfy(\.isLetter) ? suffix.lowercased() : "en"
    }
}
