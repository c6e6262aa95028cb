import FieldGuideCSV
import FieldGuideDiagnostics
import Testing

/// `CSVDialect.handOff` lets libcsv test for spaces itself, which trims the ends of unquoted
/// fields: exact only because `CSVWriter` quotes every field that starts or ends with a space
/// or a tab. These tests hold the writer and the dialect to that together.
@Suite("CSV hand-off dialect: libcsv's own space test over files CSVWriter wrote")
struct HandOffDialectTests {
    /// Every field of up to three bytes over the bytes that matter here.
    static let fields: [String] = {
        let alphabet = ["a", " ", "\t", ",", "\"", "é"]
        var fields = [""]
        var last = [""]
        for _ in 1...3 {
            last = last.flatMap { prefix in alphabet.map { prefix + $0 } }
            fields += last
        }
        return fields + ["  a b  ", "\ta\tb\t", " \"q\" ", "x,y ", "line\nbreak ", " \r\n "]
    }()

    func written(_ records: [[String]]) -> [UInt8] {
        var writer = CSVWriter()
        for record in records { writer.write(record) }
        return writer.bytes
    }

    @Test("every field of up to three bytes (spaces, tabs, commas, quotes, UTF-8), alone and between others, reads back exactly at any chunk size")
    func roundTrip() throws {
        // (A record of one empty field is an empty line, which is no record.)
        let records = Self.fields.filter { !$0.isEmpty }.map { [$0] } + Self.fields.map { ["x", $0, " \($0)"] }
        let bytes = written(records)
        for chunk in [1, 7, 4096] {
            let read = try parseInChunks(bytes, .handOff, chunk: chunk)
            #expect(read.map(\.fields) == records, "chunk \(chunk)")
            #expect(read.map(\.fields) == (try parseInChunks(bytes, .rfc4180, chunk: chunk)).map(\.fields))
        }
    }

    @Test("a file CSVWriter did not write loses the spaces at an unquoted field's ends: the dialect is for hand-offs only")
    func foreignFile() throws {
        let bytes = Array(" a ,\tb\t,\" c \"\n".utf8)
        #expect(try parseInChunks(bytes, .handOff, chunk: 3).map(\.fields) == [["a", "b", " c "]])
        #expect(try parseInChunks(bytes, .rfc4180, chunk: 3).map(\.fields) == [[" a ", "\tb\t", " c "]])
    }

    @Test("an unquoted dialect marked as CSVWriter's is refused: the writer always quotes")
    func unquotedRefused() {
        #expect(throws: LocatedError.self) { try CSVParser(dialect: CSVDialect(quote: nil, writtenByCSVWriter: true), file: "t.csv") }
    }
}
