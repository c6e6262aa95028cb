import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// `emit-aircraft --redact individuals`: no individual's name or street anywhere in the
/// artifact's bytes, everyone else intact, and the artifact says that owners are withheld.
@Suite("Owner redaction: individuals withheld from the aircraft artifact")
struct OwnerRedactionTests {
    /// A MASTER row's registrant type and the fields redaction withholds.
    struct Owner {
        let registrantType: String
        let personal: [String]   // name, street, street2, other names
        let zip: String
    }

    /// The owners of a MASTER file (fixed-width fields between commas; values hold no comma).
    static func owners(_ lines: [String]) -> [Owner] {
        lines.dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            return Owner(registrantType: f[5], personal: [f[6], f[7], f[8]] + f[24...28], zip: f[11])
        }
    }

    /// Builds the full and the redacted artifact from `sources` through the executables.
    static func build(_ sources: String, in directory: URL) throws -> (full: String, redacted: String) {
        let stage = directory.appendingPathComponent("stage").path
        let full = directory.appendingPathComponent("full").path, redacted = directory.appendingPathComponent("redacted").path
        for (tool, arguments) in [("ingest-faa", [sources, "--output", stage]), ("emit-aircraft", [stage, "--output", full]),
                                  ("emit-aircraft", [stage, "--output", redacted, "--redact", "individuals"])] {
            let run = try TestPaths.run(tool, arguments)
            #expect(run.status == 0, "\(tool): \(run.stderr)")
        }
        return (full + "/aircraft.fgb", redacted + "/aircraft.fgb")
    }

    /// Every individual's name and street that no other registrant's fields contain is absent
    /// from `artifact`'s bytes; returns how many strings were checked and how many skipped.
    static func expectWithheld(_ owners: [Owner], in artifact: String) throws -> (checked: Int, shared: Int) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: artifact))
        let kept = owners.filter { $0.registrantType != "1" }.flatMap(\.personal).joined(separator: "\n")
        var checked = 0, shared = 0
        for text in Set(owners.filter { $0.registrantType == "1" }.flatMap(\.personal)) where text.count >= 4 {
            if kept.contains(text) { shared += 1; continue }   // also another registrant's, legitimately there
            checked += 1
            #expect(bytes.range(of: Data(text.utf8)) == nil, "\(text) is in \(artifact)")
        }
        return (checked, shared)
    }

    @Test("input/faa: no individual's name, co-owner or street in the bytes; corporations intact; withheld, not empty")
    func fixtures() throws {
        let directory = try TestPaths.temporaryDirectory("redact")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (fullPath, redactedPath) = try Self.build(FAAFixtures.inputDirectory, in: directory)
        let owners = Self.owners(try FAAFixtures.lines("MASTER.txt"))
        let individuals = owners.filter { $0.registrantType == "1" }
        #expect(individuals.count == 8)
        let result = try Self.expectWithheld(owners, in: redactedPath)
        #expect(result.checked >= 14 && result.shared == 0)
        // The same strings are in the complete artifact: the check can fail.
        let fullBytes = try Data(contentsOf: URL(fileURLWithPath: fullPath)), redactedBytes = try Data(contentsOf: URL(fileURLWithPath: redactedPath))
        for text in ["PETERSEN MARGIT A", "14 LARKSPUR LN", "KOWALSKI", "04083-1234"] {
            #expect(fullBytes.range(of: Data(text.utf8)) != nil, "\(text)")
            #expect(redactedBytes.range(of: Data(text.utf8)) == nil, "\(text)")
        }

        let full = try AircraftBundle(path: fullPath), redacted = try AircraftBundle(path: redactedPath)
        #expect(full.ownerRedaction == .none && redacted.ownerRedaction == .individuals)
        for (a, b) in zip(RegistrySearchTests.allRecords(full), RegistrySearchTests.allRecords(redacted)) {
            #expect(a.nNumber == b.nNumber && a.city == b.city && a.state == b.state && a.country == b.country)
            if a.registrantType?.code == "1" {
                #expect(b.ownerWithheld && b.name.isEmpty && b.street.isEmpty && b.street2.isEmpty && b.otherNames.isEmpty)
                #expect(b.zip == String(a.zip.prefix(5)) || (b.zip.isEmpty && a.zip.count < 5))
                #expect(redacted.enrichment(for: b).ownerWithheld && !full.enrichment(for: a).ownerWithheld)
            } else {
                #expect(!b.ownerWithheld && a.info == b.info, "\(a.nNumber)")
            }
        }
        #expect(try redacted.registrations(matching: .init(owner: "petersen")).total == 0)
        #expect(try full.registrations(matching: .init(owner: "petersen")).total == 1)
        #expect(try redacted.registrations(matching: .init(owner: "lakeside flyers")).records.map(\.nNumber) == ["N101BZ"])
        #expect(try redacted.registrations(matching: .init(state: "ME")).total == 2)   // the individual is still found by state

        let manifest = try Manifest.decode(from: Data(contentsOf: directory.appendingPathComponent("redacted/manifest.json")))
        #expect(manifest.artifact(named: "aircraft.fgb")?.counts["ownersWithheld"] == 8)
        let fullManifest = try Manifest.decode(from: Data(contentsOf: directory.appendingPathComponent("full/manifest.json")))
        #expect(fullManifest.artifact(named: "aircraft.fgb")?.counts["ownersWithheld"] == nil)
    }

    @Test("fieldguide says withheld for an individual in a redacted bundle; --redact takes none or individuals")
    func executables() throws {
        let directory = try TestPaths.temporaryDirectory("redact-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, redacted) = try Self.build(FAAFixtures.inputDirectory, in: directory)
        let aircraft = try TestPaths.run("fieldguide", ["aircraft", "N100A", "--bundle", redacted])
        #expect(aircraft.status == 0 && aircraft.stdout.contains("Owner               withheld (Individual registrant"), "\(aircraft.stdout)")
        #expect(aircraft.stdout.contains("Address             withheld") && aircraft.stdout.contains("SPRINGVALE ME 04083\n"))
        let enrich = try TestPaths.run("fieldguide", ["enrich", "N100A", "--bundle", redacted, "--format", "json"])
        #expect(enrich.status == 0 && enrich.stdout.contains("\"ownerWithheld\" : true"), "\(enrich.stdout)")
        let corporation = try TestPaths.run("fieldguide", ["enrich", "N250JT", "--bundle", redacted])
        #expect(corporation.stdout.contains("NORTHWIND CHARTER CORP") && !corporation.stdout.contains("withheld"))
        let bad = try TestPaths.run("emit-aircraft", [directory.appendingPathComponent("stage").path, "--output", directory.path, "--redact", "everyone"])
        #expect(bad.status == 2 && bad.stderr.contains("--redact: expected one of none, individuals, found everyone"), "\(bad.stderr)")
    }

    @Test("the real MASTER sample: no individual's name or street in the redacted bytes")
    func realSample() throws {
        guard let sources = try FAAFixtures.sharedDirectory(), let master = TestPaths.shared("faa/MASTER.sample.txt") else { return }
        let directory = try TestPaths.temporaryDirectory("redact-real")
        defer { try? FileManager.default.removeItem(at: directory); try? FileManager.default.removeItem(atPath: sources) }
        let (full, redacted) = try Self.build(sources, in: directory)
        let text = try String(contentsOf: master, encoding: .utf8).replacingOccurrences(of: "\u{FEFF}", with: "")
        let owners = Self.owners(text.components(separatedBy: "\r\n").filter { !$0.isEmpty })
        #expect(owners.filter { $0.registrantType == "1" }.count == 117)
        let result = try Self.expectWithheld(owners, in: redacted)
        #expect(result.checked > 200, "\(result)")
        // The complete artifact holds them: the check reads the right strings.
        let fullBytes = try Data(contentsOf: URL(fileURLWithPath: full))
        let present = owners.filter { $0.registrantType == "1" }.map(\.personal[0]).filter { fullBytes.range(of: Data($0.utf8)) != nil }
        #expect(present.count > 100)
    }
}
