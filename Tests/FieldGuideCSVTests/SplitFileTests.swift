import FieldGuideCSV
import Foundation
import Testing
import TestSupport

@Suite("Split file")
struct SplitFileTests {
    /// A file holding `text`.
    func file(_ text: String) throws -> String {
        let path = try TestPaths.temporaryDirectory("split").appendingPathComponent("f.csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The bytes of `range` of the file, read through `read`.
    func contents(_ file: SplitFile, _ range: Range<Int>) throws -> String {
        var bytes: [UInt8] = []
        try file.read(range) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("the cut falls after the first line feed at or past the middle; the halves are whole lines")
    func middle() throws {
        let text = "header\na,1\nb,2\nc,3\nd,4\n"  // 23 bytes: the middle, 11, starts "b,2"
        let split = try #require(try SplitFile(path: file(text), name: "f.csv", minimumSize: 0))
        #expect(split.size == 23 && split.cut == 15)
        #expect(try contents(split, 0..<split.cut) == "header\na,1\nb,2\n")
        #expect(try contents(split, split.cut..<split.size) == "c,3\nd,4\n")
        #expect(try split.lineFeedsBeforeCut() == 3)
    }

    @Test("a cut asked for at an offset falls after the first line feed at or past it")
    func atOffset() throws {
        let path = try file("header\na,1\nb,2\nc,3\nd,4\n")
        #expect(try SplitFile(path: path, name: "f.csv", minimumSize: 0, cuttingAtOrAfter: 0)?.cut == 7)
        #expect(try SplitFile(path: path, name: "f.csv", minimumSize: 0, cuttingAtOrAfter: 6)?.cut == 7)
        #expect(try SplitFile(path: path, name: "f.csv", minimumSize: 0, cuttingAtOrAfter: 7)?.cut == 11)
        #expect(try SplitFile(path: path, name: "f.csv", minimumSize: 0, cuttingAtOrAfter: 15)?.cut == 19)
        // Past the last line boundary but the file's end: nothing to cut.
        #expect(try SplitFile(path: path, name: "f.csv", minimumSize: 0, cuttingAtOrAfter: 20) == nil)
        #expect(try SplitFile(path: path, name: "f.csv", minimumSize: 0, cuttingAtOrAfter: .max) == nil)
    }

    @Test("no split for a small file, one line, a missing file or a directory")
    func none() throws {
        let path = try file("header\na,1\nb,2\n")
        #expect(try SplitFile(path: path, name: "f.csv", minimumSize: 1_000) == nil)
        #expect(try SplitFile(path: file("only one line, no end"), name: "f.csv", minimumSize: 0) == nil)
        #expect(try SplitFile(path: file("only one line\n"), name: "f.csv", minimumSize: 0) == nil)
        #expect(try SplitFile(path: path + ".missing", name: "f.csv", minimumSize: 0) == nil)
        #expect(try SplitFile(path: TestPaths.temporaryDirectory("split").path, name: "d", minimumSize: 0) == nil)
    }

    @Test("a second parser from the cut numbers its lines as in the whole file")
    func secondParser() throws {
        let text = "h\n1\n2\n3\n4\n5\n6\n7\n"
        let split = try #require(try SplitFile(path: file(text), name: "f.csv", minimumSize: 0))
        let parser = try CSVParser(dialect: .unquoted, file: "f.csv", firstLine: try split.lineFeedsBeforeCut() + 1)
        var lines: [(Int, String)] = []
        try split.read(split.cut..<split.size) { chunk in try parser.parse(chunk) { lines.append(($0.line, $0[0])) } }
        try parser.finish { lines.append(($0.line, $0[0])) }
        #expect(!lines.isEmpty && lines.allSatisfy { line, field in field == "\(line - 1)" })
        #expect(lines.last?.0 == 8)
    }
}
