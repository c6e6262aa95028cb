import FieldGuideCSV
import FieldGuideDiagnostics
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

    @Test("both readers copy chunks into page-aligned buffers (the kernel's copy is slow into others)")
    func alignedChunks() throws {
        let text = String(repeating: "n1,abc\n", count: 400_000)  // 2.8 MB: three 1 MiB chunks
        let path = try file(text)
        let split = try #require(try SplitFile(path: path, name: "f.csv", minimumSize: 0))
        var starts: [Int] = []
        try split.read(split.cut..<split.size) { starts.append(Int(bitPattern: $0.baseAddress)) }
        try CSVReader.stream(fileAt: path) { starts.append(Int(bitPattern: $0.baseAddress)) }
        #expect(starts.count == 2 + 3)
        #expect(starts.allSatisfy { $0 % ReadBuffer.alignment == 0 }, "chunk starts mod 4096: \(starts.map { $0 % 4096 })")
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

    @Test("line feeds before the cut are counted exactly, among bytes one bit away from them, across chunks")
    func lineFeedCount() throws {
        // Bytes that differ from a line feed in one bit (0x0B, 0x08, 0x8A, 0x1A…), 0x00 and
        // 0xFF, in random runs: a word-at-a-time count must mark line feeds only. Over 2 MiB,
        // so the count crosses the reader's 1 MiB chunks; cuts at several offsets end the
        // counted stretch at every alignment.
        let alphabet: [UInt8] = [0x0A, 0x0B, 0x08, 0x0E, 0x02, 0x1A, 0x2A, 0x4A, 0x8A, 0x00, 0xFF, 0x80, 0x7F, 0x30]
        var state: UInt64 = 7  // a fixed linear congruential sequence: the same bytes every run
        var bytes = (0..<(2 << 20) + 37).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return alphabet[Int(state >> 33) % alphabet.count]
        }
        bytes[bytes.count - 1] = 0x30
        let path = try TestPaths.temporaryDirectory("split").appendingPathComponent("bytes.bin").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for offset in [0, 1, 5, 1 << 20, (1 << 20) + 3, bytes.count - 40] {
            let split = try #require(try SplitFile(path: path, name: "bytes.bin", minimumSize: 0, cuttingAtOrAfter: offset))
            #expect(try split.lineFeedsBeforeCut() == bytes[..<split.cut].filter { $0 == 0x0A }.count)
        }
    }

    @Test("a stretch of line feeds only is counted whole: the vector count's byte lanes never wrap")
    func lineFeedsOnly() throws {
        // 20,000 line feeds before the cut: a byte lane that took every match of its 64-byte
        // steps without being summed would wrap after 255. Several start alignments.
        for padding in [0, 1, 7, 63] {
            let text = String(repeating: "x", count: padding) + String(repeating: "\n", count: 20_000) + "y\nz\n"
            let split = try #require(try SplitFile(path: file(text), name: "f.csv", minimumSize: 0, cuttingAtOrAfter: padding + 20_000))
            #expect(split.cut == padding + 20_002)
            #expect(try split.lineFeedsBeforeCut() == 20_001)
        }
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
