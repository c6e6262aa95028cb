import FieldGuideCore
import FieldGuideDiagnostics
@testable import FieldGuideFAA
import Foundation
import Testing
import TestSupport

@Suite("ICAO type and Mode S tables; reference data without MASTER")
struct AircraftReferenceTablesTests {
    func write(_ text: String) throws -> String {
        let path = try TestPaths.temporaryDirectory("tables").appendingPathComponent("table.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the real Mode S table: every address read, those with a designator kept, in one pass")
    func realModeS() throws {
        guard let url = TestPaths.shared("aircraft/modes-registrations.json") else { return }
        let table = try ModeSTypeTable(path: url.path)
        #expect(table.source.rows.read == 446_783)
        #expect(table.source.rows.kept == 446_783 - 17_520)      // 17,520 have no designator
        #expect(table.designator(address: 0x004002) == "B732")
        #expect(table.designator(address: 0xFFFFFF) == nil)
        #expect(table.source.file == "modes-registrations.json" && table.source.sha256.count == 64)
    }

    @Test("JSON escapes, white space and a fourth value are read; an empty designator is kept out")
    func shapes() throws {
        let path = try write("{\n  \"a1b2c3\" : [ \"N\\u00e9\\\"1\" , \"C25A\", \"00\", \"\" ],\r\n\t\"A00001\":[\"N1\",\"\",\"00\"]\n}\n")
        let table = try ModeSTypeTable(path: path)
        #expect(table.designator(address: 0xA1B2C3) == "C25A" && table.designator(address: 0xA00001) == nil)
        #expect(table.source.rows == .init(read: 2, kept: 1))
        let types = try ICAOTypeTable(path: try write(#"{"B738":["BOEING 737-800","L2J","M"],"C172":["CESSNA 172 \u0053kyhawk","L1P","L"]}"#))
        #expect(types["c172"]?.name == "CESSNA 172 Skyhawk" && types.all.map(\.designator) == ["B738", "C172"])
    }

    @Test("bounds: a string past 1,024 bytes, an array past 64 values are refused where they are")
    func bounds() throws {
        let long = try write("{\"A1B2C3\": [\"" + String(repeating: "x", count: 2_000) + "\"]}")
        #expect(throws: LocatedError.self) { _ = try ModeSTypeTable(path: long) }
        do { _ = try ModeSTypeTable(path: long) } catch { #expect(error.kind == .tooLarge && error.line == 1) }
        let many = try write("{\"A1B2C3\": [" + Array(repeating: "\"x\"", count: 65).joined(separator: ",") + "]}")
        do { _ = try ModeSTypeTable(path: many) } catch { #expect(error.kind == .tooLarge) }
    }

    @Test("ingest without MASTER: reference data only when allowed; still an error by default")
    func withoutMaster() throws {
        let sources = try FAAFixtures.inputCopy(removing: ["MASTER.txt"])
        #expect(throws: LocatedError.self) { _ = try FAASources.locate(sources) }
        let located = try FAASources.locate(sources, requireMaster: false)
        #expect(located.master.isEmpty)
        let out = try TestPaths.temporaryDirectory("reference-only").path
        // A registrations.csv an earlier run left is removed: the report no longer lists it.
        try Data("stale".utf8).write(to: URL(fileURLWithPath: out + "/registrations.csv"))
        let report = try FAAIngest().run(sources: located, outputDirectory: out)
        #expect(report.status == .ok && report.outputs.map(\.file).sorted() == ["engines.csv", "models.csv"])
        #expect(report.sources.map(\.file) == ["ACFTREF.txt", "ENGINE.txt"])
        #expect(!FileManager.default.fileExists(atPath: out + "/registrations.csv"))
    }
}
