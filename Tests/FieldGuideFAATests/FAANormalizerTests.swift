import FieldGuideCore
import FieldGuideCSV
@testable import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// One record parsed from a line, as the ingest sees it.
func record(_ line: String, lineNumber: Int = 2) throws -> CSVRecord {
    let parser = try CSVParser(dialect: .unquoted, file: "t")
    var records: [CSVRecord] = []
    try parser.parse(Array((line + "\r\n").utf8)) { records.append($0) }
    try parser.finish { records.append($0) }
    let r = try #require(records.first)
    return CSVRecord(line: lineNumber, index: 1, fields: r.fields)
}

/// A MASTER line from the fixtures with one field replaced (index into the layout).
func masterLine(_ n: String, replacing field: Int? = nil, with value: String = "") throws -> String {
    let line = try #require(try FAAFixtures.lines("MASTER.txt").first { $0.hasPrefix(n.padding(toLength: 5, withPad: " ", startingAt: 0) + ",") })
    guard let field else { return line }
    var fields = line.components(separatedBy: ",")
    fields[field] = value.padding(toLength: FAALayout.master[field].width, withPad: " ", startingAt: 0)
    return fields.joined(separator: ",")
}

func kept<R>(_ outcome: FAANormalizer.Outcome<R>) -> (R, [RowIssue])? {
    if case let .kept(r, warnings) = outcome { return (r, warnings) }
    return nil
}

func rejected<R>(_ outcome: FAANormalizer.Outcome<R>) -> [RowIssue] {
    if case let .rejected(issues) = outcome { return issues }
    return []
}

@Suite("FAA normalization")
struct FAANormalizerTests {
    @Test("a MASTER row: trimmed text, N-prefixed mark, ZIP+4, dates, codes, Mode S")
    func masterRow() throws {
        let (r, warnings) = try #require(kept(FAANormalizer.registration(try record(try masterLine("250JT")), file: "MASTER.txt")))
        #expect(warnings.isEmpty)
        #expect(r.nNumber == "N250JT")
        #expect(r.name == "NORTHWIND CHARTER CORP")
        #expect(r.zip == "99502-1111")
        #expect(r.certificateIssueDate?.description == "2019-08-30")
        #expect(r.registrantType == FAACode(raw: "8", name: "Non Citizen Corporation"))
        #expect(r.region?.name == "Alaskan")
        #expect(r.airworthiness.classification?.name == "Standard")
        #expect(r.airworthiness.operations.map(\.name) == ["Transport"])
        #expect(r.modeS == 0xA1B2C3 && r.modeSHex == "A1B2C3")
        #expect(r.fractionalOwner)
        #expect(r.otherNames.isEmpty)
    }

    @Test("airworthiness operation codes decode per class", arguments: [
        ("1NU", "Standard", ["Normal", "Utility"]),
        ("48A", "Experimental", ["Reg. Prior to 01/31/08"]),
        ("4 9A", "Experimental", ["Unmanned Aircraft - Research and Development"]),
        ("6131", "Multiple", ["Standard", "Restricted", "Agriculture and Pest Control"]),
        ("3145", "Restricted", ["Agriculture and Pest Control", "Forest", "Patrolling"]),
        ("5 1", "Provisional", ["Class I"]),
        ("8 15", "Special Flight Permit", ["Ferry flight for repairs, alterations, maintenance or storage", "Production flight testing"]),
        ("9W", "Light Sport", ["Weight-Shift-Control"]),
        ("2", "Limited", []),
    ])
    func airworthiness(certification: String, classification: String, operations: [String]) throws {
        let line = try masterLine("100A", replacing: 17, with: certification)
        let (r, warnings) = try #require(kept(FAANormalizer.registration(try record(line), file: "MASTER.txt")))
        #expect(warnings.isEmpty)
        #expect(r.airworthiness.certification == certification)
        #expect(r.airworthiness.classification?.name == classification)
        #expect(r.airworthiness.operations.compactMap(\.name) == operations)
    }

    @Test("an impossible date rejects the row, naming file, line, field and value")
    func badDate() throws {
        let issues = rejected(FAANormalizer.registration(try record(try masterLine("100A", replacing: 16, with: "20230231"), lineNumber: 7), file: "MASTER.txt"))
        #expect(issues.map(\.description) == ["MASTER.txt:7: rejected: CERT ISSUE DATE \"20230231\": expected a calendar date YYYYMMDD, found \"20230231\""])
    }

    @Test("leap days are real dates; blank dates are absent")
    func dates() throws {
        #expect(FAADate("20240229") != nil)
        #expect(FAADate("20230229") == nil)
        #expect(FAADate("2024-02-29")?.yyyymmdd == 20_240_229)
        let (r, _) = try #require(kept(FAANormalizer.registration(try record(try masterLine("2")), file: "M")))
        #expect(r.certificateIssueDate == nil && r.expirationDate == nil)
    }

    @Test("an unknown code is kept raw with a warning")
    func unknownCode() throws {
        let (r, warnings) = try #require(kept(FAANormalizer.registration(try record(try masterLine("100A", replacing: 5, with: "6")), file: "MASTER.txt")))
        #expect(r.registrantType == FAACode(raw: "6", name: nil))
        #expect(warnings.count == 1)
        #expect(warnings.first?.field == "TYPE REGISTRANT")
        #expect(warnings.first?.severity == .warning)
    }

    @Test("an unknown operation code is kept with a warning")
    func unknownOperation() throws {
        let (r, warnings) = try #require(kept(FAANormalizer.registration(try record(try masterLine("100A", replacing: 17, with: "1Z")), file: "M")))
        #expect(r.airworthiness.operations == [FAACode(raw: "Z", name: nil)])
        #expect(warnings.first?.reason.contains("unknown operation code Z") == true)
    }

    @Test("a control character in a field becomes U+FFFD with one warning naming it; the row is kept; tabs stay")
    func controlCharacters() throws {
        let line = try masterLine("100A", replacing: 6, with: "PETERSEN\u{1B}[2JMA\u{1B}T")
        let (r, warnings) = try #require(kept(FAANormalizer.registration(try record(line), file: "MASTER.txt")))
        #expect(r.name == "PETERSEN\u{FFFD}[2JMA\u{FFFD}T")
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(warning.field == "NAME" && warning.line == 2 && warning.value == "PETERSEN\u{FFFD}[2JMA\u{FFFD}T")
        #expect(warning.reason == "expected text, found the control character U+001B; replaced with U+FFFD")
        let del = try #require(kept(FAANormalizer.registration(try record(try masterLine("100A", replacing: 7, with: "1 MAIN\u{7F}ST")), file: "M")))
        #expect(del.0.street == "1 MAIN\u{FFFD}ST" && del.1.first?.reason.contains("U+007F") == true)
        let tab = try #require(kept(FAANormalizer.registration(try record(try masterLine("100A", replacing: 6, with: "A\tB")), file: "M")))
        #expect(tab.0.name == "A\tB" && tab.1.isEmpty)
        // CERTIFICATION is decoded byte by byte: its codes hold no control character either.
        let certification = try #require(kept(FAANormalizer.registration(try record(try masterLine("100A", replacing: 17, with: "1\u{1B}")), file: "M")))
        #expect(certification.0.airworthiness.certification == "1\u{FFFD}")
        #expect(certification.0.airworthiness.operations == [FAACode(raw: "\u{FFFD}", name: nil)])
        #expect(certification.1.map(\.field) == ["CERTIFICATION", "CERTIFICATION"], "\(certification.1)")
    }

    @Test("Mode S octal that disagrees with MODE S CODE HEX rejects the row")
    func modeSMismatch() throws {
        let issues = rejected(FAANormalizer.registration(try record(try masterLine("100A", replacing: 33, with: "A00002")), file: "M"))
        #expect(issues.count == 1)
        #expect(issues.first?.field == "MODE S CODE HEX")
        #expect(issues.first?.reason == "expected A00001 (MODE S CODE 50000001 in hex), found A00002")
    }

    @Test("a row with the wrong number of fields is rejected")
    func wrongFieldCount() throws {
        let line = try masterLine("100A")
        let issues = rejected(FAANormalizer.registration(try record(String(line.prefix(200))), file: "M"))
        #expect(issues.first?.field == "record")
        #expect(issues.first?.reason.hasPrefix("expected 34 fields and a trailing comma") == true)
    }

    @Test("a field wider than the layout is rejected (a shifted column)")
    func tooWide() throws {
        var fields = try masterLine("100A").components(separatedBy: ",")
        fields[10] = "MEX"
        let issues = rejected(FAANormalizer.registration(try record(fields.joined(separator: ",")), file: "M"))
        #expect(issues.first?.field == "STATE")
        #expect(issues.first?.reason == "expected at most 2 characters (FAA layout), found 3")
    }

    @Test("N-number marks follow the FAA's rules", arguments: [
        ("1", true), ("90", true), ("12345", true), ("1234Z", true), ("12AB", true), ("0123", false),
        ("12I", false), ("1A2", false), ("123ABC", false), ("A12", false),
    ])
    func marks(mark: String, valid: Bool) {
        #expect((FAANormalizer.markProblem(mark) == nil) == valid)
    }

    @Test("ACFTREF: CLASS weights, 0000 speed absent, a 6-character code padded with a space, quotes in names")
    func modelRow() throws {
        let lines = try FAAFixtures.lines("ACFTREF.txt")
        var models: [String: AircraftModel] = [:]
        for (i, line) in lines.dropFirst().enumerated() {
            let (m, warnings) = try #require(kept(FAANormalizer.model(try record(line, lineNumber: i + 2), file: "ACFTREF.txt")))
            #expect(warnings.isEmpty)
            models[m.code] = m
        }
        #expect(models["440001"]?.model == "DW-77")
        #expect(models["5500001"]?.model == "EG-15 \"S\" SPORT")
        #expect(models["5500002"]?.model == "\"WAVE\" SELF-LAUNCH")
        #expect(models["2100200"]?.weightClass == FAACode(raw: "3", name: "20,000 lbs and over"))
        #expect(models["1000205"]?.cruiseSpeedMPH == nil)
        #expect(models["1000101"]?.cruiseSpeedMPH == 118)
        #expect(models["1000102"]?.category?.name == "Amphibian")
        #expect(models["7700001"]?.engineType?.name == "Electric")
        #expect(models["7700001"]?.aircraftType?.name == "Hybrid Lift")
        #expect(models["9900001"]?.manufacturer == "IBIS \"BUD\" HOMEBUILT")
    }

    @Test("every code of the layout tables appears in the fixtures")
    func fixturesCoverCodes() throws {
        let models = try FAAFixtures.lines("ACFTREF.txt").dropFirst().map { $0.components(separatedBy: ",") }
        let masters = try FAAFixtures.lines("MASTER.txt").dropFirst().map { $0.components(separatedBy: ",") }
        let trim = { (s: String) in s.trimmingCharacters(in: .whitespaces) }
        #expect(Set(models.map { trim($0[3]) }) == Set(FAACodeTables.aircraftType.entries.map(\.code)))
        #expect(Set(models.map { trim($0[4]) }) == Set(FAACodeTables.engineType.entries.map(\.code)))
        #expect(Set(models.map { trim($0[5]) }) == Set(FAACodeTables.aircraftCategory.entries.map(\.code)))
        #expect(Set(models.map { trim($0[6]) }) == Set(FAACodeTables.builderCertification.entries.map(\.code)))
        #expect(Set(masters.map { trim($0[5]) }) == Set(FAACodeTables.registrantType.entries.map(\.code)))
        #expect(Set(masters.map { trim($0[12]) }) == Set(FAACodeTables.region.entries.map(\.code)))
        #expect(Set(masters.map { String(trim($0[17]).prefix(1)) }.filter { !$0.isEmpty }) == Set(FAACodeTables.airworthinessClass.entries.map(\.code)))
    }
}

@Suite("FAA code tables")
struct FAACodeTableTests {
    @Test("contains(bytes) is true exactly for a listed code's bytes: every 1- and 2-byte value of every table")
    func containsEveryByteValue() {
        for table in FAACodeTables.all {
            let listed = Set(table.entries.map { Array($0.code.utf8) })
            var candidates: [[UInt8]] = [[]] + (0...255).map { [UInt8($0)] }
            for first in 0...255 { for second in 0...255 { candidates.append([UInt8(first), UInt8(second)]) } }
            candidates.append(contentsOf: listed.map { $0 + [0x20] })  // a listed code and one byte more
            var mismatches: [[UInt8]] = []
            for bytes in candidates where bytes.withUnsafeBytes({ table.contains($0) }) != listed.contains(bytes) {
                mismatches.append(bytes)
            }
            #expect(mismatches.isEmpty, "\(table.id): \(mismatches.prefix(5))")
        }
    }
}
