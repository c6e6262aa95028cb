import FieldGuideCore
import FieldGuideCSV
@testable import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// `MasterFastPath` must write exactly what the general path writes for every row it accepts,
/// and accept no row the general path would warn about or reject.
@Suite("MASTER fast path")
struct MasterFastPathTests {
    /// The general path's CSV bytes for a row it keeps without a warning, else nil.
    func general(_ record: CSVRecord) -> [UInt8]? {
        guard case let .kept(registration, warnings) = FAANormalizer.registration(record, file: "MASTER.txt"),
              warnings.isEmpty else { return nil }
        var writer = CSVWriter()
        writer.write(NormalizedFAA.fields(registration))
        return writer.bytes
    }

    /// The fast path's bytes, or nil when it declines (having written nothing).
    func fast(_ record: CSVRecord) -> [UInt8]? {
        var writer = CSVWriter()
        guard MasterFastPath.normalize(record, into: &writer) != nil else {
            #expect(writer.bytes.isEmpty)
            return nil
        }
        return writer.bytes
    }

    /// Checks one line; returns whether the fast path took it.
    @discardableResult
    func check(_ line: String) throws -> Bool {
        let r = try record(line)
        let expected = general(r)
        guard let bytes = fast(r) else { return false }
        #expect(expected != nil, "fast path kept a row the general path refuses or warns about: \(line)")
        #expect(bytes == expected, "different bytes for \(line)")
        return true
    }

    func replacing(_ line: String, _ index: Int, with value: String) -> String {
        FAALine.replacing(line, index, with: value, layout: FAALayout.master)
    }

    @Test("fixture rows: taken by the fast path, same bytes as the general path")
    func fixtureRows() throws {
        let lines = try FAAFixtures.lines("MASTER.txt").dropFirst()
        var taken = 0
        for line in lines where try check(line) { taken += 1 }
        #expect(taken >= lines.count - 2)
    }

    @Test("every field's edge cases: the fast path matches or declines")
    func edgeCases() throws {
        let base = try #require(try FAAFixtures.lines("MASTER.txt").dropFirst().first)
        let variants: [Int: [String]] = [
            0: ["", "1", "12345", "1AB", "1ABC", "1I", "0A", "1A2", "  1A", "123456", "9ZZ"],
            1: ["", "A\"B", " X", "\tX", "X\t"],
            2: ["", "ABCDEFG", "AB CD"],
            3: ["", "12345"],
            4: ["", "0000", "0012", "19A0", " 1999", "1999"],
            5: ["", "1", "6", "9", "X"],
            6: ["", "O'BRIEN \"JR\"", "SMITH JOHN", "ÉCOLE", "PETERSEN\u{1B}[2JMA", "A\u{7F}B", "A\u{1}", "A\tB", "\u{8}"],
            11: ["", "123456789", "12345", "1234-5678", "12345678", " 123456789", "A1B 2C3"],
            12: ["", "C", "6", "Z"],
            15: ["", "20230231", "20240229", "2023011", " 20230101", "17991231", "\t20230101", "22010101"],
            16: ["", "20231301"],
            17: ["", " 1N", "1NU", "1X", "2", "2N", "3 0 7", "48A", "48D", "49E", "48", "4 8A", "6131", "6412", "5 1",
                 "8 6", "8 7", "9AG", "9X", "0", "\t1N", "1N\t", "7", "1 N U", "1\u{1B}", "\u{1B}N"],
            18: ["", "H", "O", "X"],
            19: ["", "10", "11", "12"],
            20: ["", "V", "29", "30", "B"],
            21: ["", "50000001", "5000000Z", "00000000", "+5000000"],
            22: ["", "Y", "N", "y"],
            23: ["", "20000229", "19000229"],
            24: ["", "A", "\"Q\"", "  B"],
            28: ["", "Z"],
            29: ["", "99999999"],
            33: ["", "A00001", "a00001", "A00002", "0000A00001", "FFFFFFF", "G", "1000000"],
        ]
        for (index, values) in variants {
            for value in values { try check(replacing(base, index, with: value)) }
        }
        // Mode S fields together: octal and hex agreeing, disagreeing, one blank.
        for (octal, hex) in [("", ""), ("50000001", "A00001"), ("50000001", ""), ("", "A00001"), ("50000001", "A00002"),
                             ("77777777", "FFFFFF"), ("00000000", "0")] {
            try check(replacing(replacing(base, 21, with: octal), 33, with: hex))
        }
        // Shapes: a missing or extra field, no trailing comma.
        try check(base + ",")
        try check(String(base.dropLast()))
        try check(base.components(separatedBy: ",").dropLast(2).joined(separator: ","))
    }

    @Test("real MASTER rows from ../shared: the fast path matches the general path")
    func realRows() throws {
        guard let directory = try FAAFixtures.sharedDirectory() else { return }
        let text = try String(contentsOfFile: directory + "/MASTER.txt", encoding: .utf8)
        var lines = text.replacingOccurrences(of: "\u{FEFF}", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
        lines.removeFirst()
        var taken = 0
        for line in lines.prefix(20_000) where try check(line) { taken += 1 }
        #expect(taken > 0)
    }
}

@Suite("MASTER fast path: dates")
struct MasterFastPathDateTests {
    /// The dashes and the last eight digits, one division a digit: the bytes `format` must write.
    func reference(_ date: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 10), n = date
        for position in stride(from: 9, through: 0, by: -1) {
            if position == 4 || position == 7 { bytes[position] = UInt8(ascii: "-"); continue }
            bytes[position] = UInt8(0x30 + n % 10)
            n /= 10
        }
        return bytes
    }

    /// What `date(_:)` must return, spelled out: trailing spaces trimmed, eight digits, a real date.
    func referenceDate(_ field: [UInt8]) -> Int? {
        var end = field.count
        while end > 0, field[end - 1] == 0x20 { end -= 1 }
        if end == 0 { return 0 }
        guard end == 8, field[0..<8].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let n = field[0..<8].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return FAADate(year: n / 10_000, month: n / 100 % 100, day: n % 100) == nil ? nil : n
    }

    @Test("date reads every YYYYMMDD of 1790-2210 and refuses every byte that is not a digit, in each position")
    func readsEveryDate() {
        var fields: [[UInt8]] = [[], Array("        ".utf8), Array("2024013".utf8), Array("202401311".utf8), Array("20240131  ".utf8)]
        for year in 1790...2210 { for month in 0...13 { for day in 0...32 { fields.append(Array(String(format: "%04d%02d%02d", year, month, day).utf8)) } } }
        for position in 0..<8 {
            for byte in 0...255 where !(0x30...0x39).contains(byte) {
                var field = Array("20240131".utf8)
                field[position] = UInt8(byte)
                fields.append(field)
            }
        }
        var mismatches: [String] = []
        for field in fields where field.withUnsafeBytes({ MasterFastPath.date($0) }) != referenceDate(field) {
            mismatches.append(String(decoding: field, as: UTF8.self))
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(Array("20240229".utf8).withUnsafeBytes { MasterFastPath.date($0) } == 20_240_229)
        #expect(Array("20230229".utf8).withUnsafeBytes { MasterFastPath.date($0) } == nil)
    }

    @Test("format writes YYYY-MM-DD for every date of 1900-2099, the eight-digit extremes and longer values, after other text")
    func formatsEveryDate() {
        var dates: [Int] = [1, 9, 10_000_101, 99_991_231, 99_999_999, 100_000_000, 123_456_789_012]
        for year in 1900...2099 { for month in 1...12 { for day in 1...31 { dates.append(year * 10_000 + month * 100 + day) } } }
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { scratch in
            for date in dates {
                var cursor = 3  // after other scratch text, unaligned
                let bytes = MasterFastPath.format(date, scratch: scratch, cursor: &cursor)
                #expect(Array(bytes) == reference(date) && cursor == 13, "\(date)")
            }
            var cursor = 5
            #expect(MasterFastPath.format(0, scratch: scratch, cursor: &cursor).isEmpty && cursor == 5)
        }
    }
}
