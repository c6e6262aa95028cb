import FieldGuideCSV
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

/// A file read in two halves on two threads (`SplitFile.readHalves`) gives what one pass
/// gives: the same records with the same lines, the whole file's digest, the first error.
@Suite("Split file read in halves")
struct SplitReadTests {
    /// FNV-1a over the bytes, and their count: a digest that shows order and coverage.
    struct FNV: RunningDigest, Equatable {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var bytes = 0

        mutating func update(_ chunk: UnsafeRawBufferPointer) {
            for byte in chunk { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
            bytes += chunk.count
        }

        static func of(_ bytes: [UInt8]) -> FNV {
            var digest = FNV()
            bytes.withUnsafeBytes { digest.update($0) }
            return digest
        }
    }

    /// A record as compared: its line and fields (indexes restart in the second half).
    struct Row: Equatable, Sendable, CustomStringConvertible {
        var line: Int
        var fields: [String]
        var description: String { "\(line): \(fields)" }
    }

    struct Failure: Error, Equatable {
        var line: Int
    }

    func file(_ bytes: [UInt8]) throws -> String {
        let path = try TestPaths.temporaryDirectory("split-read").appendingPathComponent("f.txt").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The rows of one pass, the header (record 0) left out.
    func onePass(_ path: String, dialect: CSVDialect) throws -> [Row] {
        var rows: [Row] = []
        try CSVReader.read(fileAt: path, dialect: dialect, displayName: "f.txt") { record in
            if record.index > 0 { rows.append(Row(line: record.line, fields: record.fields)) }
        }
        return rows
    }

    /// The rows of both halves in file order, the header left out, and the digest.
    func halves(_ split: SplitFile, dialect: CSVDialect) throws -> (rows: [Row], digest: FNV) {
        var read = split.readHalves(dialect: dialect, hashing: FNV()) { half in
            var rows: [Row] = []
            try half.parse { record in
                if !(half.isFirst && record.index == 0) { rows.append(Row(line: record.line, fields: record.fields)) }
            }
            return rows
        }
        let rows = try read.takeOutputs()
        #expect(rows.count == 2)
        return (rows.flatMap { $0 }, try #require(read.digest).value())
    }

    /// FAA-style text: a byte order mark, CRLF line ends, space padding, a trailing comma, a
    /// blank line, and a last line without its line end.
    static let padded: [UInt8] = Array(("\u{FEFF}N-NUMBER,NAME     ,\r\n" + (1...12).map { "\($0)    ,OWNER \($0)   ,\r\n" }.joined()
            + "\r\n" + "99   ,LAST,").utf8)

    @Test("with the cut after every byte, the halves give the one-pass records, lines and digest (CRLF, padding, BOM)")
    func everyCut() throws {
        let path = try file(Self.padded)
        let expected = try onePass(path, dialect: .fixedWidth)
        #expect(expected.count == 13 && expected.last == Row(line: 15, fields: ["99", "LAST", ""]))
        var cuts = Set<Int>()
        for offset in 0..<Self.padded.count {
            guard let split = try SplitFile(path: path, name: "f.txt", minimumSize: 0, cuttingAtOrAfter: offset) else { continue }
            cuts.insert(split.cut)
            let read = try halves(split, dialect: .fixedWidth)
            #expect(read.rows == expected, "cut at \(split.cut)")
            #expect(read.digest == FNV.of(Self.padded))
        }
        // A cut after each line but the last (which has no line end).
        #expect(cuts.count == 14)
    }

    @Test("quoted CSV without line feeds in values: the halves give the one-pass records")
    func quoted() throws {
        let text = "a,b\n" + (1...40).map { "\"x, \($0)\",\"say \"\"\($0)\"\"\"\n" }.joined()
        let path = try file(Array(text.utf8))
        let expected = try onePass(path, dialect: .rfc4180)
        var cuts = Set<Int>()
        for offset in 0..<text.utf8.count {
            guard let split = try SplitFile(path: path, name: "f.txt", minimumSize: 0, cuttingAtOrAfter: offset) else { continue }
            cuts.insert(split.cut)
            #expect(try halves(split, dialect: .rfc4180).rows == expected, "cut at \(split.cut)")
        }
        #expect(expected.count == 40 && cuts.count == 40)
    }

    @Test("a file shorter than the threshold, or with nothing after its first line, is not split")
    func noSplit() throws {
        let path = try file(Self.padded)
        #expect(try SplitFile(path: path, name: "f.txt", minimumSize: Self.padded.count + 1) == nil)
        #expect(try SplitFile(path: path, name: "f.txt", minimumSize: Self.padded.count) != nil)
        #expect(try SplitFile(path: file(Array("header\r\n".utf8)), name: "f.txt", minimumSize: 0) == nil)
    }

    @Test("a body that fails in the second half: its error, after a complete first half and its digest")
    func failingSecondHalf() throws {
        let path = try file(Self.padded)
        let split = try #require(try SplitFile(path: path, name: "f.txt", minimumSize: 0))
        var read = split.readHalves(dialect: .fixedWidth, hashing: FNV()) { half in
            var lines: [Int] = []
            try half.parse { record in
                if !half.isFirst && record.line == 12 { throw Failure(line: record.line) }
                lines.append(record.line)
            }
            return lines
        }
        #expect(try read.outputs[0].get() == Array(1...(try split.lineFeedsBeforeCut())))
        let outputs = Result { try read.takeOutputs() }
        #expect(throws: Failure(line: 12)) { try outputs.get() }
        #expect(read.outputs.isEmpty)
        #expect(try read.digest?.value() == FNV.of(Self.padded))
    }

    @Test("bodies that fail in both halves: the first half's error, and no digest")
    func failingBothHalves() throws {
        let split = try #require(try SplitFile(path: file(Self.padded), name: "f.txt", minimumSize: 0))
        var read = split.readHalves(dialect: .fixedWidth, hashing: FNV()) { half in
            try half.parse { record in if record.line == 3 || record.line == 12 { throw Failure(line: record.line) } }
        }
        let outputs = Result { try read.takeOutputs() }
        #expect(throws: Failure(line: 3)) { try outputs.get() }
        #expect(read.digest == nil)
    }

    @Test("a malformed line in the second half is reported at its real line")
    func parseErrorLine() throws {
        var bytes = Self.padded
        bytes.insert(0, at: bytes.count - 3)  // a NUL on the last line, 15
        let split = try #require(try SplitFile(path: file(bytes), name: "f.txt", minimumSize: 0))
        var read = split.readHalves(dialect: .fixedWidth, hashing: FNV()) { half in try half.parse { _ in } }
        let outputs = Result { try read.takeOutputs() }
        let error = try #require(throws: LocatedError.self) { try outputs.get() }
        #expect(error.line == 15 && error.kind == .malformed)
    }
}
