import FieldGuideCSV
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

/// Parses `bytes` as `t.csv`, handing them to the parser `chunk` bytes at a time; every record.
func parseInChunks(_ bytes: [UInt8], _ dialect: CSVDialect, chunk: Int) throws -> [CSVRecord] {
    let parser = try CSVParser(dialect: dialect, file: "t.csv")
    var records: [CSVRecord] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + chunk, bytes.count)
        try bytes[offset..<end].withUnsafeBytes { try parser.parse($0) { records.append($0) } }
        offset = end
    }
    try parser.finish { records.append($0) }
    return records
}

@Suite("CSV reader over libcsv")
struct CSVReaderTests {
    func parse(_ text: String, dialect: CSVDialect = .rfc4180, chunk: Int = 3) throws -> [CSVRecord] {
        try parseInChunks(Array(text.utf8), dialect, chunk: chunk)
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

    @Test("a byte order mark split over the first chunks is skipped; the start of one that is not is data",
          arguments: [1, 2, 3])
    func splitByteOrderMark(chunk: Int) throws {
        #expect(try parse("\u{FEFF}a,b\n", chunk: chunk).map(\.fields) == [["a", "b"]])
        // U+FFFD is EF BF BD: it starts as a mark does (EF), then is not one.
        #expect(try parse("\u{FFFD}A,b", chunk: chunk).map(\.fields) == [["\u{FFFD}A", "b"]])
        #expect(try parse("\u{FEFF}", chunk: chunk).isEmpty)
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
        let error = #expect(throws: LocatedError.self) { try parse("a,b\nc,\"never closed\nmore\n") }
        #expect(error?.kind == .malformed)
        #expect(error?.line == 2)
        #expect(error?.description.hasPrefix("t.csv:2:") == true)
    }

    @Test("a NUL byte in an unquoted file is refused with its line")
    func nulByte() throws {
        let error = #expect(throws: LocatedError.self) { try parse("a,b\nc\u{0},d\n", dialect: .unquoted) }
        #expect(error?.line == 2)
    }

    @Test("a missing file is an I/O error")
    func missingFile() {
        let error = #expect(throws: LocatedError.self) {
            try CSVReader.read(fileAt: "/nonexistent/file.csv") { _ in }
        }
        #expect(error?.kind == .unreadable)
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

    @Test("the writer quotes a field for a delimiter, quote or line break at any position, and for nothing else")
    func writerQuotingPositions() throws {
        // Bytes either side of the writer's word test (`+` below the delimiter, `-` above), a
        // space and a tab (quoted only at either end), and a two-byte UTF-8 letter.
        // Lengths past 16 (two words) and 24 take the word loop and its overlapping last word.
        for length in [1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20, 23, 24, 25, 31, 33, 40] {
            for position in 0..<length {
                for special in ["", ",", "\"", "\n", "\r", "x", "+", "-", " ", "\t", "\u{7F}", "é"] {
                    var characters = Array(repeating: "a", count: length)
                    if !special.isEmpty { characters[position] = special }
                    let field = characters.joined()
                    var writer = CSVWriter()
                    writer.write([field])
                    let written = String(decoding: writer.bytes, as: UTF8.self)
                    let quoted = [",", "\"", "\n", "\r"].contains(special)
                        || ([" ", "\t"].contains(special) && (position == 0 || position == length - 1))
                    #expect(written.hasPrefix("\"") == quoted, "\(field.debugDescription)")
                    #expect(try parse(written, chunk: 5).map(\.fields) == [[field]])
                }
            }
        }
    }

    @Test("fields written one by one grow the buffer, drain and hand over the same bytes as whole records")
    func writerFieldByField() throws {
        let rows = (0..<2_000).map { i in [String(i), "N\(i)", i % 7 == 0 ? "a,\(i)" : "", String(repeating: "x", count: i % 40)] }
        var whole = CSVWriter()
        for row in rows { whole.write(row) }
        var fields = CSVWriter(), drained: [UInt8] = []
        for (i, row) in rows.enumerated() {
            for var field in row { field.withUTF8 { fields.writeField(UnsafeRawBufferPointer($0)) } }
            fields.endRecord()
            if i == 999 { fields.drain { drained += $0 } }
        }
        #expect(fields.count == whole.count - drained.count)
        #expect(drained + fields.takeBytes() == whole.bytes)
        #expect(fields.count == 0 && fields.bytes.isEmpty)
        #expect(try parse(String(decoding: whole.bytes, as: UTF8.self), chunk: 4_096).map(\.fields) == rows)
    }

    @Test("a writer with reserved room writes the same bytes, in place up to the room (never moved), and past it too")
    func writerReservedRoom() throws {
        let rows = (0..<60_000).map { i in [String(i), "N\(i)", i % 7 == 0 ? "a,\(i)" : "", String(repeating: "x", count: i % 90)] }
        var plain = CSVWriter(), reserved = CSVWriter()
        reserved.reserveCapacity(3 << 20)
        var start: UnsafeRawPointer?
        for (i, row) in rows.enumerated() {
            plain.write(row)
            reserved.write(row)
            if i == 0 { start = reserved.withBytes { $0.baseAddress } }
            // Up to the room the output stays where it started: growing it copied nothing.
            if i % 64 == 0, reserved.count + 200 < 3 << 20 { #expect(reserved.withBytes { $0.baseAddress } == start, "moved at row \(i)") }
        }
        #expect(reserved.count > 3 << 20, "the rows go past the room")
        #expect(reserved.bytes == plain.bytes)
    }

    @Test("integers, nil and empty fields written without strings: the bytes of the same record written as strings")
    func writerTypedFields() throws {
        let integers = [0, 7, -1, 42, 1_000_000, Int.max, Int.min, -90_210]
        let texts: [String?] = [nil, "", "N1", nil, "a,b", " padded ", "Grey Heron", "\u{C9}tienne"]
        for (integer, text) in zip(integers, texts) {
            var typed = CSVWriter(), strings = CSVWriter()
            typed.writeEmptyFields(2)
            typed.writeField(integer)
            typed.writeField(text)
            typed.writeEmptyFields(0)
            typed.writeEmptyFields(3)
            typed.writeField(text ?? "x")
            typed.endRecord()
            typed.writeEmptyFields(1)   // a record of one empty field
            typed.endRecord()
            strings.write(["", "", String(integer), text ?? "", "", "", "", text ?? "x"])
            strings.write([""])
            #expect(String(decoding: typed.bytes, as: UTF8.self) == String(decoding: strings.bytes, as: UTF8.self))
        }
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

    @Test("fixed-width dialect: trailing spaces go, leading and inner spaces and tabs stay, at any chunk size",
          arguments: [1, 2, 3, 5, 8, 9, 64, 4096])
    func dropsTrailingPadding(chunk: Int) throws {
        let text = "\u{FEFF}N-NUMBER,NAME          ,\r\n"
            + "90   ,BARKER KEITH N          ,   \r\n"
            + "  12 ,A                    B,\tX\t  ,\r\n"
            + "                ,\r\n"
            + "      \r\n"
            + "\"S\" SPORT   ,last field at the end          \n"
            + "   "
        let records = try parse(text, dialect: .fixedWidth, chunk: chunk)
        #expect(records.map(\.fields) == [
            ["N-NUMBER", "NAME", ""],
            ["90", "BARKER KEITH N", ""],
            ["  12", "A                    B", "\tX\t", ""],
            ["", ""],
            ["      "],  // a line of nothing but spaces stays a record
            ["\"S\" SPORT", "last field at the end"],
            ["   "],
        ])
        #expect(records.map(\.line) == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test("fixed-width dialect gives the unquoted dialect's records, each field's trailing spaces trimmed")
    func paddingEquivalence() throws {
        // Every mix of short and long runs, inner spaces and line ends, in several chunkings.
        let pieces = ["A", "BC D", " ", "        ", "         x", "\t", ",", ",", "\r\n", "\n", "\"", "É"]
        var text = ""
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<4_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text += pieces[Int(state >> 33) % pieces.count]
        }
        func trimmed(_ records: [CSVRecord]) -> [[String]] {
            records.map { $0.fields.map { String($0.reversed().drop { $0 == " " }.reversed()) } }
        }
        let plain = try parse(text, dialect: .unquoted, chunk: 4096)
        #expect(plain.count > 100)
        for chunk in [1, 7, 13, 4096] {
            let padded = try parse(text, dialect: .fixedWidth, chunk: chunk)
            #expect(trimmed(padded) == trimmed(plain), "chunk \(chunk)")
            #expect(padded.map(\.line) == plain.map(\.line), "chunk \(chunk)")
        }
    }

    @Test("dropping padding is refused for a quoted dialect")
    func paddingNeedsUnquoted() {
        var dialect = CSVDialect.rfc4180
        dialect.dropsTrailingPadding = true
        let error = #expect(throws: LocatedError.self) { try CSVParser(dialect: dialect, file: "t.csv") }
        #expect(error?.kind == .usage)
        #expect(error?.description == "t.csv: expected an unquoted dialect to drop trailing padding from, found one quoted with \"")
    }

    @Test("real FAA files: the fixed-width dialect reads every record as the unquoted one, trimmed",
          arguments: ["ACFTREF.sample.txt", "ENGINE.txt", "MASTER.sample.txt"])
    func realFilesPadding(name: String) throws {
        guard let url = TestPaths.shared("faa/" + name) else { return }
        func records(_ dialect: CSVDialect) throws -> [(line: Int, fields: [String])] {
            var all: [(Int, [String])] = []
            try CSVReader.read(fileAt: url.path, dialect: dialect, chunkSize: 4_093) { all.append(($0.line, $0.fields)) }
            return all
        }
        let plain = try records(.unquoted), padded = try records(.fixedWidth)
        #expect(padded.count == plain.count)
        #expect(padded.count > 1)
        for (a, b) in zip(padded, plain) {
            #expect(a.line == b.line)
            #expect(a.fields == b.fields.map { String($0.reversed().drop { $0 == " " }.reversed()) }, "line \(a.line)")
        }
    }
}
