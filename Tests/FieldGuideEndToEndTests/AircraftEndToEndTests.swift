import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideFAA
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// Runs ingest + emit into a fresh directory and returns the artifact path.
func buildArtifact(from sources: String, into out: String? = nil, epoch: String? = nil) throws -> String {
    let out = try out ?? TestPaths.temporaryDirectory("e2e").path
    _ = try FAAIngest().run(sources: try FAASources.locate(sources), outputDirectory: out + "/stage")
    var environment: [String: String] = [:]
    if let epoch { environment["SOURCE_DATE_EPOCH"] = epoch }
    return try AircraftEmit.run(handOff: out + "/stage", outputDirectory: out, environment: environment).artifactPath
}

/// Opens the aircraft artifact built from the real FAA samples in `../shared` (in a temporary
/// directory removed afterwards) and passes it to `body`, which does not run when `../shared`
/// is absent.
func withSharedSampleBundle(_ name: String, _ body: (AircraftBundle) throws -> Void) throws {
    guard let sources = try FAAFixtures.sharedDirectory() else { return }
    let directory = try TestPaths.temporaryDirectory(name)
    defer { try? FileManager.default.removeItem(at: directory); try? FileManager.default.removeItem(atPath: sources) }
    try body(try AircraftBundle(path: try buildArtifact(from: sources, into: directory.path)))
}

@Suite("Aircraft artifact end to end")
struct AircraftEndToEndTests {
    @Test("lookups on the fixtures: registration forms, Mode S, model, engine, codes")
    func lookups() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        #expect(bundle.registrationCount == 20 && bundle.modelCount == 20 && bundle.engineCount == 12)
        for form in ["N250JT", "n250jt", "250JT", " 250jt "] {
            #expect(bundle.aircraft(registration: form)?.nNumber == "N250JT")
        }
        #expect(bundle.aircraft(registration: "N99999") == nil)
        #expect(bundle.aircraft(registration: "") == nil)
        let jet = try #require(bundle.aircraft(modeSHex: "a1b2c3"))
        #expect(jet.nNumber == "N250JT")
        #expect(jet.model?.model == "BH-900 JET")
        #expect(jet.engine?.model == "CJ-F7 FAN")
        #expect(jet.engine?.thrustPounds == 7_400)
        #expect(jet.otherNames.isEmpty && jet.fractionalOwner)
        #expect(bundle.aircraft(modeSHex: "FFFFFF") == nil)
        #expect(bundle.aircraft(modeSHex: "not hex") == nil)
        #expect(bundle.model(code: "440001")?.manufacturer == "DRIFTWOOD BALLOONS")
        #expect(bundle.engine(code: "00000")?.engineType?.name == "None")
        #expect(bundle.displayName(.aircraftType, "H") == "Hybrid Lift")
        #expect(bundle.codeTable(.airworthinessClass).count == 9)

        let club = try #require(bundle.aircraft(registration: "5B"))
        #expect(club.otherNames == ["MARTINEZ ROSA", "CHEN WEI", "O'BRIEN PAT"])
        let orphan = try #require(bundle.aircraft(registration: "N17"))
        #expect(orphan.model == nil && orphan.modelCode == "9999999" && orphan.engine == nil)
    }

    @Test("manufacturers by prefix, case- and diacritic-insensitive, with their models in name order")
    func manufacturers() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        #expect(bundle.manufacturers(prefix: "BLUE").map(\.name) == ["BLUEHERON AIRCRAFT CO"])
        #expect(bundle.manufacturers(prefix: "blüe").map(\.name) == ["BLUEHERON AIRCRAFT CO"])
        let heron = try #require(bundle.manufacturers(prefix: "blueheron aircraft co").first)
        #expect(heron.models.map(\.model) == ["BH-200", "BH-900 JET", "BH-X TURBOJET"])
        #expect(bundle.manufacturers(prefix: "").count == 9)
        #expect(bundle.manufacturers(prefix: "", limit: 2).count == 2)
        #expect(bundle.manufacturers(prefix: "ZZZ").isEmpty)
    }

    @Test("enrichment fields and Recent Sightings lines, as the aircraft app shows them")
    func appFields() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        let e = try #require(bundle.enrichment(registration: "n101bz"))
        #expect(e.registration == "N101BZ")
        #expect(e.serialNumber == "AMW-0002")
        #expect(e.engineType == "Reciprocating")
        #expect(e.weightClass == "Up to 12,499 lbs")
        #expect(e.airworthinessClassification == "Standard" && e.aircraftClassificationCode == 1)
        #expect(e.aircraftType == "Fixed wing single engine")
        #expect(e.yearManufactured == 2001 && e.engineCount == 1 && e.seatCount == 4)
        #expect(e.country == "US" && e.ownerType == "Partnership")
        #expect(e.airworthinessDate?.description == "2001-04-04")
        #expect(e.certificateIssueDate?.description == "2020-05-14")
        #expect(e.certificateExpirationDate?.description == "2030-05-31")
        #expect(e.registeredOwner == "LAKESIDE FLYERS")
        #expect(e.addressLine1 == "9 HARBOR RD" && e.addressLine2 == "PO BOX 12")
        #expect(e.city == "PORT ELLEN" && e.state == "MN" && e.zip == "55802")

        let lines = try #require(bundle.sightingLines(registration: "N250JT", airlineCode: "nwc"))
        #expect(lines.title == "NWC BLUEHERON AIRCRAFT CO BH-900 JET")
        #expect(lines.subtitle == "STANDARD Fixed Wing Multi Engine")
        #expect(bundle.sightingLines(registration: "N9FT")?.subtitle == "LIGHT SPORT Weight-Shift-Control")
        #expect(bundle.sightingLines(registration: "N2")?.subtitle == "Fixed Wing Multi Engine")
        // ACFTREF's AC-CAT and MASTER's airworthiness class are different things, both exposed.
        let amphibian = try #require(bundle.aircraft(registration: "N101BZ"))
        #expect(amphibian.model?.category?.name == "Amphibian")
        #expect(amphibian.airworthinessClass?.name == "Standard")
    }

    @Test("real FAA files: N90 by N-number and by Mode S AC6CD2, with its engine")
    func realFiles() throws {
        guard let directory = try FAAFixtures.sharedDirectory() else { return }
        let bundle = try AircraftBundle(path: try buildArtifact(from: directory))
        #expect(bundle.registrationCount == 311 && bundle.modelCount == 3_535 && bundle.engineCount == 4_751)
        let n90 = try #require(bundle.aircraft(registration: "N90"))
        #expect(n90.airworthinessClass?.name == "Standard")
        #expect(n90.approvedOperations == ["Transport"])
        #expect(n90.engine.map { "\($0.manufacturer) \($0.model)" } == "GE CF34-3B")
        #expect(bundle.aircraft(modeSHex: "AC6CD2")?.nNumber == "N90")
        #expect(n90.name == "FEDERAL AVIATION ADMINISTRATION")
        #expect(n90.zip == "73169-6936")
        #expect(bundle.model(code: "0020901")?.model == "UH-60A")
        #expect(bundle.model(code: "00301TN")?.model == "BABY ACE \"D\"")
        let cessna = bundle.manufacturers(prefix: "cessna")
        #expect(cessna.first?.name == "CESSNA")
        #expect((cessna.first?.modelCount ?? 0) > 10)
        // Every registration with a Mode S address is found through it.
        #expect(bundle.aircraft(modeSHex: "A63796")?.nNumber == "N50")
    }

    @Test("identical inputs give byte-identical artifacts and manifests")
    func deterministic() throws {
        let a = try buildArtifact(from: FAAFixtures.inputDirectory, epoch: "1767225600")
        let b = try buildArtifact(from: FAAFixtures.inputDirectory, epoch: "1767225600")
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
        let manifestA = URL(fileURLWithPath: a).deletingLastPathComponent().appendingPathComponent("manifest.json")
        let manifestB = URL(fileURLWithPath: b).deletingLastPathComponent().appendingPathComponent("manifest.json")
        #expect(try Data(contentsOf: manifestA) == Data(contentsOf: manifestB))
        let manifest = try Manifest.decode(from: Data(contentsOf: manifestA))
        #expect(manifest.built == "2026-01-01T00:00:00Z")
        let entry = try #require(manifest.artifact(named: "aircraft.fgb"))
        #expect(entry.sha256 == FileDigest.sha256(Array(FileManager.default.contents(atPath: a)!)))
        #expect(entry.sources.map(\.rows.kept) == [20, 12, 20, 6, 5])
        #expect(entry.counts["registrationsWithoutModel"] == 1)
    }

    @Test("a corrupt artifact is a typed error, never a crash")
    func corrupt() throws {
        let path = try buildArtifact(from: FAAFixtures.inputDirectory)
        let good = Array(FileManager.default.contents(atPath: path)!)
        let bad = path + ".bad"
        var flipped = good
        flipped[good.count - 40] ^= 0x55
        try AtomicFile.write(flipped, to: bad)
        #expect(throws: FieldGuideError.self) { try AircraftBundle(path: bad) }
        do { _ = try AircraftBundle(path: bad) } catch { #expect(error.kind == .corrupt) }

        try AtomicFile.write(Array(good.prefix(good.count / 3)), to: bad)
        do { _ = try AircraftBundle(path: bad); Issue.record("opened a truncated file") } catch { #expect(error.kind == .truncated) }

        var newer = good
        newer[8] = 9
        try AtomicFile.write(newer, to: bad)
        do { _ = try AircraftBundle(path: bad); Issue.record("opened a newer major") } catch { #expect(error.kind == .unsupportedVersion) }

        do { _ = try AircraftBundle(path: path + ".missing"); Issue.record("opened a missing file") } catch { #expect(error.kind == .unreadable) }
    }

    @Test("a run whose rejects pass the threshold leaves the previous artifact in place")
    func previousArtifactKept() throws {
        let out = try TestPaths.temporaryDirectory("e2e-keep").path
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: out)
        let before = FileManager.default.contents(atPath: path)
        let manifestBefore = FileManager.default.contents(atPath: out + "/manifest.json")

        var lines = try FAAFixtures.lines("MASTER.txt")
        for i in 1...10 { lines[i] = lines[i].replacingOccurrences(of: ",20", with: ",21") }  // dates in the year 21xx are fine…
        for i in 1...10 {
            var fields = lines[i].components(separatedBy: ",")
            fields[29] = "20250230"  // …but February 30th is not
            lines[i] = fields.joined(separator: ",")
        }
        let bad = try FAAFixtures.inputCopy(overriding: ["MASTER.txt": .faaFile(lines)])
        #expect(throws: LocatedError.self) { try buildArtifact(from: bad, into: out) }
        // The emit stage also refuses the failed hand-off on its own.
        let error = #expect(throws: LocatedError.self) { try AircraftEmit.run(handOff: out + "/stage", outputDirectory: out) }
        #expect(error?.kind == .badHandOff)
        #expect(FileManager.default.contents(atPath: path) == before)
        #expect(FileManager.default.contents(atPath: out + "/manifest.json") == manifestBefore)
        #expect(try AircraftBundle(path: path).registrationCount == 20)
    }

    @Test("emit refuses a hand-off whose files changed after ingest")
    func tamperedHandOff() throws {
        let out = try TestPaths.temporaryDirectory("e2e-tamper").path
        _ = try buildArtifact(from: FAAFixtures.inputDirectory, into: out)
        let models = out + "/stage/models.csv"
        try (try String(contentsOfFile: models, encoding: .utf8) + "extra\n").write(toFile: models, atomically: true, encoding: .utf8)
        let error = #expect(throws: LocatedError.self) { try AircraftEmit.run(handOff: out + "/stage", outputDirectory: out) }
        #expect(error?.message.hasPrefix("expected SHA-256") == true)
    }
}
