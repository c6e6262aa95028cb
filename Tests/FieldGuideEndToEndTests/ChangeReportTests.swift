import FieldGuide
@testable import FieldGuidePipeline
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

@Suite("Change report between two builds")
struct ChangeReportTests {
    @Test("aircraft: a changed model field, a deregistration, a new registration and an owner change")
    func aircraft() throws {
        let before = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))

        var models = try FAAFixtures.lines("ACFTREF.txt")
        models = models.map { $0.hasPrefix("2100100,") ? $0.replacingOccurrences(of: ",02,009,", with: ",02,011,") : $0 }
        var masters = try FAAFixtures.lines("MASTER.txt")
        let added = masters.first { $0.hasPrefix("17   ,") }!.replacingOccurrences(of: "17   ,", with: "19   ,")
            .replacingOccurrences(of: "AD6E7F", with: "AD6E80").replacingOccurrences(of: "53267177", with: "53267200")
        masters = masters.filter { !$0.hasPrefix("18   ,") }
            .map { $0.replacingOccurrences(of: "ABERNATHY SAM     ", with: "ABERNATHY SAMANTHA") } + [added]
        // An engine's horsepower changed, one engine gone, one new.
        var engines = try FAAFixtures.lines("ENGINE.txt")
        engines = engines.map { $0.hasPrefix("10101,") ? $0.replacingOccurrences(of: ",00180,", with: ",00185,") : $0 }
        let newEngine = engines.first { $0.hasPrefix("10103,") }!.replacingOccurrences(of: "10103,", with: "10199,")
        engines = engines.filter { !$0.hasPrefix("10103,") } + [newEngine]
        let changed = try FAAFixtures.inputCopy(overriding: ["ACFTREF.txt": .faaFile(models), "MASTER.txt": .faaFile(masters),
                                                             "ENGINE.txt": .faaFile(engines)])
        let after = try AircraftBundle(path: try buildArtifact(from: changed))

        let report = ChangeReport.aircraft(old: before, new: after)
        #expect(report.sections.map(\.title) == ["Aircraft models (ACFTREF)", "Engines (ENGINE)", "Registrations (MASTER)"])
        let (modelSection, engineSection, registrationSection) = (report.sections[0], report.sections[1], report.sections[2])
        #expect(engineSection.added == ["10199"] && engineSection.removed == ["10103"])
        #expect(engineSection.changed.map { "\($0.key) \($0.name): \($0.fields)" } == ["10101 AEROMOTOR AM-180: [\"horsepower\"]"])
        #expect(report.markdown().contains("## Engines (ENGINE)\n\n12 records: 1 added, 1 removed, 1 changed"))
        #expect(modelSection.added.isEmpty && modelSection.removed.isEmpty)
        #expect(modelSection.changed.map(\.key) == ["2100100"])
        #expect(modelSection.changed.first?.name == "BLUEHERON AIRCRAFT CO BH-200")
        #expect(modelSection.changed.first?.fields == ["seatCount"])
        #expect(registrationSection.removed == ["N18"])
        #expect(registrationSection.added == ["N19"])
        #expect(registrationSection.changed.map(\.key) == ["N16"])
        #expect(registrationSection.changed.first?.fields == ["name"])
        #expect(registrationSection.counts["ownerChanged"] == 1)
        #expect(report.markdown().contains("20 records: 1 added, 1 deregistered, 1 changed (1 with a new owner)"))
        #expect(report.markdown().contains("### Deregistered\n- N18"))
        #expect(report.markdown(listLimit: -1).contains("### Deregistered\n- … and 1 more"))   // prefix(-1) trapped
        #expect(!report.markdown().contains("ownerChanged"))

        let same = ChangeReport.aircraft(old: before, new: try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory)))
        #expect(same.sections.allSatisfy { $0.added.isEmpty && $0.removed.isEmpty && $0.changed.isEmpty })
        #expect(same.markdown().contains("20 records, no changes"))   // not "20 → 20: 0 added, …"
    }

    @Test("a table of one record says '1 record', of one before and two after '1 → 2 records'")
    func oneRecord() {
        let same = ChangeReport(sections: [.init(title: "Engines (ENGINE)", before: 1, after: 1)])
        #expect(same.markdown().contains("1 record, no changes"), "\(same.markdown())")
        let grown = ChangeReport(sections: [.init(title: "Engines (ENGINE)", before: 1, after: 2, added: ["17020"])])
        #expect(grown.markdown().contains("1 → 2 records: 1 added"), "\(grown.markdown())")
    }

    @Test("fieldguide diff: Markdown and JSON, and a refusal for two kinds of artifact")
    func command() throws {
        let a = try buildArtifact(from: FAAFixtures.inputDirectory)
        let text = try TestPaths.run("fieldguide", ["diff", a, a])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("# Reference data changes"))
        let json = try TestPaths.run("fieldguide", ["diff", a, a, "--format", "json"])
        let decoded = try JSONDecoder().decode(ChangeReport.self, from: Data(json.stdout.utf8))
        #expect(decoded.sections.map(\.after) == [20, 12, 20])
        let notArtifact = try TestPaths.run("fieldguide", ["diff", a, FAAFixtures.inputDirectory + "/ENGINE.txt"])
        #expect(notArtifact.status == 1)
        #expect(notArtifact.stderr.contains("not a FieldGuide artifact"))
    }
}
