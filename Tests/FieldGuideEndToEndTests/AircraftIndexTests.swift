import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideEmit
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// The manufacturer index built from FAA sources (with or without MASTER), the ICAO types and
/// the Mode S table; returns its path.
func buildIndex(from sources: String, icaoTypes: String? = nil, modes: String? = nil, into out: String? = nil) throws -> String {
    let out = try out ?? TestPaths.temporaryDirectory("index").path
    _ = try FAAIngest().run(sources: try FAASources.locate(sources, requireMaster: false), outputDirectory: out + "/stage")
    return try AircraftIndexEmit.run(handOff: out + "/stage", outputDirectory: out, icaoTypes: icaoTypes, modes: modes, environment: [:]).artifactPath
}

/// input/aircraft: the invented ICAO types and Mode S table the nightly reads.
enum IndexFixtures {
    static var icaoTypes: String { TestPaths.input.appendingPathComponent("aircraft/icao-types.json").path }
    static var modes: String { TestPaths.input.appendingPathComponent("aircraft/modes-registrations.json").path }

    /// The index of input/: models, engines, ICAO types and the crosswalk.
    static func inputIndex() throws -> AircraftIndex {
        try AircraftIndex(path: try buildIndex(from: FAAFixtures.inputDirectory, icaoTypes: icaoTypes, modes: modes))
    }

    /// The index of the real samples in ../shared, or nil (with a note) when absent.
    static func realIndex() throws -> AircraftIndex? {
        guard let faa = try FAAFixtures.sharedDirectory(), let types = TestPaths.shared("aircraft/icao-types.json"),
              let modes = TestPaths.shared("aircraft/modes-registrations.json") else { return nil }
        return try AircraftIndex(path: try buildIndex(from: faa, icaoTypes: types.path, modes: modes.path))
    }
}

@Suite("Manufacturer index: lookups, crosswalk, opening")
struct AircraftIndexTests {
    @Test("input/: models by code, engines, types, manufacturers with their models, code names")
    func lookups() throws {
        let index = try IndexFixtures.inputIndex()
        #expect(index.modelCount == 20 && index.engineCount == 12 && index.typeCount == 12 && index.manufacturerCount == 9)
        let jet = try #require(index.model(code: " 2100200 "))
        #expect(jet.manufacturer == "BLUEHERON AIRCRAFT CO" && jet.model == "BH-900 JET")
        #expect(jet.aircraftType?.code == "5" && jet.aircraftType?.name == "Fixed wing multi engine")
        #expect(jet.engineCount == 2 && jet.seatCount == 50)
        #expect(index.model(code: "440001")?.model == "DW-77")            // a 6-character code
        #expect(index.model(code: "0000000") == nil)
        #expect(index.engine(code: "30302")?.model == "CJ-F7 FAN")
        let type = try #require(index.type(designator: "bh90"))
        #expect(type.name == "BLUEHERON BH-900 Jet" && type.description == "L2J" && type.wakeClass == "M")
        #expect(type.describedAs == "landplane, 2 engines, jet")
        #expect(index.manufacturers(prefix: "blue").map(\.name) == ["BLUEHERON AIRCRAFT CO"])
        #expect(index.manufacturers(prefix: "BLUEHERON AIRCRAFT CO").first?.models.map(\.code) == ["2100100", "2100200", "2100300"])
        #expect(index.manufacturers(prefix: "blue").first?.modelCount == 3)
        #expect(index.displayName(.aircraftType, "4") == "Fixed wing single engine")
        #expect(index.closestDesignators(to: "BH9") == ["BH90", "BH20", "BHXT"] || index.closestDesignators(to: "BH9").first == "BH90")
    }

    @Test("crosswalk: each model's majority designator among its registrations' Mode S addresses, with the counts")
    func crosswalk() throws {
        let index = try IndexFixtures.inputIndex()
        // N100A (A00001) and N101BZ (A00002) are the two Skylark models, each once, both AMSK.
        let skylark = try #require(index.type(designator: "AMSK")).models
        #expect(skylark.map(\.model.code) == ["1000101", "1000102"])
        #expect(skylark.allSatisfy { $0.registrations == 1 && $0.modelRegistrations == 1 })
        #expect(index.model(code: "2100200")?.designator?.type.designator == "BH90")
        // A Mode S entry with no designator (N9FT) and an address MASTER lacks (C01234) vote for nothing.
        #expect(index.model(code: "6600001")?.designator == nil)
        #expect(index.type(designator: "C172")?.models.isEmpty == true)
        #expect(index.crosswalkCount == 10)
    }

    @Test("the majority wins and a tie goes to the designator that sorts first; the counts are kept")
    func majority() throws {
        let stage = try TestPaths.temporaryDirectory("index-majority").path
        defer { try? FileManager.default.removeItem(atPath: stage) }
        _ = try FAAIngest().run(sources: try FAASources.locate(FAAFixtures.inputDirectory), outputDirectory: stage)
        let reference = try AircraftArtifactBuilder.ReferenceData(modelsFile: stage + "/models.csv", enginesFile: stage + "/engines.csv")
        var builder = AircraftIndexBuilder(reference: reference, types: try ICAOTypeTable(path: IndexFixtures.icaoTypes).all)
        func vote(_ code: String, _ designator: String) -> Bool {
            Array(code.utf8).withUnsafeBytes { builder.addRegistration(modelCode: $0, designator: designator) }
        }
        for designator in ["C25A", "BH90", "BH90"] { #expect(vote("2100200", designator)) }
        for designator in ["BHXT", "BH20"] { #expect(vote("2100100", designator)) }
        #expect(vote("2100300", "ZZZ9"))          // a designator the ICAO list lacks: a type row of its own
        #expect(!vote("9999999", "C172"))         // no such model: not counted
        let (artifact, counts) = try builder.build()
        try artifact.write(to: stage + "/aircraft-index.fgb")
        let index = try AircraftIndex(path: stage + "/aircraft-index.fgb")
        let jet = try #require(index.model(code: "2100200")?.designator)
        #expect(jet.type.designator == "BH90" && jet.registrations == 2 && jet.modelRegistrations == 3)
        let tie = try #require(index.model(code: "2100100")?.designator)
        #expect(tie.type.designator == "BH20" && tie.registrations == 1 && tie.modelRegistrations == 2)
        #expect(index.type(designator: "ZZZ9")?.name == "" && index.type(designator: "ZZZ9")?.models.first?.model.code == "2100300")
        #expect(counts["crosswalkRegistrations"] == 6 && counts["crosswalkModels"] == 3 && counts["types"] == 13)
    }

    @Test("a value past a text column's width is refused with a located error, not a crash")
    func overlongValue() throws {
        var model = AircraftModel(code: "1000101", manufacturer: "AEROMARINE WORKS", model: String(repeating: "X", count: 5_000))
        model.engineCount = 1
        let builder = AircraftIndexBuilder(reference: .init(models: [model], engines: []), types: [])
        do { _ = try builder.build(); Issue.record("built") } catch {
            #expect(error.kind == .tooLarge && error.description == "MNAM: a value too long for the index's text column (expected at most 4096 bytes; found 5000 bytes)")
        }
    }

    @Test("without MASTER: the same models, engines and types, no crosswalk; byte-identical for identical inputs")
    func withoutMaster() throws {
        let sources = try FAAFixtures.inputCopy(removing: ["MASTER.txt"])
        let a = try buildIndex(from: sources, icaoTypes: IndexFixtures.icaoTypes, modes: IndexFixtures.modes)
        let b = try buildIndex(from: sources, icaoTypes: IndexFixtures.icaoTypes, modes: IndexFixtures.modes)
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        let index = try AircraftIndex(path: a)
        #expect(index.modelCount == 20 && index.typeCount == 12 && index.crosswalkCount == 0)
        let manifest = try Manifest.read(from: (a as NSString).deletingLastPathComponent + "/manifest.json")
        #expect(manifest.artifact(named: "aircraft-index.fgb")?.sources.map(\.file) == ["ACFTREF.txt", "ENGINE.txt", "icao-types.json", "modes-registrations.json"])
    }

    @Test(".headerOnly opens without reading the sections; verify() finds a corrupt one later")
    func headerOnly() throws {
        let path = try buildIndex(from: FAAFixtures.inputDirectory, icaoTypes: IndexFixtures.icaoTypes)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let info = try #require(try ArtifactFile(path: path).info(AircraftIndexSchema.Section.modelNames))
        bytes[Int(info.offset)] ^= 0x20
        let corrupt = path + ".corrupt"
        try Data(bytes).write(to: URL(fileURLWithPath: corrupt))
        let index = try AircraftIndex(path: corrupt, verification: .headerOnly)
        #expect(index.modelCount == 20)
        #expect(throws: FieldGuideError.self) { try index.verify() }
        do { _ = try AircraftIndex(path: corrupt) } catch { #expect(error.kind == .corrupt && error.description.contains("section MNAM is corrupt")) }
        #expect(throws: FieldGuideError.self) { _ = try AircraftIndex(path: FAAFixtures.inputDirectory + "/ACFTREF.txt") }
    }
}
