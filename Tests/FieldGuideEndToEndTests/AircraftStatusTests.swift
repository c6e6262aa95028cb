import FieldGuide
import FieldGuideArtifact
import FieldGuideCore
import FieldGuideEmit
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// DEREG and RESERVED in the aircraft artifact: `status(of:)`, the rows read back, the
/// `fieldguide status` command, and crafted status sections.
@Suite("N-number status: MASTER, RESERVED, DEREG")
struct AircraftStatusTests {
    static func bundle(redact: OwnerRedaction = .none) throws -> (AircraftBundle, String) {
        let out = try TestPaths.temporaryDirectory("status").path
        _ = try FAAIngest().run(sources: try FAASources.locate(FAAFixtures.inputDirectory), outputDirectory: out + "/stage")
        let path = try AircraftEmit.run(handOff: out + "/stage", outputDirectory: out, redaction: redact, environment: [:]).artifactPath
        return (try AircraftBundle(path: path), path)
    }

    @Test("each kind: active, deregistered (several records, newest first), reserved, available, invalid")
    func everyKind() throws {
        let (bundle, _) = try Self.bundle()
        #expect(bundle.knowsDeregistered && bundle.knowsReserved)

        let active = bundle.status(of: "n4477")
        #expect(active.kind == .active && active.nNumber == "N4477" && active.registration?.name == "ORTEGA LUIS")
        #expect(active.deregistrations.map(\.name) == ["ISLA GYRO CLUB"])
        #expect(active.deregistrations.first?.reason == "Certificate of Registration revoked")

        let gone = bundle.status(of: "777DR")
        #expect(gone.kind == .deregistered && gone.registration == nil && gone.reservation == nil)
        #expect(gone.deregistrations.map { $0.cancelDate?.description } == ["2019-04-30", "2008-11-02"])
        let last = try #require(gone.deregistrations.first)
        #expect(last.reason == "exported to CANADA" && last.name == "MAPLE LEAF FLYERS INC" && last.city == "BUFFALO")
        #expect(last.model?.model == "BH-200" && last.modeSHex == "A7D7D7" && last.yearManufactured == 2001 && last.state == "NY")
        #expect(last.certificateIssueDate?.description == "2012-09-05" && last.airworthinessDate?.description == "2001-01-10")
        #expect(gone.deregistrations[1].reason == "Triennial registration form mailed, not returned by the Post Office")

        let held = bundle.status(of: "N321RV")
        #expect(held.kind == .reserved && held.deregistrations.count == 1)
        let reservation = try #require(held.reservation)
        #expect(reservation.reservationType?.code == "HD" && reservation.reservationType?.name == "2 year hold for canceled N-Numbers")
        #expect(reservation.expirationDate?.description == "2027-06-01" && reservation.purgeDate?.description == "2027-07-01")
        #expect(bundle.status(of: "N44GX").reservation?.changeNNumber == "N12AB")
        #expect(bundle.status(of: "N2FG").reservation?.expirationDate == nil)
        #expect(bundle.status(of: "N88ZZ").deregistrations.first?.name == "CÔTÉ AVIATION SERVICES")

        #expect(bundle.status(of: "N99999").kind == .available)
        #expect(bundle.status(of: "N1").kind == .available)
        for text in ["N0A", "NIO1", "123456", "N12ABC", "", "N1-2-3-4-5-6"] {
            let status = bundle.status(of: text)
            #expect(status.kind == .invalid && status.nNumber == nil && status.problem?.hasPrefix("not a US N-number") == true, "\(text)")
        }
    }

    @Test("every row read back in N-number order: what an export iterates")
    func iterate() throws {
        let (bundle, _) = try Self.bundle()
        #expect(bundle.deregisteredRecords.map(\.nNumber) == ["N1701", "N321RV", "N4477", "N777DR", "N777DR", "N88ZZ"])
        #expect(bundle.reservedRecords.map(\.nNumber) == ["N2FG", "N321RV", "N44GX", "N500XA", "N9999Z"])
        #expect(bundle.reservedRecords.map { $0.reservationType?.code ?? "" } == ["MF", "HD", "NC", "FP", "AA"])
        #expect(bundle.codeTable(.reservationType).count == 11)
    }

    @Test("byte-identical for identical inputs; without DEREG and RESERVED the bundle opens and says it cannot tell")
    func deterministicAndOptional() throws {
        let (_, first) = try Self.bundle()
        let (_, second) = try Self.bundle()
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))

        let path = try buildArtifact(from: try FAAFixtures.inputCopy())
        let older = try AircraftBundle(path: path)
        #expect(!older.knowsDeregistered && !older.knowsReserved && older.deregisteredRecords.isEmpty)
        #expect(older.sections.allSatisfy { !["DSTR", "DREG", "DKEY", "RSVD", "VKEY"].contains($0.tag) })
        let status = older.status(of: "N777DR")
        #expect(status.kind == .available && !status.knowsDeregistered)
    }

    @Test("redacted: individuals' names and streets left out of DEREG, every reserving party's of RESERVED")
    func redaction() throws {
        let (bundle, path) = try Self.bundle(redact: .individuals)
        let individual = try #require(bundle.deregistrations(of: "N321RV").first)
        #expect(individual.name == "" && individual.city == "LUBBOCK" && individual.serialNumber == "BH2-11")
        #expect(bundle.deregistrations(of: "N777DR").first?.name == "MAPLE LEAF FLYERS INC")
        #expect(bundle.reservation(of: "N500XA")?.registrant == "" && bundle.reservation(of: "N44GX")?.zip == "45402")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for text in ["HOLLOWAY", "88 RUNWAY RD", "SKY WIZARD", "7 RED ROCK LOOP"] {
            #expect(bytes.range(of: Data(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("emit-aircraft: a changed deregistered.csv or reserved.csv is refused (exit 1) naming it; with both, DEREG's first")
    func changedStatusFiles() throws {
        let out = try TestPaths.temporaryDirectory("status-changed").path
        _ = try FAAIngest().run(sources: try FAASources.locate(FAAFixtures.inputDirectory), outputDirectory: out + "/stage")
        let published = try TestPaths.run("emit-aircraft", [out + "/stage", "--output", out + "/aircraft"])
        #expect(published.status == 0, "\(published.stderr)")
        let artifact = try Data(contentsOf: URL(fileURLWithPath: out + "/aircraft/aircraft.fgb"))
        // The files read on two threads (RESERVED on a thread of its own): still valid CSV, a
        // letter of one value changed, so each parses and fails its hash.
        func change(_ name: String) throws {
            let path = out + "/stage/" + name
            var text = try String(contentsOfFile: path, encoding: .utf8)
            let second = try #require(text.split(separator: "\n").dropFirst().first)
            text = text.replacingOccurrences(of: String(second), with: String(second).replacingOccurrences(of: "N", with: "M"))
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try change("reserved.csv")
        let reserved = try TestPaths.run("emit-aircraft", [out + "/stage", "--output", out + "/aircraft"])
        #expect(reserved.status == 1 && reserved.stderr.contains("reserved.csv") && !reserved.stderr.contains("deregistered.csv"), "\(reserved.stderr)")
        try change("deregistered.csv")
        let both = try TestPaths.run("emit-aircraft", [out + "/stage", "--output", out + "/aircraft"])
        #expect(both.status == 1 && both.stderr.contains("deregistered.csv") && !both.stderr.contains("reserved.csv"), "\(both.stderr)")
        // The published artifact stays as it was.
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/aircraft/aircraft.fgb")) == artifact)
    }

    @Test("fieldguide status: text, JSON, and exit 2 naming an invalid argument")
    func executable() throws {
        let (_, path) = try Self.bundle()
        let text = try TestPaths.run("fieldguide", ["status", "N250JT", "N777DR", "N321RV", "N99999", "--bundle", path])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "N250JT  active        Valid Registration (V)  BLUEHERON AIRCRAFT CO BH-900 JET  NORTHWIND CHARTER CORP, ANCHORAGE AK")
        #expect(lines.contains("N777DR  deregistered"))
        #expect(lines.contains { $0.hasPrefix("  cancelled 2019-04-30  exported to CANADA  last owner MAPLE LEAF FLYERS INC, BUFFALO NY") })
        #expect(lines.contains { $0.hasPrefix("N321RV  reserved      2 year hold for canceled N-Numbers (HD)  reserved 2025-06-01, expires 2027-06-01, purged 2027-07-01") })
        #expect(lines.last == "N99999  available")

        let json = try TestPaths.run("fieldguide", ["status", "n777dr", "--format", "json", "--bundle", path])
        struct Entry: Decodable { let nNumber: String?; let status: String; let deregistrations: [DeregisteredInfo] }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(json.stdout.utf8))
        #expect(entries.map(\.status) == ["deregistered"] && entries[0].deregistrations.map(\.exportCountry) == ["CANADA", ""])

        let invalid = try TestPaths.run("fieldguide", ["status", "N250JT", "N0A", "--bundle", path])
        #expect(invalid.status == 2 && invalid.stdout.contains("N0A     invalid       not a US N-number"))
        #expect(invalid.stderr.contains("<registrations>: N0A: not a US N-number"), "\(invalid.stderr)")
        let missing = try TestPaths.run("fieldguide", ["status", "N1", "--bundle", path + ".missing"])
        #expect(missing.status == 2)
    }

    @Test("crafted status sections: any word changed with valid checksums gives a typed error or wrong text, never a crash")
    func crafted() throws {
        let (_, path) = try Self.bundle()
        let sections: Set<String> = ["DSTR", "DREG", "DKEY", "RSVD", "VKEY"]
        let variants = try ArtifactSurgery.wordVariants(of: path, words: 10_000, values: [0xFFFF_FFF0, 0x00FF_FFFF, 1], sections: sections)
        #expect(Set(variants.map(\.section)) == sections)
        let directory = try TestPaths.temporaryDirectory("crafted-status")
        defer { try? FileManager.default.removeItem(at: directory) }
        let crafted = directory.appendingPathComponent("crafted.fgb")
        var opened = 0
        for variant in variants {
            try Data(variant.data).write(to: crafted)
            for verification in [ArtifactFile.Verification.full, .headerOnly] {
                guard let bundle = try? AircraftBundle(path: crafted.path, verification: verification) else { continue }
                opened += 1
                for n in ["N777DR", "N321RV", "N4477", "N99999", "N1701", "N9999Z"] {
                    let status = bundle.status(of: n)
                    _ = (status.deregistrations.map(\.info), status.reservation?.info)
                }
                _ = (bundle.deregisteredRecords.map(\.info), bundle.reservedRecords.map(\.info))
            }
        }
        #expect(variants.count > 500 && opened > variants.count, "\(opened) of \(variants.count)")

        // A section missing: without DSTR the bundle opens without status; without another, opening names it.
        for tag in sections.sorted() {
            try Data(try ArtifactSurgery.renamingSection(of: path, tag, to: "ZZZZ")).write(to: crafted)
            switch tag {
            case "DSTR": #expect(try !AircraftBundle(path: crafted.path).knowsDeregistered)
            case "DREG": #expect(try !AircraftBundle(path: crafted.path).knowsDeregistered)
            case "RSVD": #expect(try !AircraftBundle(path: crafted.path).knowsReserved)
            default:
                do {
                    _ = try AircraftBundle(path: crafted.path)
                    Issue.record("\(tag) missing: opened")
                } catch {
                    #expect(error.kind == .corrupt && error.description.contains("section \(tag): missing"), "\(error)")
                }
            }
        }
    }
}
