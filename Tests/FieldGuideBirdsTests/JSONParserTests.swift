import FieldGuideDiagnostics
import FieldGuideBirds
import FieldGuideDiagnostics
import Foundation
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    @Test("values, offsets and line:column of every value")
    func values() throws {
        let document = try parse("{\n  \"a\": [1, -2.5e1, true, false, null],\n  \"b\": {\"c\": \"x\"}\n}")
        let a = try #require(document.root["a"]?.array)
        #expect(a.count == 5)
        #expect(a[0].integer == 1)
        #expect(a[1].double == -25 && a[1].integer == -25)
        #expect(a[2].bool == true && a[3].bool == false && a[4].isNull)
        #expect(document.location(of: a[0]) == SourceLocation(line: 2, column: 9))
        #expect(document.location(of: a[1]) == SourceLocation(line: 2, column: 12))
        let c = try #require(document.value(at: "/b/c"))
        #expect(c.string == "x")
        #expect(document.location(of: c) == SourceLocation(line: 3, column: 14))
        #expect(document.value(at: "/a/4")?.isNull == true)
        #expect(document.value(at: "/a/5") == nil)
        #expect(document.value(at: "/b/missing") == nil)
        // A missing key resolves to its deepest existing ancestor.
        #expect(document.location(of: document.deepestValue(at: "/b/missing").value) == SourceLocation(line: 3, column: 8))
    }

    @Test("escapes, surrogate pairs, UTF-8, BOM, columns count characters")
    func strings() throws {
        let document = try parse(#"{"s": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\udc26", "é": "ü", "k": 1}"#)
        #expect(document.root["s"]?.string == "a\"b\\c/d\u{8}\u{c}\n\r\té🐦")
        #expect(document.root["é"]?.string == "ü")
        // "é" and "ü" are one column each though two bytes.
        #expect(document.location(of: document.root["k"]!) == SourceLocation(line: 1, column: 64))
        let bom = try JSONDocument.parse([0xEF, 0xBB, 0xBF] + Array("[\"x\"]".utf8))
        #expect(bom.root.array?.first?.string == "x")
        #expect(bom.location(of: bom.root) == SourceLocation(line: 1, column: 1))
        #expect(bom.location(of: bom.root.array![0]) == SourceLocation(line: 1, column: 2))
    }

    @Test("numbers: integers, fractions, exponents, large values")
    func numbers() throws {
        let document = try parse("[0, -0, 123456789012345678, 1234567890123456789012, 0.5, 1E3, 2.0, 787539199.648104]")
        let items = try #require(document.root.array)
        #expect(items.map(\.double) == [0, 0, 1.2345678901234568e17, 1.234567890123456789012e21, 0.5, 1000, 2, 787539199.648104])
        #expect(items[2].integer == 123456789012345678)
        #expect(items[6].integer == 2)
        #expect(items[4].integer == nil)
    }

    @Test("syntax errors name the exact place", arguments: [
        ("[1,]", 1, 4, LocatedError.Kind.malformed, "found ']' (a trailing comma)"),
        ("{\"a\": 1,\n \"b\" 2}", 2, 6, .malformed, "expected ':' after the key \"b\", found '2'"),
        ("{\"a\": 1\n \"b\": 2}", 2, 2, .malformed, "expected ',' or '}' after the value of \"a\", found '\"'"),
        ("[\"abc", 1, 2, .malformed, "expected a closing '\"' for the string that opens here"),
        ("[\"a\tb\"]", 1, 4, .malformed, "control character U+0009"),
        ("[\"\\x\"]", 1, 3, .malformed, "found '\\x'"),
        ("[\"\\ud83d\"]", 1, 3, .malformed, "expected a low surrogate"),
        ("[\"\\udc26\"]", 1, 3, .malformed, "expected a high surrogate"),
        ("[01]", 1, 3, .malformed, "no leading zero"),
        ("[1.]", 1, 4, .malformed, "digit after the decimal point"),
        ("[-]", 1, 3, .malformed, "expected a digit"),
        ("[tru]", 1, 5, .malformed, "expected 'true', found ']'"),
        ("[NaN]", 1, 2, .malformed, "expected a value, found 'N'"),
        ("{} {}", 1, 4, .malformed, "expected the end of the document"),
        ("", 1, 1, .malformed, "expected a value, found the end of the file"),
        ("{\n  \"a\": [\n", 3, 1, .malformed, "found the end of the file"),
    ])
    func syntax(text: String, line: Int, column: Int, kind: LocatedError.Kind, message: String) throws {
        let error = try #require(syntaxError(text))
        #expect(error.line == line && error.column == column, "\(error)")
        #expect(error.description.hasPrefix("\(line):\(column): "), "\(error)")
        #expect(error.kind == kind)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("invalid UTF-8 and nesting beyond the depth limit are errors, not crashes")
    func limits() throws {
        do {
            _ = try JSONDocument.parse(Array("[\"ab".utf8) + [0xC3, 0x28] + Array("\"]".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .encoding)
            #expect(error.line == 1 && error.column == 5)
        }
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(syntaxError(deep)?.kind == .tooLarge)
        #expect(throws: Never.self) { try JSONDocument.parse(Array(deep.utf8), maxDepth: 400) }
    }

    @Test("JSON pointers escape ~ and /")
    func pointers() throws {
        #expect(JSONPointer.appending("/a", "b/c~d") == "/a/b~1c~0d")
        #expect(JSONPointer.tokens("/a/b~1c~0d") == ["a", "b/c~d"])
        let document = try parse(#"{"b/c~d": [10, 20]}"#)
        #expect(document.value(at: "/b~1c~0d/1")?.integer == 20)
        #expect(document.value(at: "")?.members?.count == 1)
    }

    @Test("pointers written at once read as the concatenations they replaced")
    func pointersWrittenAtOnce() {
        let bases = ["", "/birds", "/birds/10/field_marks", "/reference_data/locations", "/é/ü", String(repeating: "/a", count: 40)]
        for base in bases {
            for index in [0, 7, 10, 99, 100, 12_345, Int.max, -1, Int.min] {
                #expect(JSONPointer.appending(base, index) == base + "/" + String(index))
            }
            for token in ["", "name", "validMonths", "a/b", "~", "日本語", "x~1y", String(repeating: "z", count: 30)] {
                let escaped = token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                #expect(JSONPointer.appending(base, token) == base + "/" + escaped)
                #expect(JSONPointer.joining(base, token) == base + "/" + token)
                #expect(SourceRef(base).field(token) == (token.isEmpty ? base : base + "/" + token))
            }
        }
    }

    @Test("edit distance is Levenshtein, bounded")
    func editDistance() {
        #expect(EditDistance.distance("Dessert", "Desert") == 1)
        #expect(EditDistance.distance("kitten", "sitting") == 3)
        #expect(EditDistance.distance("kitten", "sitting", limit: 2) == nil)
        #expect(EditDistance.distance("", "abc") == 3)
        #expect(EditDistance.distance("Pittidae", "Picidae") == 2)
    }
}
