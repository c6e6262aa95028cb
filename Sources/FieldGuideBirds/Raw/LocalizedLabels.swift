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
    /// The lines that were not UTF-8 and were read as Latin-1, or held a control character
    /// (replaced with U+FFFD).
    public var readings: [TextReading] = []

    /// Reads a labels file; a line without a name on each side of its `_`, or a scientific name
    /// labelled twice, is refused with its line number, and so is a file in UTF-16 (line 1) or
    /// holding a NUL byte.
    public static func read(_ path: String) throws(LocatedError) -> LocalizedLabels {
        var bytes = try BoundedRead.bytes(atPath: path, limit: BoundedRead.labelsFileBytes, what: "a labels file")
        if let mark = FileText.utf16ByteOrderMark(bytes) { throw FileText.utf16Error(file: path, mark: mark) }
        if let nul = bytes.firstIndex(of: 0) {   // a binary file, or UTF-16 without its mark
            throw LocatedError(.malformed, file: path, line: bytes[..<nul].count { $0 == 0x0A } + 1, message: FileText.nulMessage)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var labels = LocalizedLabels(file: path, language: language(ofFile: path), names: [:], lines: 0)
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let (line, names) = parse(raw, file: path, line: index + 1, into: &labels.readings)
            if line.isEmpty { continue }
            guard let (scientific, common) = names else {
                throw LocatedError(.malformed, file: path, line: index + 1, message: "expected \"Scientific name_Common name\", found \"\(line)\"")
            }
            labels.lines += 1
            // One name a species in one language: a second would be dropped or kept by chance.
            // (The first one's line is looked for only then: one table fewer to fill per line.)
            if labels.names.updateValue(common, forKey: scientific) != nil {
                var ignored: [TextReading] = []
                let earlier = (lines.firstIndex { parse($0, file: path, line: 0, into: &ignored).names?.scientific == scientific } ?? index) + 1
                throw LocatedError(.malformed, file: path, line: index + 1, expected: "each scientific name once",
                                   found: "\(scientific) on line \(earlier) too", message: "a species labelled twice")
            }
        }
        return labels
    }

    /// A line trimmed, as a reader keeps it (`FileText.keep`: a Latin-1 reading or a control
    /// character replaced is appended to `readings`), and its scientific and common name: nil
    /// without a `_` that has a name on each side.
    private static func parse(_ raw: ArraySlice<UInt8>, file: String, line number: Int,
                              into readings: inout [TextReading]) -> (line: String, names: (scientific: String, common: String)?) {
        let (text, isLatin1) = FileText.decode(raw)
        let line = FileText.keep((Self.trimmed(text), isLatin1), file: file, line: number, field: "label", into: &readings)
        // `_` is one scalar, so the next character starts at its next byte.
        guard let underscore = Self.firstUnderscore(line), underscore != line.startIndex,
              case let next = line.utf8.index(after: underscore), next != line.endIndex else { return (line, nil) }
        return (line, (String(line[..<underscore]), String(line[next...])))
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

    /// `line.firstIndex(of: "_")`, found by its byte when what precedes it is ASCII: then the
    /// first `_` byte is the first `_` character unless a mark after it joins it into a larger
    /// one, which the character at that index tells. Else the search by characters.
    ///
    /// The bytes are searched where they lie (`withContiguousStorageIfAvailable`): the generic
    /// `UTF8View.firstIndex(where:)`, and the search by characters on every line whose name
    /// starts with a byte past ASCII (all of a Japanese file's), were a quarter of this reader.
    package static func firstUnderscore(_ line: String) -> String.Index? {
        // The byte's offset; -1: an ASCII line without `_`; nil: search by characters.
        let byBytes = line.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard let at = bytes.firstIndex(where: { $0 == UInt8(ascii: "_") || $0 >= 0x80 }) else { return -1 }
            return bytes[at] == UInt8(ascii: "_") ? at : nil
        }
        guard let found = byBytes ?? nil else { return line.firstIndex(of: "_") }
        if found < 0 { return nil }
        let index = line.utf8.index(line.utf8.startIndex, offsetBy: found)
        return line[index] == "_" ? index : line.firstIndex(of: "_")
    }

    /// `…_Labels_de.txt` → `de`; `…_Labels.txt` → `en`.
    public static func language(ofFile path: String) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let underscore = stem.lastIndex(of: "_") else { return "en" }
        let suffix = stem[stem.index(after: underscore)...]
        return (2...3).contains(suffix.count) && suffix.allSatisfy(\.isLetter) ? suffix.lowercased() : "en"
    }
}
