import FieldGuide
import FieldGuideArtifact
import Foundation
import Testing
import TestSupport

/// Every row reference read from a file is checked: a birds artifact whose checksums are all
/// valid but whose words point anywhere gives a typed error or wrong text, never a crash. (A
/// crash here kills the test process, which is the failure.)
@Suite("Crafted birds artifacts: valid checksums, hostile structure")
struct CraftedBirdsArtifactTests {
    /// Every query the library offers, on whatever the bundle holds.
    static func exercise(_ birds: BirdsBundle) {
        for record in birds.allSpecies { _ = record.info }
        for region in birds.regionNames + ["Urban", "Fenland"] {
            for month in [1, 7] { _ = birds.occurrence(inRegion: region, month: month) }
            _ = birds.occurrence(inRegion: region, week: 20)
            _ = birds.presentSpecies(inRegion: region, month: 5).map(\.commonName)
            _ = birds.sampleSizes(region: region)
        }
        for name in ["Mallard", "house sparrow", "Haussperling", "a", ""] {
            for hit in birds.species(named: name) { _ = (hit.commonName, hit.taxon.names, hit.taxon.bird?.info) }
            _ = birds.seasons(of: name)
            _ = birds.frequencies(of: name, region: "Fenland")
        }
        _ = birds.barChartRegions
        _ = birds.shapeList
        _ = birds.observedSpecies().map(\.commonName)
        _ = try? birds.observedSpecies(near: (52.2, 0.12), radiusKm: 100)
        _ = try? birds.species(near: (52.2, 0.12), radiusKm: 100, week: 10).map(\.bird.commonName)
        _ = birds.identify(BirdIdentificationQuery(shape: "Anatidae", size: 3, location: "Fenland", month: 5)).map(\.bird.commonName)
    }

    @Test("one word of each section's first rows set to huge and mid values: no crash in any query")
    func everySectionWord() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-birds")
        defer { try? FileManager.default.removeItem(at: directory) }
        let built = try FixtureBirds.build(into: directory)
        let variants = try ArtifactSurgery.wordVariants(of: built.artifactPath, values: [0xFFFF_FFF0, 0x00FF_FFFF, 0x7FFF_FFFF])
        #expect(variants.count > 300)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        var opened = 0
        for variant in variants {
            try Data(variant.data).write(to: crafted)
            guard let birds = try? BirdsBundle(path: crafted.path, verification: .full) else { continue }
            opened += 1
            Self.exercise(birds)
        }
        // Most variants pass every checksum and open: the readers, not the checks, are tested.
        #expect(opened * 2 > variants.count)
    }

    @Test("TAXA's species row past SPEC (the reported crash): species --named answers, exit 0")
    func taxonSpeciesRowPastSpecies() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-taxa")
        defer { try? FileManager.default.removeItem(at: directory) }
        let built = try FixtureBirds.build(into: directory)
        let file = try ArtifactFile(path: built.artifactPath)
        let index = try #require(file.sections.firstIndex { $0.tag == BirdsSchema.Section.taxa.description })
        let section = file.sections[index]
        let layout = RowLayout<BirdsSchema.TaxonColumn>()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: built.artifactPath)))
        for row in 0..<Int(section.length) / layout.stride {
            let at = Int(section.offset) + row * layout.stride + layout.offsets[BirdsSchema.TaxonColumn.speciesRow.rawValue]
            withUnsafeBytes(of: UInt32(1_000_000).littleEndian) { for i in 0..<4 { bytes[at + i] = $0[i] } }
        }
        ArtifactSurgery.reseal(&bytes, sectionIndex: index)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        try Data(bytes).write(to: crafted)
        let birds = try BirdsBundle(path: crafted.path)
        #expect(!birds.species(named: "Mallard").isEmpty)
        #expect(birds.species(named: "Mallard").allSatisfy { $0.taxon.bird == nil })
        Self.exercise(birds)
        let run = try TestPaths.run("fieldguide", ["species", "--named", "Mallard", "--bundle", crafted.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Mallard"))
    }

    @Test("a string pool with a Latin-1 byte fails .full opening as not valid UTF-8; header-only still opens")
    func latin1InThePool() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-pool")
        defer { try? FileManager.default.removeItem(at: directory) }
        let built = try FixtureBirds.build(into: directory)
        let file = try ArtifactFile(path: built.artifactPath)
        let index = try #require(file.sections.firstIndex { $0.tag == BirdsSchema.Section.strings.description })
        let section = file.sections[index]
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: built.artifactPath)))
        let start = Int(section.offset), end = start + Int(section.length)
        let count = Int(bytes[start]) | Int(bytes[start + 1]) << 8 | Int(bytes[start + 2]) << 16
        let dataStart = start + 4 + (count + 1) * 4
        // The last "a" of the string data becomes É in Latin-1 (0xC9), as in "JON\xC9THON".
        let at = try #require((dataStart..<end).last { bytes[$0] == UInt8(ascii: "a") })
        bytes[at] = 0xC9
        ArtifactSurgery.reseal(&bytes, sectionIndex: index)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        try Data(bytes).write(to: crafted)
        #expect {
            try BirdsBundle(path: crafted.path, verification: .full)
        } throws: { error in
            (error as? FieldGuideError)?.kind == .corrupt && "\(error)".contains("STRS: not valid UTF-8 at byte")
        }
        Self.exercise(try BirdsBundle(path: crafted.path, verification: .headerOnly))
    }
}
