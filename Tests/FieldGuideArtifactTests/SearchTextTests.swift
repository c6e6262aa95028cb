import FieldGuideArtifact
import FieldGuideArtifactWriter
import Foundation
import Testing

@Suite("Search atoms and fixed-width text columns")
struct SearchTextTests {
    func atoms(_ text: String) -> [String] {
        let tokens = SearchText.Tokens(text)
        return tokens.atoms.map { String(decoding: tokens[$0], as: UTF8.self) }
    }

    @Test("segments are runs of letters and digits; atoms split where letters meet digits; folding first")
    func cutting() {
        #expect(atoms("Airbus A-320neo") == ["AIRBUS", "A", "320", "NEO"])
        #expect(atoms("SR22") == atoms("sr-22") && atoms("SR 22") == ["SR", "22"])
        #expect(atoms("EG-15 \"S\" SPORT") == ["EG", "15", "S", "SPORT"])
        #expect(atoms("Dassault Falcon 7X") == ["DASSAULT", "FALCON", "7", "X"])
        #expect(atoms("Aérospatiale") == ["AEROSPATIALE"])
        #expect(atoms(" --!! ").isEmpty && atoms("").isEmpty)
        let tokens = SearchText.Tokens("737-8H4")
        #expect(tokens.atoms.map(\.segment) == [0, 1, 1, 1] && tokens.segmentCount == 2)
        #expect(String(decoding: tokens.compact, as: UTF8.self) == "7378H4")
        #expect(SearchText.indexAtoms("A A-A 1").map { String(decoding: $0, as: UTF8.self) } == ["A", "1"])
        for text in ["CESSNA 172S", "BH-900 JET", "Ø-7", "  ", "x"] {
            #expect(Array(text.utf8).withUnsafeBytes { SearchText.atomCount($0) } == SearchText.Tokens(text).atoms.count, "\(text)")
        }
    }

    @Test("index atoms: distinct, in first-appearance order, past 16 atoms too (where a set takes over)")
    func indexAtomsDistinct() {
        func distinct(_ text: String) -> [String] {
            var seen = Set<String>()
            return atoms(text).filter { $0.count <= SearchText.maximumAtomLength && seen.insert($0).inserted }
        }
        let words = (0..<40).map { "W\($0 % 23)X" }.joined(separator: " ")   // 120 atoms (W, a number, X), 25 distinct
        for text in [words, "A A-A 1", "B737 B737 737", String(repeating: "AB12 ", count: 20), ""] {
            #expect(SearchText.indexAtoms(text).map { String(decoding: $0, as: UTF8.self) } == distinct(text), "\(text)")
        }
        #expect(SearchText.indexAtoms(words).count == 25)
    }

    @Test("one edit: an insertion, a deletion, a substitution or a swap of neighbours; never two")
    func oneEdit() {
        func near(_ a: String, _ b: String) -> Bool { SearchText.withinOneEdit(Array(a.utf8)[...], Array(b.utf8)[...]) }
        #expect(near("BOENG", "BOEING") && near("BOEING", "BOENG") && near("CESSNA", "CESSNA"))
        #expect(near("CESNSA", "CESSNA") && near("CESSNB", "CESSNA") && near("XESSNA", "CESSNA"))
        #expect(!near("CESNA", "CESSNAS") && !near("CSENSA", "CESSNA") && !near("BOEING", "BEOIGN") && !near("AB", "BAC"))
        let stored = Array("PIPER".utf8)
        #expect(stored.withUnsafeBytes { SearchText.withinOneEdit(Array("PIPRE".utf8)[...], $0) })
    }

    @Test("a text column: padded rows, trimmed values, binary search and prefix ranges; a crafted size refused")
    func textColumn() throws {
        let values = ["A", "AB", "ABC", "B", "BA"].map { Array($0.utf8) }
        let (bytes, rows) = TextColumn.serialize(values)
        #expect(bytes.count == 15 && rows == 5)
        try bytes.withUnsafeBytes { section in
            let column = try TextColumn(section, rows: UInt64(rows), tag: FourCC("TEST"), path: "t")
            #expect(column.width == 3 && column.string(1) == "AB" && column.string(7) == "")
            #expect(column.find("ABC") == 2 && column.find("AA") == nil)
            #expect(Array("A".utf8).withUnsafeBytes { column.rows(withPrefix: $0) } == 0..<3)
            #expect(Array("B".utf8).withUnsafeBytes { column.rows(withPrefix: $0) } == 3..<5)
            #expect(Array("C".utf8).withUnsafeBytes { column.rows(withPrefix: $0) }.isEmpty)
            #expect(throws: ArtifactError.self) { _ = try TextColumn(section, rows: 4, tag: FourCC("TEST"), path: "t") }
            #expect(throws: ArtifactError.self) { _ = try TextColumn(section, rows: 16, tag: FourCC("TEST"), path: "t") }
            #expect(throws: ArtifactError.self) { _ = try TextColumn(section, rows: 0, tag: FourCC("TEST"), path: "t") }
        }
        let wide = [UInt8](repeating: 0x41, count: TextColumn.maximumWidth + 1)
        wide.withUnsafeBytes { section in
            _ = #expect(throws: ArtifactError.self) { _ = try TextColumn(section, rows: 1, tag: FourCC("TEST"), path: "t") }
        }
        #expect(TextColumn.serialize([String]()).bytes.isEmpty)
        // Each value at its row's start, trailing spaces dropped, an empty value all padding.
        #expect(TextColumn.serialize(["AB ", "", "ABC"]).bytes == Array("AB    ABC".utf8))
        #expect(TextColumn.serialize(["", " "]).bytes == Array("  ".utf8))
    }
}
