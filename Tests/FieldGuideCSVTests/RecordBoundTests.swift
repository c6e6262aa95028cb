import FieldGuideCSV
import FieldGuideDiagnostics
import Foundation
import Testing

private func parse(_ bytes: [UInt8], _ dialect: CSVDialect, chunk: Int = 1 << 20) throws -> [CSVRecord] {
    try parseInChunks(bytes, dialect, chunk: chunk)
}

@Suite("CSV record bound: a record past the dialect's bound is refused as it passes it")
struct RecordBoundTests {
    static let small = CSVDialect(maxRecordBytes: 100)

    @Test("the bounds: 64 KiB for the FAA dialects, 1 MiB for the others")
    func bounds() {
        #expect(CSVDialect.fixedWidth.maxRecordBytes == 65_536 && CSVDialect.unquoted.maxRecordBytes == 65_536)
        #expect(CSVDialect.rfc4180.maxRecordBytes == 1 << 20 && CSVDialect.tabSeparated.maxRecordBytes == 1 << 20)
    }

    @Test("a record of exactly the bound reads; one byte more is .tooLarge at the line it starts on, at any chunk size")
    func exactBound() throws {
        for chunk in [1, 7, 1 << 20] {
            let fits = Array("a,b\n\(String(repeating: "x", count: 50)),\(String(repeating: "y", count: 50))\nc\n".utf8)
            #expect(try parse(fits, Self.small, chunk: chunk).count == 3)
            let over = Array("a,b\n\(String(repeating: "x", count: 50)),\(String(repeating: "y", count: 51))\nc\n".utf8)
            let error = #expect(throws: LocatedError.self) { try parse(over, Self.small, chunk: chunk) }
            #expect(error?.kind == .tooLarge && error?.line == 2)
            #expect(error?.description == "t.csv:2: expected a record of at most 100 bytes, found a longer one (no line breaks, or not this kind of file?); refused as it passed the bound")
        }
    }

    @Test("a quoted field running over many lines counts as one record, from the line it opens on")
    func quotedLines() throws {
        let text = "h\n\"" + String(repeating: "line\n", count: 30) + "\"\n"
        let error = #expect(throws: LocatedError.self) { try parse(Array(text.utf8), Self.small, chunk: 3) }
        #expect(error?.kind == .tooLarge && error?.line == 2)
    }

    @Test("a line without a line break is refused after the bound, not at the end of the file: 64 MiB in 64 KiB pieces")
    func longLine() throws {
        let parser = try CSVParser(dialect: .fixedWidth, file: "MASTER.txt")
        let piece = [UInt8](repeating: UInt8(ascii: "A"), count: 1 << 16)
        var fed = 0
        let error = #expect(throws: LocatedError.self) {
            for _ in 0..<1024 {
                try piece.withUnsafeBytes { try parser.parse($0) { _ in } }
                fed += piece.count
            }
        }
        #expect(error?.kind == .tooLarge && error?.line == 1)
        #expect(fed <= 2 << 16)   // refused within a piece of the bound
    }

    @Test("fixed width: a run of padding past the bound is refused, though the padding would be dropped")
    func paddingRun() throws {
        let dialect = CSVDialect(quote: nil, dropsTrailingPadding: true, maxRecordBytes: 100)
        #expect(try parse(Array(("a" + String(repeating: " ", count: 100) + ",b\n").utf8), dialect).map(\.fields) == [["a", "b"]])
        for tail in [",b\n", "b\n", ""] {
            let bytes = Array(("h\na" + String(repeating: " ", count: 101) + tail).utf8)
            let error = #expect(throws: LocatedError.self) { try parse(bytes, dialect, chunk: 5) }
            #expect(error?.kind == .tooLarge && error?.line == 2, "\(tail)")
        }
    }
}
