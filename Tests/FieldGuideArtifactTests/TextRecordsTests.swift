import FieldGuideArtifact
import FieldGuideArtifactWriter
import Foundation
import Testing
import TestSupport

/// `TextRecords` and `TextRecordLinks` (format 1.3's `RTXR`, `MTXR`, `ETXR` and `RTXL`): what is
/// written reads back field for field, a field past 254 bytes is kept out, and crafted starts,
/// lengths and links give wrong text or a typed error from `verify`, never a read outside.
@Suite("Text records and their links")
struct TextRecordsTests {
    static let long = String(repeating: "É", count: 150)  // 300 bytes: kept out
    static let rows: [[String]] = [["123 MAIN ST", "", "ANCHORAGE", "É"], ["", "", "", ""], [long, "X", "A STREET NAME OF TWENTY-NINE", "Z"]]

    static func serialized(_ rows: [[String]]) -> [UInt8] {
        let bytes = rows.map { $0.map { Array($0.utf8) } }
        return TextRecords.serialize(rows: rows.count, fields: 4) { row, field in
            bytes[row][field].withUnsafeBytes { UnsafeRawBufferPointer(start: $0.baseAddress, count: $0.count) }
        }
    }

    /// Every field of `record`, nil where kept out.
    static func strings(_ record: TextRecord, fields: Int = 4) -> [String?] {
        var cursor = record.fields()
        return (0..<fields).map { _ in cursor.string() }
    }

    static func read(_ bytes: [UInt8], rows: Int = rows.count, verify: Bool = true, _ body: (TextRecords) throws -> Void) throws {
        try bytes.withUnsafeBytes { raw in
            let records = try TextRecords(raw, rows: rows, fields: 4, tag: FourCC("RTXR"), path: "test.fgb")
            if verify { try records.verify(path: "test.fgb") }
            try body(records)
        }
    }

    @Test("records read back field for field; the 300-byte field is kept out; a row outside reads empty")
    func roundTrip() throws {
        let bytes = Self.serialized(Self.rows)
        // The starts, then 4 lengths a record and its bytes: 26, 4 and 34 bytes.
        #expect(bytes.count == 4 * 4 + (4 + 22) + 4 + (4 + 1 + 28 + 1))
        try Self.read(bytes) { records in
            #expect(Self.strings(records.record(0)) == ["123 MAIN ST", "", "ANCHORAGE", "É"])
            #expect(Self.strings(records.record(1)) == ["", "", "", ""])
            #expect(Self.strings(records.record(2)) == [nil, "X", "A STREET NAME OF TWENTY-NINE", "Z"])
            for outside in [-1, 3, Int.max] { #expect(Self.strings(records.record(outside)) == ["", "", "", ""]) }
            for row in 0..<3 {
                let offset = try #require(records.offset(of: row))
                #expect(Self.strings(records.record(at: offset)) == Self.strings(records.record(row)))
            }
            #expect(records.offset(of: 3) == nil && Self.strings(records.record(at: .max)) == ["", "", "", ""])
            var cursor = records.record(0).fields()
            for _ in 0..<4 { _ = cursor.next() }
            #expect(cursor.next()?.count == 0)  // past the last field: empty
        }
    }

    @Test("the largest record: every field 254 bytes is kept in, 255 is kept out; serialized and spooled alike")
    func largestRecord() throws {
        let kept = String(repeating: "A", count: 254), out = String(repeating: "B", count: 255)
        let rows = [[kept, kept, kept, kept], [out, kept, "", out], [kept, kept, kept, kept]]
        let bytes = Self.serialized(rows)
        #expect(bytes.count == 4 * 4 + 2 * (4 + 4 * 254) + (4 + 254))
        try Self.read(bytes) { records in
            #expect(Self.strings(records.record(0)) == [kept, kept, kept, kept])
            #expect(Self.strings(records.record(1)) == [nil, kept, "", nil])
            #expect(Self.strings(records.record(2)) == [kept, kept, kept, kept])
        }
        // The spool's form writes the same section: an artifact holding it is byte for byte the
        // one holding the serialized bytes.
        let text = rows.map { $0.map { Array($0.utf8) } }
        let directory = try TestPaths.temporaryDirectory("text-records-spool")
        let spool = try SectionSpool(directory: directory.path)
        let spooled = TextRecords.spool(rows: rows.count, fields: 4, into: spool) { row, field in
            text[row][field].withUnsafeBytes { UnsafeRawBufferPointer(start: $0.baseAddress, count: $0.count) }
        }
        var fromSpool = ArtifactBuilder(kind: FourCC("TEST"), spool: spool), inMemory = ArtifactBuilder(kind: FourCC("TEST"), spool: nil)
        fromSpool.addSection(FourCC("RTXR"), rows: rows.count, spooled: spooled)
        inMemory.addSection(FourCC("RTXR"), rows: rows.count, bytes: bytes)
        let paths = ["spooled.fgb", "serialized.fgb"].map { directory.appendingPathComponent($0).path }
        try fromSpool.write(to: paths[0])
        try inMemory.write(to: paths[1])
        #expect(try Data(contentsOf: URL(fileURLWithPath: paths[0])) == Data(contentsOf: URL(fileURLWithPath: paths[1])))
    }

    @Test("crafted starts, lengths and bytes: verify names the record; reading them gives wrong text, never a crash")
    func crafted() throws {
        let good = Self.serialized(Self.rows)
        func word(_ bytes: inout [UInt8], _ index: Int, _ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { for i in 0..<4 { bytes[index * 4 + i] = $0[i] } }
        }
        var cases: [(String, [UInt8])] = []
        var pastData = good; word(&pastData, 1, 0xFFFF_FFF0); cases.append(("record 1 starts at 4294967280", pastData))
        var backwards = good; word(&backwards, 2, 1); cases.append(("record 2 starts at 1", backwards))
        var longField = good; longField[16] = 200; cases.append(("record 0 field 0 runs past", longField))
        var notUTF8 = good; notUTF8[16 + 4] = 0xFF; cases.append(("record 0 is not valid UTF-8 at byte 4", notUTF8))
        var split = good; split[16 + 24] = 0x80; cases.append(("record 0 field 3 starts inside a UTF-8 character", split))
        var extra = good; word(&extra, 2, 31); cases.append(("record 1 has 1 bytes after its fields", extra))
        var noLengths = good; word(&noLengths, 2, 28); cases.append(("record 1 holds 2 bytes, fewer than its 4 lengths", noLengths))
        for (reason, bytes) in cases {
            do {
                try Self.read(bytes) { _ in }
                Issue.record("verified: \(reason)")
            } catch {
                #expect("\(error)".contains(reason), "\(error)")
            }
            try Self.read(bytes, verify: false) { records in
                for row in -1...3 { _ = Self.strings(records.record(row)) }
                for offset: UInt32 in [0, 7, 60, .max] { _ = Self.strings(records.record(at: offset)) }
            }
        }
        #expect(throws: ArtifactError.self) { try Self.read(Array(good.prefix(15))) { _ in } }
    }

    @Test("links: 8 bytes a row, both read back; a row outside gives none; a section of another size is refused")
    func links() throws {
        var bytes = [UInt8]()
        for value: UInt32 in [7, .max, 0, 42] { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        try bytes.withUnsafeBytes { raw in
            let links = try TextRecordLinks(raw, rows: 2, tag: FourCC("RTXL"), path: "test.fgb")
            #expect(links[0] == (7, .max) && links[1] == (0, 42))
            #expect(links[2] == (.max, .max) && links[-1] == (.max, .max))
            #expect(throws: ArtifactError.self) { try TextRecordLinks(raw, rows: 3, tag: FourCC("RTXL"), path: "test.fgb") }
        }
    }
}
