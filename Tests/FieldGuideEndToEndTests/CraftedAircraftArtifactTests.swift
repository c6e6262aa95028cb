import FieldGuide
import FieldGuideArtifact
import Foundation
import Testing
import TestSupport

/// The aircraft artifact under structure-aware mutation: every checksum valid, any word of a
/// section's first rows changed; opening and every query give a typed error or wrong text.
@Suite("Crafted aircraft artifacts: valid checksums, hostile structure")
struct CraftedAircraftArtifactTests {
    static func exercise(_ bundle: AircraftBundle) {
        for n in ["N90", "N250JT", "N4477", "1", "N99999"] {
            if let record = bundle.aircraft(registration: n) { _ = (record.info, bundle.enrichment(for: record)) }
        }
        for hex in ["A00C12", "AC6CD2", "000000", "FFFFFF"] { _ = bundle.aircraft(modeSHex: hex)?.info }
        for prefix in ["", "B", "CESS", "Z"] {
            for manufacturer in bundle.manufacturers(prefix: prefix, limit: 20) { _ = manufacturer.models.map(\.info) }
        }
        for code in ["2072738", "0020901", ""] { _ = bundle.model(code: code)?.info }
        for code in ["17020", "41514", ""] { _ = bundle.engine(code: code)?.code }
        for table in AircraftSchema.CodeTable.allCases { _ = bundle.codeTable(table) }
    }

    @Test("one word of each section's first rows set to huge and mid values: no crash in any query")
    func everySectionWord() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-aircraft")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let variants = try ArtifactSurgery.wordVariants(of: path, values: [0xFFFF_FFF0, 0x00FF_FFFF, 0x7FFF_FFFF])
        #expect(variants.count > 200)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        var opened = 0
        for variant in variants {
            try Data(variant.data).write(to: crafted)
            guard let bundle = try? AircraftBundle(path: crafted.path, verification: .full) else { continue }
            opened += 1
            Self.exercise(bundle)
        }
        #expect(opened * 2 > variants.count)
    }
}
