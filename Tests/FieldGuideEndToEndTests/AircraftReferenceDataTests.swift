import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideCSV
import FieldGuideDiagnostics
import FieldGuideFAA
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// The reference data read from the hand-off's bytes (`ReferenceData(modelsFile:enginesFile:)`,
/// what emit-aircraft uses) is the reference data read as `AircraftModel`s and `EngineModel`s:
/// the same artifact, byte for byte, and the same errors.
@Suite("Aircraft reference data from the hand-off's bytes")
struct AircraftReferenceDataTests {
    /// The hand-off of `sources`, in a fresh directory.
    func handOff(_ sources: String) throws -> String {
        let out = try TestPaths.temporaryDirectory("reference").path + "/stage"
        _ = try FAAIngest().run(sources: try FAASources.locate(sources), outputDirectory: out)
        return out
    }

    /// The artifact of the hand-off's registrations with `reference` as its reference data.
    func artifact(_ stage: String, _ reference: AircraftArtifactBuilder.ReferenceData) throws -> [UInt8] {
        var builder = AircraftArtifactBuilder()
        try NormalizedFAA.readRegistrationRecords(stage + "/" + NormalizedFAA.registrationsFile) { try builder.addRegistration($0) }
        builder.add(reference)
        return try builder.build().artifact.serialize()
    }

    /// Checks that both readings of the hand-off's reference files give the same artifact.
    func checkSameArtifact(_ stage: String) throws {
        let models = stage + "/" + NormalizedFAA.modelsFile, engines = stage + "/" + NormalizedFAA.enginesFile
        let fromBytes = try AircraftArtifactBuilder.ReferenceData(modelsFile: models, enginesFile: engines)
        let fromRecords = AircraftArtifactBuilder.ReferenceData(models: try NormalizedFAA.readModels(models),
                                                                engines: try NormalizedFAA.readEngines(engines))
        #expect(try artifact(stage, fromBytes) == artifact(stage, fromRecords))
    }

    /// Appends CSV rows to a hand-off file.
    func append(_ rows: [[String]], to path: String) throws {
        var writer = CSVWriter()
        for row in rows { writer.write(row) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(writer.bytes))
        try handle.close()
    }

    @Test("the fixtures' hand-off: the same artifact either way")
    func fixtures() throws {
        try checkSameArtifact(try handOff(FAAFixtures.inputDirectory))
    }

    @Test("the real ../shared files' hand-off: the same artifact either way")
    func shared() throws {
        guard let directory = try FAAFixtures.sharedDirectory() else {
            print("note: skipping the shared FAA reference data check: ../shared/data/faa is absent")
            return
        }
        try checkSameArtifact(try handOff(directory))
    }

    @Test("rows out of code order, a repeated code, manufacturers equal only under normalization, an empty one, odd numbers")
    func oddRows() throws {
        let stage = try handOff(FAAFixtures.inputDirectory)
        // Models after the fixtures' last code, some before it; "CAFÉ" composed and decomposed
        // are two manufacturers; numbers with zeros, signs, letters, and too many digits.
        try append([
            ["0000001", "CAFÉ AERO", "C-1", "4", "1", "1", "0", "001", "0004", "1", "0099", "", ""],
            ["0000001", "CAFE\u{301} AERO", "C-1 DUP", "", "", "", "", "+2", "abc", "", "", "", ""],
            ["0000000", "", "NAMELESS", "9", "Z", "", "", "", "99999999999999999999", "CLASS 9", "", "", ""],
            ["00000001", "cafÉ aero", "LONGER CODE", "4", "1", "1", "0", "1", "4", "1", "1", "T1", "H1"],
        ], to: stage + "/" + NormalizedFAA.modelsFile)
        try append([["00001", "NEW ENGINE CO", "E-1", "1", "0150", "x"], ["00000", "SAME CODE", "E-0", "", "", ""]],
                   to: stage + "/" + NormalizedFAA.enginesFile)
        try checkSameArtifact(stage)
        let models = try AircraftArtifactBuilder.ReferenceData(modelsFile: stage + "/" + NormalizedFAA.modelsFile,
                                                               enginesFile: stage + "/" + NormalizedFAA.enginesFile)
        var builder = AircraftArtifactBuilder()
        builder.add(models)
        let (artifact, counts) = builder.build()
        // Models in code order, byte-wise ("00000001" before "0000001"); equal codes in file order.
        let path = try TestPaths.temporaryDirectory("reference-odd").appendingPathComponent("a.fgb").path
        try artifact.write(to: path)
        let file = try ArtifactFile(path: path)
        let strings = try StringPool(file.section(AircraftSchema.Section.strings), path: path)
        let table = try RowTable<AircraftSchema.ModelColumn>(file.section(AircraftSchema.Section.models), layout: .init(),
                                                             tag: AircraftSchema.Section.models, path: path)
        let rows = (0..<table.count).map { (strings.string(table.value($0, .code)), strings.string(table.value($0, .model))) }
        #expect(Array(rows.prefix(4).map(\.1)) == ["NAMELESS", "LONGER CODE", "C-1", "C-1 DUP"])
        #expect(zip(rows, rows.dropFirst()).allSatisfy { !$1.0.utf8.lexicographicallyPrecedes($0.0.utf8) })
        // The model key table follows the sorted rows: each key is its row's packed code.
        let keys = try KeyTable(file.section(AircraftSchema.Section.modelKeys), rows: table.count,
                                tag: AircraftSchema.Section.modelKeys, path: path)
        #expect((0..<table.count).allSatisfy { keys[$0] == PackedKey.pack(rows[$0].0) })
        let fixtureModels = try NormalizedFAA.readModels(stage + "/" + NormalizedFAA.modelsFile).count
        #expect(counts["models"] == fixtureModels)
        // The two spellings of CAFÉ AERO stay apart; "cafÉ aero" folds together with the composed one.
        let names = Set(try NormalizedFAA.readModels(stage + "/" + NormalizedFAA.modelsFile).map(\.manufacturer.utf8).map(Array.init))
        #expect(counts["manufacturers"] == names.count)
    }

    @Test("a models.csv or engines.csv of the wrong shape fails with its file and line")
    func errors() throws {
        let stage = try handOff(FAAFixtures.inputDirectory)
        let models = stage + "/" + NormalizedFAA.modelsFile, engines = stage + "/" + NormalizedFAA.enginesFile
        try append([["0000001", "TOO", "FEW"]], to: models)
        let lines = try String(contentsOfFile: models, encoding: .utf8).split(separator: "\n").count
        let short = #expect(throws: LocatedError.self) {
            try AircraftArtifactBuilder.ReferenceData(modelsFile: models, enginesFile: engines)
        }
        #expect(short?.description == "models.csv:\(lines): expected 13 fields, found 3")

        try Data("code,maker\n".utf8).write(to: URL(fileURLWithPath: engines))
        try Data(try String(contentsOfFile: models, encoding: .utf8).split(separator: "\n").dropLast().joined(separator: "\n").utf8)
            .write(to: URL(fileURLWithPath: models))
        let header = #expect(throws: LocatedError.self) {
            try AircraftArtifactBuilder.ReferenceData(modelsFile: models, enginesFile: engines)
        }
        #expect(header?.description.hasPrefix("engines.csv:1: expected the normalized header code,manufacturer,model") == true)
    }

    @Test("a reference file is sized from the file system before its records are read; past the bound, refused at the file; a missing one, unreadable")
    func referenceFileSize() throws {
        let stage = try handOff(FAAFixtures.inputDirectory)
        let models = stage + "/" + NormalizedFAA.modelsFile, engines = stage + "/" + NormalizedFAA.enginesFile
        let bytes = try Data(contentsOf: URL(fileURLWithPath: models))
        #expect(try NormalizedFAA.referenceFileSize(of: models) == bytes.count)
        #expect(try NormalizedFAA.referenceFileSize(of: stage + "/absent.csv") == 0)
        let tooLarge = #expect(throws: LocatedError.self) { try NormalizedFAA.referenceFileSize(of: models, maximumBytes: bytes.count - 1) }
        #expect(tooLarge?.kind == .tooLarge)
        #expect(tooLarge?.description == "models.csv: a reference file too large for the hand-off (expected at most \(bytes.count - 1) bytes; found \(bytes.count) bytes)")
        let missing = #expect(throws: LocatedError.self) {
            try AircraftArtifactBuilder.ReferenceData(modelsFile: stage + "/absent.csv", enginesFile: engines)
        }
        #expect(missing?.kind == .unreadable && missing?.description.hasPrefix("absent.csv: cannot open") == true, "\(String(describing: missing))")
    }
}
