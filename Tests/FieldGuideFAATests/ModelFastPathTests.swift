import FieldGuideCore
import FieldGuideCSV
@testable import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// `ModelFastPath` must write exactly what the general path writes for every ACFTREF row it
/// accepts, with the same code, and accept no row the general path would warn about or reject.
@Suite("ACFTREF fast path")
struct ModelFastPathTests {
    /// The general path's code and CSV bytes for a row it keeps without a warning, else nil.
    func general(_ record: CSVRecord) -> (code: String, bytes: [UInt8])? {
        guard case let .kept(model, warnings) = FAANormalizer.model(record, file: "ACFTREF.txt"), warnings.isEmpty else { return nil }
        var writer = CSVWriter()
        writer.write(NormalizedFAA.fields(model))
        return (model.code, writer.bytes)
    }

    /// Checks one line; returns whether the fast path took it.
    @discardableResult
    func check(_ line: String) throws -> Bool {
        let r = try record(line)
        let expected = general(r)
        guard let code = ModelFastPath.code(r) else { return false }
        var writer = CSVWriter()
        ModelFastPath.write(r, into: &writer)
        #expect(expected != nil, "fast path kept a row the general path refuses or warns about: \(line)")
        #expect(code == expected?.code, "different code for \(line)")
        #expect(writer.bytes == expected?.bytes, "different bytes for \(line)")
        return true
    }

    func replacing(_ line: String, _ index: Int, with value: String) -> String {
        FAALine.replacing(line, index, with: value, layout: FAALayout.aircraftReference)
    }

    @Test("fixture rows: taken by the fast path, same bytes as the general path")
    func fixtureRows() throws {
        let lines = try FAAFixtures.lines("ACFTREF.txt").dropFirst()
        var taken = 0
        for line in lines where try check(line) { taken += 1 }
        #expect(taken >= lines.count - 2)
    }

    @Test("every field's edge cases: the fast path matches or declines")
    func edgeCases() throws {
        let base = try #require(try FAAFixtures.lines("ACFTREF.txt").dropFirst().first)
        let variants: [Int: [String]] = [
            0: ["", "1", "ABC DEF", " 12", "\t123", "1234567", "12345678"],
            1: ["", "A\"B", " X", "CESSNA, INC", "ÉCOLE", "X\t", "CES\u{1B}[2JNA", "A\u{7F}B", "A\u{1F}", "A\tB"],
            2: ["", "172S", "A\"B"],
            3: ["", "1", "4", "H", "X", "Z"],
            4: ["", "0", "1", "11", "99", "X"],
            5: ["", "1", "2", "3", "9"],
            6: ["", "0", "1", "2", "9"],
            7: ["", "0", "00", "01", "12", "1A", " 1"],
            8: ["", "0", "000", "004", "123", "12A", "-1"],
            9: ["", "CLASS 1", "CLASS 4", "CLASS 5", "CLASS", "CLASS ", "1", "2", "9", "X", "CLASS  2", "class 1"],
            10: ["", "0", "0000", "0120", "12X", "9999"],
            11: ["", "A00009CE", "\"Q\""],
            12: ["", "TEXTRON AVIATION INC", "O'BRIEN, \"JR\""],
        ]
        for (index, values) in variants {
            for value in values { try check(replacing(base, index, with: value)) }
        }
        // Shapes: a missing or extra field, no trailing comma.
        try check(base + ",")
        try check(String(base.dropLast()))
        try check(base.components(separatedBy: ",").dropLast(2).joined(separator: ","))
    }

    @Test("real ACFTREF rows from ../shared: the fast path matches the general path")
    func realRows() throws {
        guard let directory = try FAAFixtures.sharedDirectory() else { return }
        let text = try String(contentsOfFile: directory + "/ACFTREF.txt", encoding: .utf8)
        var lines = text.replacingOccurrences(of: "\u{FEFF}", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
        lines.removeFirst()
        var taken = 0
        for line in lines where try check(line) { taken += 1 }
        #expect(taken > 0)
    }
}
