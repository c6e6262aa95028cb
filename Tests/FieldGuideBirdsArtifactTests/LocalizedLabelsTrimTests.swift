import FieldGuideBirds
import Foundation
import Testing
import TestSupport

/// The labels reader trims lines without Foundation's `NSString` bridge: the same result as
/// `trimmingCharacters(in: .whitespacesAndNewlines)`, on every kind of white space.
struct LocalizedLabelsTrimTests {
    @Test func trimsAsFoundationDoes() {
        let samples = [
            "", " ", "\t\r\n", "Passer domesticus_Haussperling", "  Passer domesticus_Haussperling \r",
            "\u{00A0}Ünterwasser_Ä\u{2003}", "\u{3000}スズメ_Passer\u{3000}", "\u{0085}x\u{2028}", "\u{2029}\u{000B}\u{000C}",
            "x\u{200B}", "\u{200B}x", "\u{FEFF}x", "a b", " \u{1F426} ", "\u{1680}bird\u{202F}\u{205F}",
        ] + [0x08, 0x0E, 0x1F, 0x84, 0x86, 0x9F, 0xA1, 0x167F, 0x1681, 0x180E, 0x1FFF, 0x2000, 0x2005, 0x200A, 0x200C,
             0x2027, 0x202A, 0x202E, 0x2030, 0x205E, 0x2060, 0x2FFF, 0x3001].map { "\(Unicode.Scalar($0)!)a\(Unicode.Scalar($0)!)" }
        for sample in samples {
            #expect(LocalizedLabels.trimmed(sample) == sample.trimmingCharacters(in: .whitespacesAndNewlines), "\(sample.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func readsPaddedAndCRLFLines() throws {
        let directory = try TestPaths.temporaryDirectory("labels-trim")
        defer { try? FileManager.default.removeItem(at: directory) }
        let labels = directory.appendingPathComponent("Labels_ja.txt")
        try "  Passer domesticus_スズメ\u{3000}\r\n\r\n\u{00A0}Pica pica_カササギ \n".write(to: labels, atomically: true, encoding: .utf8)
        let read = try LocalizedLabels.read(labels.path)
        #expect(read.names == ["Passer domesticus": "スズメ", "Pica pica": "カササギ"])
        #expect(read.lines == 2)
    }
}

/// `Taxonomy.fold`'s ASCII path folds as the Unicode one does.
struct TaxonomyFoldTests {
    @Test func asciiPathMatchesScalarPath() {
        let every = String(decoding: (1..<0x80).map { UInt8($0) }, as: UTF8.self)
        for name in [every, "Indian Scops-Owl", "Indian Scops Owl", "", "Great Tit (Parus major) 2", "ÆGYPTIAN Vulture", "Vautour percnoptère"] {
            #expect(Taxonomy.fold(name) == Taxonomy.foldScalars(name), "\(name)")
        }
        #expect(Taxonomy.fold("Indian Scops-Owl") == "indianscopsowl")
    }
}
