import FieldGuideCSV
import FieldGuideDiagnostics
import Testing

/// `CSVDialect.written`: files `CSVWriter` wrote, read with libcsv's own space test left on.
@Suite("CSV dialect of written files (quoted edge spaces)")
struct WrittenDialectTests {
    /// Fields with spaces and tabs at either end, alone, doubled, beside quotes, delimiters and
    /// line breaks; every short and long length the writer's paths distinguish.
    static let fields: [String] = {
        var fields = ["", " ", "\t", "  ", " \t ", "\t\t", "a", " a", "a ", "\ta", "a\t", " a ", "\t a \t", "a b", "a  b",
                      " \"q\" ", "\" ", " \"", " , ", ",  ", "  ,", " \n ", "\r\n ", " é ", "é ", " é"]
        for length in [15, 16, 17, 24, 33] {
            let inner = String(repeating: "x", count: length)
            fields += [" " + inner, inner + " ", "\t" + inner + "\t", inner + " " + inner, "  " + inner + "  "]
        }
        return fields
    }()

    @Test("every field CSVWriter writes reads back identically, whole records and field by field, at any chunk size",
          arguments: [1, 2, 5, 64, 4_096])
    func roundTrip(chunk: Int) throws {
        // Each field alone, first, last and in the middle of a record (a record of one empty
        // field is an empty line, which CSV cannot tell from none).
        let rows = Self.fields.flatMap { ($0.isEmpty ? [] : [[$0]]) + [[$0, "z"], ["z", $0], ["y", $0, "z"]] }
        var whole = CSVWriter(), byField = CSVWriter()
        for row in rows {
            whole.write(row)
            for var field in row { field.withUTF8 { byField.writeField(UnsafeRawBufferPointer($0)) } }
            byField.endRecord()
        }
        #expect(whole.bytes == byField.bytes)
        let written = try parseInChunks(whole.bytes, .written, chunk: chunk)
        #expect(written.map(\.fields) == rows)
        #expect(try parseInChunks(whole.bytes, .rfc4180, chunk: chunk).map(\.fields) == rows)
        #expect(written.map(\.line) == (try parseInChunks(whole.bytes, .rfc4180, chunk: chunk)).map(\.line))
    }

    @Test("a file that breaks the promise loses the spaces at the ends of its unquoted fields, and only there")
    func brokenPromise() throws {
        let bytes = Array(" a ,\tb\t,\" c \",d e\n".utf8)
        #expect(try parseInChunks(bytes, .written, chunk: 3).map(\.fields) == [["a", "b", " c ", "d e"]])
        #expect(try parseInChunks(bytes, .rfc4180, chunk: 3).map(\.fields) == [[" a ", "\tb\t", " c ", "d e"]])
    }

    @Test("the promise is refused for an unquoted dialect, where a space at an end could not be quoted")
    func needsQuotes() {
        var dialect = CSVDialect.unquoted
        dialect.quotesEdgeSpaces = true
        let error = #expect(throws: LocatedError.self) { try CSVParser(dialect: dialect, file: "t.csv") }
        #expect(error?.kind == .usage)
        #expect(error?.description == "t.csv: expected a quoted dialect to promise quoted edge spaces, found an unquoted one")
    }
}
