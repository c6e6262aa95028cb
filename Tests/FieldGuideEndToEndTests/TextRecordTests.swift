import FieldGuide
import FieldGuideArtifact
import FieldGuideCSV
import FieldGuideEmit
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// `RTXR`, `MTXR`, `ETXR` and `RTXL` (format 1.3): `.info` through the text records gives
/// exactly what the pool gives, an artifact without them (1.2) reads through the pool, a field
/// longer than a record keeps comes from the pool, and crafted sections give wrong text or a
/// typed error, never a crash.
@Suite("Text records of registrations, models and engines")
struct TextRecordTests {
    static let tags = ["RTXR", "MTXR", "ETXR", "RTXL"]

    /// The artifact at `path` with the four sections renamed to tags no reader knows: a 1.2 file's reading.
    static func withoutTextRecords(_ path: String, in directory: URL) throws -> String {
        var current = path
        for (index, tag) in tags.enumerated() {
            let next = directory.appendingPathComponent("no-text-\(index).fgb")
            try Data(try ArtifactSurgery.renamingSection(of: current, tag, to: "ZZZ\(index)")).write(to: next)
            current = next.path
        }
        return current
    }

    /// Every registration's, model's and engine's `.info` through the records and through the
    /// pool: the same, field for field. Returns how many registrations were compared.
    static func compareEverything(_ path: String, in directory: URL) throws -> Int {
        let bundle = try AircraftBundle(path: path)
        let plain = try AircraftBundle(path: try withoutTextRecords(path, in: directory))
        #expect(bundle.textRecords != nil && plain.textRecords == nil)
        for row in 0..<bundle.registrationCount {
            let record = RegistrationRecord(bundle: bundle, row: row)
            let info = record.info, old = RegistrationRecord(bundle: plain, row: row).info
            #expect(info == old, "\(record.nNumber)")
            #expect(info.street == record.street && info.otherNames == record.otherNames && info.kitModel == record.kitModel)
            #expect(info.model?.manufacturer == record.model?.manufacturer && info.engine?.model == record.engine?.model)
        }
        for row in 0..<bundle.modelCount {
            let code = bundle.string(bundle.models.value(row, .code))
            #expect(bundle.model(code: code)?.info == plain.model(code: code)?.info, "\(code)")
        }
        for row in 0..<bundle.engineCount {
            let code = bundle.string(bundle.engines.value(row, .code))
            #expect(bundle.engine(code: code)?.info == plain.engine(code: code)?.info, "\(code)")
        }
        return bundle.registrationCount
    }

    @Test("input/faa: format 1.3; every registration's, model's and engine's .info equals the 1.2 reading")
    func fixtures() throws {
        let directory = try TestPaths.temporaryDirectory("text-records")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let bundle = try AircraftBundle(path: path)
        #expect(bundle.formatVersion == "1.3")
        #expect(try Self.compareEverything(path, in: directory) == 20)
        let jet = try #require(bundle.aircraft(registration: "N250JT")).info
        #expect(jet.model?.manufacturer == "BLUEHERON AIRCRAFT CO" && jet.model?.model == "BH-900 JET" && jet.engine?.model == "CJ-F7 FAN")
        #expect(jet.street == "2200 APRON BLVD" && jet.street2 == "HANGAR 4" && jet.zip == "99502-1111" && jet.certification == "1T")
    }

    @Test("the real MASTER sample: every .info through the records equals the 1.2 reading")
    func realSample() throws {
        guard let sources = try FAAFixtures.sharedDirectory() else { return }
        let directory = try TestPaths.temporaryDirectory("text-records-real")
        defer { try? FileManager.default.removeItem(at: directory); try? FileManager.default.removeItem(atPath: sources) }
        let path = try buildArtifact(from: sources, into: directory.path)
        #expect(try Self.compareEverything(path, in: directory) > 300)
    }

    @Test("a field past 254 bytes is kept out of its record and read from the pool; the fields after it come from the record")
    func longField() throws {
        typealias F = NormalizedFAA.RegistrationField
        let street = String(repeating: "É", count: 150), names = (1...5).map { String(repeating: "\($0)", count: 50) }
        var builder = AircraftArtifactBuilder(models: AircraftBuilderTests.models, engines: AircraftBuilderTests.engines)
        var fields = [String](repeating: "", count: F.allCases.count)
        fields[F.nNumber.rawValue] = "N1"
        fields[F.modelCode.rawValue] = "2072738"
        fields[F.street.rawValue] = street
        fields[F.zip.rawValue] = "995023811"
        fields[F.otherNames.rawValue] = names.joined(separator: "|")
        fields[F.kitModel.rawValue] = "KIT"
        try builder.addRegistration(CSVRecord(line: 2, index: 1, fields: fields))
        let directory = try TestPaths.temporaryDirectory("text-records-long")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("aircraft.fgb").path
        try Data(builder.build().artifact.serialize()).write(to: URL(fileURLWithPath: path))
        let bundle = try AircraftBundle(path: path)
        let info = try #require(bundle.aircraft(registration: "N1")).info
        #expect(info.street == street && info.zip == "995023811" && info.otherNames == names && info.kitModel == "KIT")
        #expect(info.model?.manufacturer == "CESSNA" && info.model?.model == "172S")
        let records = try #require(bundle.textRecords)
        var cursor = records.registrations.record(0).fields()
        #expect(cursor.string() == "" && cursor.string() == nil && cursor.string() == "" && cursor.string() == "995023811")
    }

    @Test("some of the four sections without the others: opening is a typed error naming a missing one")
    func someWithoutTheOthers() throws {
        let directory = try TestPaths.temporaryDirectory("text-records-missing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        for tag in Self.tags {
            try Data(try ArtifactSurgery.renamingSection(of: path, tag, to: "ZZZZ")).write(to: crafted)
            do {
                _ = try AircraftBundle(path: crafted.path)
                Issue.record("opened without \(tag)")
            } catch {
                #expect(error.kind == .corrupt && error.description.contains("section \(tag): missing, while"), "\(error)")
            }
        }
    }

    @Test("every word of the four sections set to huge, mid and small values: wrong text or a typed error, never a crash")
    func craftedWords() throws {
        let directory = try TestPaths.temporaryDirectory("text-records-crafted")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let variants = try ArtifactSurgery.wordVariants(of: path, words: 10_000, values: [0xFFFF_FFF0, 0x00FF_FFFF, 0x0000_00FF, 1],
                                                        sections: Set(Self.tags))
        #expect(Set(variants.map(\.section)) == Set(Self.tags) && variants.count > 500)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        var refused = 0
        for variant in variants {
            try Data(variant.data).write(to: crafted)
            CraftedAircraftArtifactTests.exercise(try AircraftBundle(path: crafted.path, verification: .headerOnly))
            do {
                CraftedAircraftArtifactTests.exercise(try AircraftBundle(path: crafted.path))
            } catch {
                #expect(error.kind == .corrupt, "\(error)")
                refused += 1
            }
        }
        #expect(refused > 0)
    }

    @Test("a link to another model's record: .full opening names the registration; .headerOnly reads that model's text")
    func wrongLink() throws {
        let directory = try TestPaths.temporaryDirectory("text-records-link")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let bundle = try AircraftBundle(path: path)
        let row = try #require((0..<bundle.registrationCount).first { bundle.registrations.value($0, .modelRow) == 0 })
        let other = try #require(bundle.textRecords?.models.offset(of: 1))
        let file = try ArtifactFile(path: path)
        let index = try #require(file.sections.firstIndex { $0.tag == "RTXL" })
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        withUnsafeBytes(of: other.littleEndian) { for i in 0..<4 { bytes[Int(file.sections[index].offset) + row * 8 + i] = $0[i] } }
        ArtifactSurgery.reseal(&bytes, sectionIndex: index)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        try Data(bytes).write(to: crafted)
        do {
            _ = try AircraftBundle(path: crafted.path)
            Issue.record("opened with a wrong link")
        } catch {
            #expect(error.description.contains("section RTXL: registration \(row) links to \(other)"), "\(error)")
        }
        let wrong = try AircraftBundle(path: crafted.path, verification: .headerOnly)
        let info = RegistrationRecord(bundle: wrong, row: row).info
        #expect(info.model?.code == ModelRecord(bundle: bundle, row: 1).code && info.model?.seatCount == ModelRecord(bundle: bundle, row: 0).seatCount)
    }
}
