import FieldGuide
import FieldGuidePipeline
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

@Suite("Change report: changed fields without JSON")
struct ChangeReportFieldsTests {
    /// Every registration and model of the fixtures against every other one: the property
    /// comparison the diff uses names the same fields, in the same order, as the JSON one
    /// (absent optionals, codes, dates, lists and nested records included).
    @Test("differingProperties names what differingFields names, on every pair of fixture records")
    func sameAsJSON() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        let marks = try FAAFixtures.lines("MASTER.txt").dropFirst().compactMap { line in
            line.split(separator: ",", omittingEmptySubsequences: false).first.map { "N" + $0.trimmingCharacters(in: .whitespaces) }
        }
        let registrations = marks.compactMap { bundle.aircraft(registration: $0)?.info }
        #expect(registrations.count == marks.count && registrations.count >= 20)
        var compared = 0, differing = 0
        for a in registrations {
            for b in registrations {
                let fields = ChangeReport.differingProperties(a, b)
                #expect(fields == ChangeReport.differingFields(a, b), "\(a.nNumber) → \(b.nNumber)")
                #expect(ChangeReport.differingRegistrationFields(a, b) == fields, "\(a.nNumber) → \(b.nNumber)")
                compared += 1
                if !fields.isEmpty { differing += 1 }
            }
        }
        #expect(differing > 0 && differing < compared)   // equal pairs (a record with itself) and unequal ones
        // The diff's list of registration fields is every property of the type, in order.
        #expect(ChangeReport.registrationFields.map(\.name) == Mirror(reflecting: registrations[0]).children.compactMap(\.label))
        let models = registrations.compactMap(\.model)
        for a in models {
            for b in models { #expect(ChangeReport.differingProperties(a, b) == ChangeReport.differingFields(a, b), "\(a.code) → \(b.code)") }
        }
    }
}
