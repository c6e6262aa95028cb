import FieldGuideCore
import FieldGuideCSV
@testable import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// `StatusFastPath` must write exactly what the general path (`FAAStatusNormalizer`) writes for
/// every DEREG and RESERVED row it accepts, and accept no row the general path would warn
/// about or reject.
@Suite("DEREG and RESERVED fast path")
struct StatusFastPathTests {
    /// The general path's CSV bytes for a row it keeps without a warning, else nil.
    func general(_ outcome: FAANormalizer.Outcome<[String]>) -> [UInt8]? {
        guard case let .kept(row, warnings) = outcome, warnings.isEmpty else { return nil }
        var writer = CSVWriter()
        writer.write(row)
        return writer.bytes
    }

    /// Checks one DEREG line; returns whether the fast path took it.
    @discardableResult
    func checkDeregistered(_ line: String) throws -> Bool {
        let r = try record(line)
        var writer = CSVWriter()
        guard StatusFastPath.deregistered(r, into: &writer) else {
            #expect(writer.bytes.isEmpty, "the fast path wrote a row it declined: \(line)")
            return false
        }
        let expected = general(FAAStatusNormalizer.deregistered(r, file: "DEREG.txt"))
        #expect(expected != nil, "fast path kept a row the general path refuses or warns about: \(line)")
        #expect(writer.bytes == expected, "different bytes for \(line)")
        return true
    }

    /// Checks one RESERVED line; returns whether the fast path took it.
    @discardableResult
    func checkReserved(_ line: String) throws -> Bool {
        let r = try record(line)
        guard let nNumber = StatusFastPath.reservedNNumber(r) else { return false }
        var writer = CSVWriter()
        StatusFastPath.writeReserved(r, into: &writer)
        let outcome = FAAStatusNormalizer.reserved(r, file: "RESERVED.txt")
        let expected = general(outcome)
        #expect(expected != nil, "fast path kept a row the general path refuses or warns about: \(line)")
        #expect(writer.bytes == expected, "different bytes for \(line)")
        if case let .kept(row, _) = outcome { #expect(row[0] == nNumber) }
        return true
    }

    @Test("fixture rows: taken by the fast path, same bytes as the general path")
    func fixtureRows() throws {
        let dereg = try Self.lines("DEREG.txt").dropFirst()
        let reserved = try Self.lines("RESERVED.txt").dropFirst()
        #expect(try dereg.filter { try checkDeregistered($0) }.count >= dereg.count - 1)
        #expect(try reserved.filter { try checkReserved($0) }.count >= reserved.count - 1)
    }

    @Test("DEREG: every field's edge cases, the fast path matches or declines")
    func deregisteredEdgeCases() throws {
        let base = try #require(try Self.lines("DEREG.txt").dropFirst().first)
        #expect(try checkDeregistered(base))
        let variants: [Int: [String]] = [
            0: ["", "1", "12345", "1AB", "1ABC", "1I", "0A", "1A2", "  1A", "123456"],
            1: ["", "A\"B", " X", "\tX", "X,"],
            3: ["", "1", "29", "99", "V"],
            4: ["", "O'BRIEN \"JR\"", "ÉCOLE", "O\u{1B}[2JBRIEN", "A\u{7F}B", "A\tB"],
            9: ["", "123456789", "12345", "1234-5678", " 123456789", "A1B 2C3"],
            11: ["", "0000", "0012", "19A0", " 1999"],
            13: ["", "C", "Z"],
            16: ["", "20230231", "20240229", "2023011", " 20230101"],
            17: ["", "17991231", "20231301"],
            18: ["", "50000001", "5000000Z", "+5000000"],
            19: ["", "1", "6", "X"],
            21: ["", "20000229", "19000229"],
            22: ["", "99999999"],
            27: ["", "672151400", "K1A 0B1"],
            30: ["", "A", "\"Q\"", "  B"],
            34: ["", "Z"],
            37: ["", "A00001", "a00001", "A00002", "FFFFFFF", "G"],
        ]
        for (index, values) in variants {
            for value in values { try checkDeregistered(replacing(base, index, with: value, layout: FAAStatusLayout.deregistered)) }
        }
        // Mode S fields together: octal and hex agreeing, disagreeing, one blank.
        for (octal, hex) in [("", ""), ("50000001", "A00001"), ("50000001", ""), ("", "A00001"), ("50000001", "A00002"), ("00000000", "0")] {
            try checkDeregistered(replacing(replacing(base, 18, with: octal, layout: FAAStatusLayout.deregistered), 37, with: hex,
                                            layout: FAAStatusLayout.deregistered))
        }
        try checkDeregistered(base + ",")
        try checkDeregistered(String(base.dropLast()))
    }

    @Test("RESERVED: every field's edge cases, the fast path matches or declines")
    func reservedEdgeCases() throws {
        let base = try #require(try Self.lines("RESERVED.txt").dropFirst().first)
        #expect(try checkReserved(base))
        let variants: [Int: [String]] = [
            0: ["", "1", "1AB", "1I", "0A"],
            1: ["", "A\"B", " X", "X\u{7}Y"],
            6: ["", "123456789", "12345", "K1A 0B1"],
            7: ["", "20230231", "20240229"],
            8: ["", "MF", "HD", "ZZ"],
            9: ["", "20271301"],
            10: ["", "1", "12AB", "0A", "1IO"],
            11: ["", "20270701", "2027070"],
        ]
        for (index, values) in variants {
            for value in values { try checkReserved(replacing(base, index, with: value, layout: FAAStatusLayout.reserved)) }
        }
        try checkReserved(String(base.dropLast()))
    }

    /// A fixture's lines: `input/faa/DEREG.txt` holds a Latin-1 row (the fast path declines it).
    static func lines(_ name: String) throws -> [String] {
        let text = try String(contentsOfFile: FAAFixtures.inputDirectory + "/" + name, encoding: .isoLatin1)
        return text.replacingOccurrences(of: "\u{00EF}\u{00BB}\u{00BF}", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    func replacing(_ line: String, _ index: Int, with value: String, layout: [FAAColumn]) -> String {
        FAALine.replacing(line, index, with: value, layout: layout)
    }
}
