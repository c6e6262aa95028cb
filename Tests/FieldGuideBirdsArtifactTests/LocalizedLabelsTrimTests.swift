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

/// The byte-level fast paths of the labels and taxonomy readers find what the character-level
/// searches find, combining marks included.
struct LabelsFastPathTests {
    @Test func underscoreAsCharactersFindIt() {
        for line in ["Passer domesticus_スズメ", "a_b", "_x", "x_", "no separator", "a_\u{0301}b_c", "ü_b", "a\u{0301}_b",
                     "a_\u{0301}", "\u{0600}_x", "a b_c_d", ""] {
            #expect(LocalizedLabels.firstUnderscore(line) == line.firstIndex(of: "_"), "\(line.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}

extension LabelsFastPathTests {
    @Test func spacesTrimAsCharactersDo() {
        for text in ["", " ", "\t \t", " Passeridae ", "Passeridae", "\tOld World Sparrows\t ", " \u{0301}x ", "x \u{0301}", " ü ", "a b", "\r\n ",
                     "\u{0600} x", "x\u{0600} ", " \u{0600}", " ü", "ü ", "é  ", "  é", "\t\u{0301}", "\u{0301}\t", "ab \t", "  ",
                     " a name longer than fifteen bytes\t", "Passeridae (Old World Sparrows)"] {
            #expect(text.trimmingSpaces == text.trimmingSpaceCharacters, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}

/// `utf8Order` orders as the bytes do (`lexicographicallyPrecedes` on the UTF-8 views), for short
/// strings kept inline and long ones on the heap alike.
struct UTF8OrderTests {
    @Test func ordersAsTheBytes() {
        let texts = ["", "a", "A", "ab", "abc", "b", "Z", "é", "e\u{0301}", "スズメ", "a name longer than fifteen bytes",
                     "a name longer than fifteen bytes!", "a name longer than fifteen byte", "\u{7F}", "\u{80}", "Zebra", "apple"]
        for a in texts {
            for b in texts {
                let order = utf8Order(a, b)
                #expect((order < 0) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a) \(b)")
                #expect((order == 0) == a.utf8.elementsEqual(b.utf8), "\(a) \(b)")
                #expect(utf8Precedes(a, b) == (order < 0))
            }
        }
    }
}
