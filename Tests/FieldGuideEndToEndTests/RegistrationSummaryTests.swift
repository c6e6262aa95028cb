import FieldGuide
import FieldGuideArtifact
import FieldGuideCSV
import FieldGuideDiagnostics
import FieldGuideEmit
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// `RSMB` and `RBKT` (format 1.2): the registration summaries in bucket order and their
/// directory give exactly what `REGS`, `RKEY` and the pool give, an artifact without them
/// (1.0, or 1.1 whose `RSUM` and `RHSH` are no longer read) reads through `RKEY`, and crafted
/// ones give wrong text, not-found or a typed error, never a crash.
@Suite("Registration summaries and their bucket directory")
struct RegistrationSummaryTests {
    /// The artifact at `path` with both sections renamed to `tags` (by default ones no reader
    /// knows): an older file's reading.
    static func withoutSummaries(_ path: String, in directory: URL, tags: (String, String) = ("ZZZY", "ZZZZ")) throws -> String {
        let once = directory.appendingPathComponent("no-rsmb.fgb"), twice = directory.appendingPathComponent("no-summaries.fgb")
        try Data(try ArtifactSurgery.renamingSection(of: path, "RSMB", to: tags.0)).write(to: once)
        try Data(try ArtifactSurgery.renamingSection(of: once.path, "RBKT", to: tags.1)).write(to: twice)
        return twice.path
    }

    /// Every registration of `path`, looked up by N-number through the buckets and through the
    /// binary search of an artifact without the sections: the same record, field for field, and
    /// the summary's fields are the row's columns. Returns how many were compared.
    static func compareEveryRegistration(_ path: String, in directory: URL) throws -> Int {
        let bundle = try AircraftBundle(path: path)
        let plain = try AircraftBundle(path: try withoutSummaries(path, in: directory))
        #expect(bundle.summaries != nil && plain.summaries == nil)
        #expect(bundle.summaries?.buckets == RegistrationSummaryTable.bucketCount(forKeys: bundle.registrationCount))
        for row in 0..<bundle.registrationCount {
            let record = RegistrationRecord(bundle: bundle, row: row)
            func column(_ c: AircraftSchema.RegistrationColumn) -> String { bundle.string(bundle.registrations.value(row, c)) }
            #expect(record.nNumber == column(.nNumber) && record.serialNumber == column(.serialNumber) && record.modelCode == column(.modelCode))
            #expect(record.name == column(.name) && record.city == column(.city) && record.state == column(.state))
            let found = try #require(bundle.aircraft(registration: record.nNumber), "\(record.nNumber)")
            let old = try #require(plain.aircraft(registration: record.nNumber))
            #expect(found.info == old.info, "\(record.nNumber)")
            #expect(found.modeSHex == old.modeSHex && found.modeSHex == AircraftSchema.modeSHexText(bundle.registrations.value(row, .modeSHex)))
        }
        for missing in ["N99999", "N1", "N0", "NZZZZZ"] {
            #expect((bundle.aircraft(registration: missing) == nil) == (plain.aircraft(registration: missing) == nil), "\(missing)")
        }
        return bundle.registrationCount
    }

    @Test("input/faa: every registration through its bucket and its summary equals the 1.0 reading")
    func fixtures() throws {
        let directory = try TestPaths.temporaryDirectory("summaries")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        #expect(try AircraftBundle(path: path).formatVersion == "1.3")
        #expect(try Self.compareEveryRegistration(path, in: directory) == 20)
        let jet = try #require(try AircraftBundle(path: path).aircraft(registration: "n250jt"))
        #expect(jet.serialNumber == "BH9-0005" && jet.name == "NORTHWIND CHARTER CORP" && jet.city == "ANCHORAGE")
        #expect(jet.state == "AK" && jet.modelCode == "2100200" && jet.modeSHex == "A1B2C3")
        // A file whose summaries carry format 1.1's tags: not read, the lookup goes through RKEY.
        let older = try AircraftBundle(path: try Self.withoutSummaries(path, in: directory, tags: ("RSUM", "RHSH")))
        #expect(older.summaries == nil && older.aircraft(registration: "N250JT")?.info == jet.info)
    }

    @Test("the real MASTER sample: every registration through its bucket equals the 1.0 reading")
    func realSample() throws {
        guard let sources = try FAAFixtures.sharedDirectory() else { return }
        let directory = try TestPaths.temporaryDirectory("summaries-real")
        defer { try? FileManager.default.removeItem(at: directory); try? FileManager.default.removeItem(atPath: sources) }
        let path = try buildArtifact(from: sources, into: directory.path)
        #expect(try Self.compareEveryRegistration(path, in: directory) > 300)
    }

    @Test("a summary holds at most 255 bytes: the field that would pass that is read from the pool, later ones still fit")
    func longFields() throws {
        typealias F = NormalizedFAA.RegistrationField
        // Header 20 + serial 230 + name 5 = 255 exactly; the city, one byte more, is kept out. In
        // the second, a 300-byte name is kept out and the city after it fits.
        let serial = String(repeating: "S", count: 230), long = String(repeating: "É", count: 150)
        let rows = [("N1", serial, "SHORT", "ANCHORAGE"), ("N2", "7", long, "JUNEAU")]
        var builder = AircraftArtifactBuilder(models: AircraftBuilderTests.models, engines: AircraftBuilderTests.engines)
        for (index, (nNumber, serial, name, city)) in rows.enumerated() {
            var fields = [String](repeating: "", count: F.allCases.count)
            fields[F.nNumber.rawValue] = nNumber
            fields[F.serialNumber.rawValue] = serial
            fields[F.name.rawValue] = name
            fields[F.city.rawValue] = city
            try builder.addRegistration(CSVRecord(line: index + 2, index: index + 1, fields: fields))
        }
        let directory = try TestPaths.temporaryDirectory("summaries-long")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("aircraft.fgb").path
        try Data(builder.build().artifact.serialize()).write(to: URL(fileURLWithPath: path))
        let bundle = try AircraftBundle(path: path)
        let first = try #require(bundle.aircraft(registration: "N1")), second = try #require(bundle.aircraft(registration: "N2"))
        #expect(first.serialNumber == serial && first.name == "SHORT" && first.city == "ANCHORAGE" && first.modeSHex == nil)
        #expect(second.serialNumber == "7" && second.name == long && second.city == "JUNEAU")
        let summaries = try #require(bundle.summaries)
        let (one, two) = (summaries.start(0), summaries.start(1))
        #expect(summaries.field(.serialNumber, at: one)?.count == 230 && summaries.field(.name, at: one)?.count == 5)
        #expect(summaries.field(.city, at: one) == nil && summaries.field(.state, at: one)?.count == 0)
        #expect(summaries.field(.name, at: two) == nil && summaries.field(.city, at: two)?.count == 6)
    }

    @Test("one of the two sections without the other: opening is a typed error naming the missing one")
    func oneWithoutTheOther() throws {
        let directory = try TestPaths.temporaryDirectory("summaries-missing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        for (tag, other) in [("RSMB", "RBKT"), ("RBKT", "RSMB")] {
            try Data(try ArtifactSurgery.renamingSection(of: path, tag, to: "ZZZZ")).write(to: crafted)
            do {
                _ = try AircraftBundle(path: crafted.path)
                Issue.record("opened without \(tag)")
            } catch {
                #expect(error.kind == .corrupt && error.description.contains("section \(tag): missing, while \(other) is present"), "\(error)")
            }
        }
    }

    @Test("every word of RSMB and RBKT set to huge, mid and small values: wrong text or a typed error, never a crash")
    func craftedWords() throws {
        let directory = try TestPaths.temporaryDirectory("summaries-crafted")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let variants = try ArtifactSurgery.wordVariants(of: path, words: 10_000, values: [0xFFFF_FFF0, 0x00FF_FFFF, 0x0000_00FF, 1],
                                                        sections: ["RSMB", "RBKT"])
        #expect(Set(variants.map(\.section)) == ["RSMB", "RBKT"] && variants.count > 1_000)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        for variant in variants {
            try Data(variant.data).write(to: crafted)
            CraftedAircraftArtifactTests.exercise(try AircraftBundle(path: crafted.path, verification: .headerOnly))
            if let record = try AircraftBundle(path: crafted.path).aircraft(registration: "N250JT") {
                _ = (record.serialNumber, record.modelCode, record.name, record.city, record.state, record.modeSHex)
            }
        }
        // A directory that is not a whole number of words, or has no bucket before its end, is
        // refused (the fixture's 20 registrations have 2 buckets: 12 bytes).
        let file = try ArtifactFile(path: path)
        let index = try #require(file.sections.firstIndex { $0.tag == "RBKT" })
        #expect(file.sections[index].length == 12)
        for cut: UInt64 in [1, 8] {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let entry = ArtifactFormat.headerSize + index * ArtifactFormat.sectionEntrySize
            withUnsafeBytes(of: (file.sections[index].length - cut).littleEndian) { for i in 0..<8 { bytes[entry + 16 + i] = $0[i] } }
            ArtifactSurgery.reseal(&bytes, sectionIndex: index)
            try Data(bytes).write(to: crafted)
            #expect(throws: FieldGuideError.self, "\(cut) bytes cut") { try AircraftBundle(path: crafted.path) }
        }
    }

    @Test("Mode S text: six upper-case digits, zero-padded; more for a crafted wider value; none for the absent value")
    func modeSText() {
        #expect(AircraftSchema.modeSHexText(0xA1B2C3) == "A1B2C3")
        #expect(AircraftSchema.modeSHexText(0x1F) == "00001F")
        #expect(AircraftSchema.modeSHexText(0) == "000000")
        #expect(AircraftSchema.modeSHexText(0x1000000) == "1000000")
        #expect(AircraftSchema.modeSHexText(0xFFFF_FFFE) == "FFFFFFFE")
        #expect(AircraftSchema.modeSHexText(UInt32.max) == nil)
    }
}
