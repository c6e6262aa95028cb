import FieldGuideCSV
import Foundation
import Testing
import TestSupport

@Suite("CSV reader over libcsv")
struct CSVReaderTests {
    func parse(_ text: String, dialect: CSVDialect = .rfc4180, chunk: Int = 3) throws -> [CSVRecord] {
        let parser = try CSVParser(dialect: dialect, file: "t.csv")
        var records: [CSVRecord] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            try bytes[offset..<end].withUnsafeBytes { try parser.parse($0) { records.append($0) } }
            offset = end
        }
        try parser.finish { records.append($0) }
        return records
    }

    @Test("spaces are kept: libcsv's trimming is off")
    func keepsSpaces() throws {
        let records = try parse("  a ,\tb\t, c\n")
        #expect(records.map(\.fields) == [["  a ", "\tb\t", " c"]])
    }

    @Test("line numbers follow physical lines, across CRLF, blank lines and quoted newlines")
    func lineNumbers() throws {
        let records = try parse("h1,h2\r\n\r\nx,\"multi\nline\"\r\ny,z\r\nlast,row", chunk: 5)
        #expect(records.map(\.line) == [1, 3, 5, 6])
        #expect(records.map(\.index) == [0, 1, 2, 3])
        #expect(records[1][1] == "multi\nline")
        #expect(records[3].fields == ["last", "row"])
    }

    @Test("a UTF-8 byte order mark is skipped, and a trailing comma yields an empty last field")
    func bomAndTrailingComma() throws {
        let records = try parse("\u{FEFF}CODE,MFR,\r\n00401,A.C.E.    ,\r\n")
        #expect(records[0].fields == ["CODE", "MFR", ""])
        #expect(records[1].fields == ["00401", "A.C.E.    ", ""])
    }

    @Test("unquoted dialect keeps quotes as data, even at the start of a field")
    func unquotedDialect() throws {
        let records = try parse("\"S\" SPORT  ,BABY ACE \"D\",\n", dialect: .unquoted)
        #expect(records[0].fields == ["\"S\" SPORT  ", "BABY ACE \"D\"", ""])
    }

    @Test("RFC 4180 quoting: escaped quotes and delimiters inside quotes")
    func quoting() throws {
        let records = try parse("\"a,b\",\"say \"\"hi\"\"\",plain\n")
        #expect(records[0].fields == ["a,b", "say \"hi\"", "plain"])
    }

    @Test("an unterminated quote is a malformed-file error naming the line it opened on")
    func unterminatedQuote() throws {
        let error = #expect(throws: CSVError.self) { try parse("a,b\nc,\"never closed\nmore\n") }
        #expect(error?.kind == .malformed)
        #expect(error?.line == 2)
        #expect(error?.description.hasPrefix("t.csv:2:") == true)
    }

    @Test("a NUL byte in an unquoted file is refused with its line")
    func nulByte() throws {
        let error = #expect(throws: CSVError.self) { try parse("a,b\nc\u{0},d\n", dialect: .unquoted) }
        #expect(error?.line == 2)
    }

    @Test("a missing file is an I/O error")
    func missingFile() {
        let error = #expect(throws: CSVError.self) {
            try CSVReader.read(fileAt: "/nonexistent/file.csv") { _ in }
        }
        #expect(error?.kind == .io)
    }

    @Test("the writer quotes only what needs it, and reads back identically")
    func writerRoundTrip() throws {
        let rows = [["plain", "a,b", "say \"hi\"", " padded ", "line\nbreak", ""], ["x", "y", "z", "", "", "é"]]
        var writer = CSVWriter()
        for row in rows { writer.write(row) }
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.hasPrefix("plain,\"a,b\",\"say \"\"hi\"\"\",\" padded \",\"line\nbreak\",\n"))
        #expect(try parse(text, chunk: 7).map(\.fields) == rows)
    }

    @Test("real ENGINE.txt: every one of the 4,751 records plus header, 7 fields each")
    func realEngineFile() throws {
        guard let url = TestPaths.shared("faa/ENGINE.txt") else { return }
        var count = 0
        var widths = Set<Int>()
        var lastLine = 0
        try CSVReader.read(fileAt: url.path, dialect: .unquoted) { record in
            count += 1
            widths.insert(record.count)
            #expect(record.line == lastLine + 1)
            lastLine = record.line
        }
        #expect(count == 4_752)
        #expect(widths == [7])
    }
}

