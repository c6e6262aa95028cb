import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCSV
import FieldGuideFAA
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// The builder's orderings and links do not depend on when the reference data arrives, and its
/// N-number order is the stable byte order, also for marks that share their first 8 bytes.
@Suite("Aircraft artifact builder")
struct AircraftBuilderTests {
    typealias S = AircraftSchema

    static let models = [
        AircraftModel(code: "2072738", manufacturer: "CESSNA", model: "172S"),
        AircraftModel(code: "0500001", manufacturer: "BLUEHERON AIRCRAFT CO", model: "BH-200"),
        AircraftModel(code: "05000010", manufacturer: "BLUEHERON AIRCRAFT CO", model: "BH-900 JET"),
    ]
    static let engines = [EngineModel(code: "17003", manufacturer: "LYCOMING", model: "O-360"), EngineModel(code: "41514", manufacturer: "GE", model: "CF34")]

    /// (N-number, serial, model code, engine code, Mode S): duplicates and marks longer than
    /// 8 bytes that tie on their packed prefix, in no particular order.
    static let registrations: [(String, String, String, String, String)] = [
        ("N2", "S1", "2072738", "17003", "A00001"),
        ("N12345678B", "S2", "0500001", "", ""),
        ("N1", "S3", "9999999", "99999", "A00002"),
        ("N12345678A", "S4", "05000010", "41514", "A00001"),
        ("N2", "S5", "2072738", "", ""),
        ("N12345678", "S6", "", "17003", "00FFFF"),
        ("N12345678B", "S7", "0500001", "", ""),
    ]

    static func record(_ index: Int, _ r: (String, String, String, String, String)) -> CSVRecord {
        var fields = [String](repeating: "", count: NormalizedFAA.RegistrationField.allCases.count)
        fields[NormalizedFAA.RegistrationField.nNumber.rawValue] = r.0
        fields[NormalizedFAA.RegistrationField.serialNumber.rawValue] = r.1
        fields[NormalizedFAA.RegistrationField.modelCode.rawValue] = r.2
        fields[NormalizedFAA.RegistrationField.engineCode.rawValue] = r.3
        fields[NormalizedFAA.RegistrationField.modeSHex.rawValue] = r.4
        fields[NormalizedFAA.RegistrationField.lastActionDate.rawValue] = "2020-01-0\(index % 9 + 1)"
        return CSVRecord(line: index + 2, index: index + 1, fields: fields)
    }

    @Test("reference data before or after the registrations gives the same bytes and counts")
    func referenceOrder() throws {
        var first = AircraftArtifactBuilder(models: Self.models, engines: Self.engines)
        var last = AircraftArtifactBuilder(expectedRegistrations: Self.registrations.count)
        for (i, r) in Self.registrations.enumerated() {
            try first.addRegistration(Self.record(i, r))
            try last.addRegistration(Self.record(i, r))
        }
        last.add(AircraftArtifactBuilder.ReferenceData(models: Self.models.reversed(), engines: Self.engines.reversed()))
        let a = first.build(), b = last.build()
        #expect(try a.artifact.serialize() == b.artifact.serialize())
        #expect(a.counts == b.counts)
        #expect(a.counts["registrationsWithoutModel"] == 2)  // 9999999 and the empty code
        #expect(a.counts["registrationsWithoutEngine"] == 1)  // 99999; empty codes do not count
    }

    @Test("parts filled apart give one builder's bytes, wherever the cut and whichever part has the reference data")
    func parts() throws {
        var single = AircraftArtifactBuilder(models: Self.models, engines: Self.engines)
        for (i, r) in Self.registrations.enumerated() { try single.addRegistration(Self.record(i, r)) }
        let expected = single.build()
        let reference = AircraftArtifactBuilder.ReferenceData(models: Self.models, engines: Self.engines)
        for cut in 0...Self.registrations.count {
            for holder in 0...2 {  // the first half, the second, or a part of its own
                var parts = [AircraftArtifactBuilder.Part(), AircraftArtifactBuilder.Part()]
                for (i, r) in Self.registrations.enumerated() { try parts[i < cut ? 0 : 1].addRegistration(Self.record(i, r)) }
                if holder == 2 { parts.append(AircraftArtifactBuilder.Part(expectedModels: Self.models.count)) }
                parts[holder].add(reference)
                if cut % 2 == 0 { parts[holder].sortStrings() }  // sorted by its thread, or by `build()`
                var builder = AircraftArtifactBuilder(parts: parts)
                let built = builder.build()
                #expect(try built.artifact.serialize() == expected.artifact.serialize(), "cut \(cut), reference in part \(holder)")
                #expect(built.counts == expected.counts)
            }
        }
    }

    @Test("registrations sort stably by N-number bytes; links and Mode S rows follow them")
    func registrationOrder() throws {
        var builder = AircraftArtifactBuilder(expectedRegistrations: Self.registrations.count)
        for (i, r) in Self.registrations.enumerated() { try builder.addRegistration(Self.record(i, r)) }
        builder.add(AircraftArtifactBuilder.ReferenceData(models: Self.models, engines: Self.engines))
        let path = try TestPaths.temporaryDirectory("builder").appendingPathComponent("a.fgb").path
        try builder.build().artifact.write(to: path)

        let file = try ArtifactFile(path: path)
        let strings = try StringPool(file.section(S.Section.strings), path: path)
        let rows = try RowTable<S.RegistrationColumn>(file.section(S.Section.registrations), layout: .init(),
                                                      tag: S.Section.registrations, path: path)
        let models = try RowTable<S.ModelColumn>(file.section(S.Section.models), layout: .init(), tag: S.Section.models, path: path)
        let engines = try RowTable<S.EngineColumn>(file.section(S.Section.engines), layout: .init(), tag: S.Section.engines, path: path)
        func text(_ id: UInt32) -> String { strings.string(id) }

        let expected = Self.registrations.enumerated()
            .sorted { a, b in
                a.element.0 == b.element.0 ? a.offset < b.offset : a.element.0.utf8.lexicographicallyPrecedes(b.element.0.utf8)
            }
            .map(\.element)
        #expect(rows.count == expected.count)
        for (row, r) in expected.enumerated() {
            #expect(text(rows.value(row, .nNumber)) == r.0)
            #expect(text(rows.value(row, .serialNumber)) == r.1)
            let modelRow = rows.number(row, .modelRow)
            #expect(modelRow.map { text(models.value($0, .code)) } == (Self.models.contains { $0.code == r.2 } ? r.2 : nil))
            let engineRow = rows.number(row, .engineRow)
            #expect(engineRow.map { text(engines.value($0, .code)) } == (Self.engines.contains { $0.code == r.3 } ? r.3 : nil))
        }
        let keys = try KeyTable(file.section(S.Section.registrationKeys), rows: rows.count, tag: S.Section.registrationKeys, path: path)
        for row in 0..<rows.count { #expect(keys[row] == PackedKey.pack(expected[row].0)) }

        let modeS = try RowTable<S.ModeSColumn>(file.section(S.Section.modeS), layout: .init(), tag: S.Section.modeS, path: path)
        let pairs = (0..<modeS.count).map { (modeS.value($0, .address), modeS.value($0, .registrationRow)) }
        let expectedPairs = expected.enumerated().compactMap { row, r in r.4.isEmpty ? nil : (UInt32(r.4, radix: 16)!, UInt32(row)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        #expect(pairs.map(\.0) == expectedPairs.map(\.0) && pairs.map(\.1) == expectedPairs.map(\.1))
    }
}
