import FieldGuideCSV
import Testing

/// `CSVRecord` keeps its field ends and bytes in one array (one allocation a record): every
/// field reads back as given, whatever the lengths and however the bytes fall across its words.
@Suite("CSV record storage")
struct CSVRecordTests {
    @Test("fields of every length read back through the subscript, withField and withUnsafeFields")
    func roundTrip() {
        let samples: [[String]] = [
            [], [""], ["", ""], ["A"], ["ABCDEFG", "H"], ["ABCDEFGH"], ["ABCDEFGHI", "", "J"],
            ["CÔTÉ AVIATION", "日本", "🐦"], (0..<40).map { String(repeating: "x", count: $0) },
            ["N1", String(repeating: "S", count: 230)] + Array(repeating: "", count: 30) + [String(repeating: "É", count: 150), "JUNEAU"],
        ]
        for fields in samples {
            let record = CSVRecord(line: 7, index: 3, fields: fields)
            #expect(record.count == fields.count && record.line == 7 && record.index == 3)
            #expect(record.fields == fields)
            for (i, field) in fields.enumerated() {
                #expect(record.withField(i) { Array($0) } == Array(field.utf8))
                #expect(record.isValidUTF8(i))
            }
            record.withUnsafeFields { unsafe in
                #expect(unsafe.count == fields.count)
                #expect(Array(unsafe.bytes) == Array(fields.joined().utf8))
                for (i, field) in fields.enumerated() { #expect(Array(unsafe[i]) == Array(field.utf8)) }
            }
        }
    }

    @Test("a field that is not UTF-8 reads as bytes and is reported as invalid")
    func invalidBytes() throws {
        var records: [CSVRecord] = []
        let bytes: [UInt8] = Array("OK,".utf8) + [0xC9, 0x54] + Array(",END\n".utf8)
        try bytes.withUnsafeBytes { raw in
            let parser = try CSVParser(dialect: .rfc4180, file: "latin1.csv")
            try parser.parse(raw) { records.append($0) }
            try parser.finish { records.append($0) }
        }
        let record = try #require(records.first)
        #expect(record.count == 3 && record.isValidUTF8(0) && !record.isValidUTF8(1))
        #expect(record.withField(1) { Array($0) } == [0xC9, 0x54] && record[2] == "END")
    }
}
