import FieldGuide
import FieldGuideArtifact
import Foundation
import Testing
import TestSupport

/// The manufacturer index under structure-aware mutation: every checksum valid, any word of a
/// section's first rows changed (a row count, a width, a posting offset, a varint, a row
/// reference); opening and every query give a typed error or wrong text, never a crash.
@Suite("Crafted manufacturer indexes: valid checksums, hostile structure")
struct CraftedAircraftIndexTests {
    static func exercise(_ index: AircraftIndex) {
        for text in ["Skylark 2", "BH-900 jet", "Aeromarin", "blu", "800", "2100200", "zz", "Boeng 737-800 x"] {
            for result in (try? index.search(text, limit: 5)) ?? [] { _ = result.title }
        }
        for code in ["2100200", "1000101", "", "9999999"] {
            if let model = index.model(code: code) { _ = (model.info, model.designator?.type.info, model.manufacturerRecord.models.count) }
        }
        for designator in ["BH90", "AMSK", "ZZZZ", ""] {
            if let type = index.type(designator: designator) { _ = (type.info, type.models.map(\.model.code)) }
        }
        _ = index.closestDesignators(to: "BH9")
        for prefix in ["", "B", "CRANE"] { _ = index.manufacturers(prefix: prefix, limit: 5).map { ($0.name, $0.models.count) } }
        _ = index.engine(code: "30302")?.info
        _ = index.match(designator: "BH90", manufacturer: "Blueheron", model: "BH-900 Jet")
        _ = index.displayName(.engineType, "5")
        for row in [0, 5, index.modelCount - 1] { _ = index.model(at: row)?.info }
    }

    @Test("one word of each section's first rows set to huge and mid values: no crash in any query")
    func everySectionWord() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-index")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildIndex(from: FAAFixtures.inputDirectory, icaoTypes: IndexFixtures.icaoTypes, modes: IndexFixtures.modes, into: directory.path)
        let variants = try ArtifactSurgery.wordVariants(of: path, values: [0xFFFF_FFF0, 0x00FF_FFFF, 0x7FFF_FFFF, 0x0000_0001])
        #expect(variants.count > 300)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        var opened = 0
        for variant in variants {
            try Data(variant.data).write(to: crafted)
            for mode in [ArtifactFile.Verification.full, .headerOnly] {
                guard let index = try? AircraftIndex(path: crafted.path, verification: mode) else { continue }
                opened += 1
                Self.exercise(index)
            }
        }
        #expect(opened > variants.count)
    }

    @Test("a section whose size does not fit its rows is a typed error naming it")
    func wrongSizes() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-index-sizes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildIndex(from: FAAFixtures.inputDirectory, icaoTypes: IndexFixtures.icaoTypes, into: directory.path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try ArtifactFile(path: path)
        let index = try #require(file.sections.firstIndex { $0.tag == "MNAM" })
        // The section table says MNAM has 21 rows, one more than MCOD.
        let entry = ArtifactFormat.headerSize + index * ArtifactFormat.sectionEntrySize
        bytes[entry + 24] = 21
        ArtifactSurgery.reseal(&bytes, sectionIndex: index)
        let crafted = directory.appendingPathComponent("crafted.fgb").path
        try Data(bytes).write(to: URL(fileURLWithPath: crafted))
        do { _ = try AircraftIndex(path: crafted); Issue.record("opened") } catch {
            #expect(error.kind == .corrupt && error.description.contains("section MNAM"), "\(error)")
        }
    }
}
