import FieldGuide
import FieldGuideArtifact
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

/// The registry search of `aircraft.fgb` against a brute-force oracle (every registration
/// tested one by one), on the fixtures and on the real MASTER and ACFTREF samples.
@Suite("Registry search: owner words, model, state, serial number")
struct RegistrySearchTests {
    /// Every registration of the bundle, in row (N-number) order.
    static func allRecords(_ bundle: AircraftBundle) -> [RegistrationRecord] {
        (0..<bundle.registrationCount).map { RegistrationRecord(bundle: bundle, row: $0) }
    }

    /// The N-numbers a query must find, by testing every registration.
    static func oracle(_ bundle: AircraftBundle, _ query: RegistrationQuery) -> [String] {
        var codes: Set<String>?
        if let model = query.model {
            if let exact = bundle.model(code: model) {
                codes = [exact.code]
            } else if allRecords(bundle).contains(where: { $0.modelCode == model.uppercased() }) {
                codes = [model.uppercased()]
            } else {
                let key = RegistrySearchFolding.modelKey(model)
                codes = Set((0..<bundle.modelCount).map { ModelRecord(bundle: bundle, row: $0) }
                    .filter { RegistrySearchFolding.modelKey($0.model).hasPrefix(key) }.map(\.code))
            }
        }
        let ownerWords = query.owner.map(RegistrySearchFolding.words)
        return allRecords(bundle).filter { r in
            if let ownerWords {
                let words = RegistrySearchFolding.words(r.name)
                guard ownerWords.allSatisfy({ q in words.contains { $0.hasPrefix(q) } }) else { return false }
            }
            if let codes, !codes.contains(r.modelCode) { return false }
            if let state = query.state, r.state != state.uppercased() { return false }
            if let serial = query.serialNumber, r.serialNumber != serial, r.serialNumber != serial.uppercased() { return false }
            return true
        }.map(\.nNumber)
    }

    /// The query's matches, checked every way (by cost, marking, testing), are the oracle's.
    static func expectMatchesOracle(_ bundle: AircraftBundle, _ query: RegistrationQuery, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = oracle(bundle, query)
        for checking in RegistrySearchChecking.allCases {
            let found = try bundle.registrations(matching: query, offset: 0, limit: RegistrationQuery.maxLimit, checking: checking)
            #expect(found.total == expected.count, "\(query) \(checking)", sourceLocation: sourceLocation)
            #expect(found.records.map(\.nNumber) == expected, "\(query) \(checking)", sourceLocation: sourceLocation)
        }
    }

    @Test("the fixtures: word prefixes in any order, punctuation, models by code and name, states, serials, AND")
    func fixtures() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        func numbers(_ query: RegistrationQuery) throws -> [String] { try bundle.registrations(matching: query).records.map(\.nNumber) }
        #expect(try numbers(.init(owner: "northwind")) == ["N250JT"])
        #expect(try numbers(.init(owner: "air unit coun")) == ["N13"])          // any order, a prefix of the last
        #expect(try numbers(.init(owner: "Luft & Schiff")) == ["N600"])          // `&` is a separator, case ignored
        #expect(try numbers(.init(owner: "gannet hybrid lift")) == ["N1234"])
        #expect(try numbers(.init(owner: "county air sheriff unitx")).isEmpty)  // every word must match
        #expect(try numbers(.init(state: "ca")) == ["N14", "N31"])
        #expect(try numbers(.init(model: "2100200")) == ["N250JT"])               // an ACFTREF code
        #expect(try numbers(.init(model: "bh-9")) == ["N250JT"])                  // a model name prefix, `-` ignored
        #expect(try numbers(.init(model: "bh")) == ["N18", "N2", "N250JT"])
        #expect(try numbers(.init(model: "9999999")) == ["N17"])                  // a code ACFTREF lacks
        #expect(try numbers(.init(model: "B738")).isEmpty)                        // no designators in this bundle
        #expect(try numbers(.init(serialNumber: "bh9-0005")) == ["N250JT"])
        #expect(try numbers(.init(serialNumber: "BH9")).isEmpty)                  // whole serial numbers only
        #expect(try numbers(.init(owner: "b", state: "ks")) == ["N2"])
        #expect(try numbers(.init(owner: "blueheron", model: "bh-2", state: "KS", serialNumber: "BH2-17")) == ["N2"])
        #expect(try numbers(.init(owner: "blueheron", state: "OK")).isEmpty)
        let models = try bundle.registrations(matching: .init(model: "bh")).models.map(\.code)
        #expect(models == ["2100100", "2100200", "2100300"])

        for query in [RegistrationQuery(owner: "c"), .init(owner: "s"), .init(owner: "co air"), .init(model: "d"), .init(model: "1"),
                      .init(state: "me"), .init(owner: "a", state: "ME"), .init(state: "ZZ"), .init(serialNumber: "none")] {
            try Self.expectMatchesOracle(bundle, query)
        }
    }

    @Test("pages: limit and offset cut the N-number order, the total counts every match")
    func paging() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        let all = try bundle.registrations(matching: .init(owner: "c"), limit: 100)
        #expect(all.total == 6 && all.records.count == 6)
        var paged: [String] = []
        for offset in stride(from: 0, to: 8, by: 4) {
            let page = try bundle.registrations(matching: .init(owner: "c"), offset: offset, limit: 4)
            #expect(page.total == 6 && page.offset == offset)
            paged += page.records.map(\.nNumber)
        }
        #expect(paged == all.records.map(\.nNumber))
        #expect(try bundle.registrations(matching: .init(owner: "c"), offset: 50).records.isEmpty)
        // One stretch of one index (a state, a model code): the page is read straight from it.
        for query in [RegistrationQuery(state: "ME"), .init(model: "2100200"), .init(owner: "blueheron")] {
            let whole = try bundle.registrations(matching: query, limit: 100)
            #expect(whole.records.map(\.nNumber) == Self.oracle(bundle, query))
            let pages = try (0..<whole.total).map { try bundle.registrations(matching: query, offset: $0, limit: 1) }
            #expect(pages.flatMap { $0.records.map(\.nNumber) } == whole.records.map(\.nNumber) && pages.allSatisfy { $0.total == whole.total })
            #expect(try bundle.registrations(matching: query, offset: whole.total).records.isEmpty)
            // An offset near Int.max trapped on the direct page's arithmetic.
            let far = try bundle.registrations(matching: query, offset: .max, limit: RegistrationQuery.maxLimit)
            #expect(far.records.isEmpty && far.total == whole.total)
        }
    }

    @Test("bad queries are usage errors naming the parameter, not empty results")
    func usageErrors() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        let cases: [(RegistrationQuery, Int, Int, String)] = [
            (.init(), 0, 20, "query"), (.init(owner: "--- !"), 0, 20, "owner"), (.init(owner: ""), 0, 20, "owner"),
            (.init(model: " - "), 0, 20, "model"), (.init(state: "Georgia"), 0, 20, "state"), (.init(state: "G1"), 0, 20, "state"),
            (.init(serialNumber: "  "), 0, 20, "serial"), (.init(state: "GA"), 0, 0, "limit"), (.init(state: "GA"), 0, 10_001, "limit"),
            (.init(state: "GA"), -1, 20, "offset"), (.init(owner: String(repeating: "a", count: 201)), 0, 20, "owner"),
            (.init(owner: (1...17).map { "w\($0)" }.joined(separator: " ")), 0, 20, "owner"),
        ]
        for (query, offset, limit, field) in cases {
            #expect(throws: LocatedError.self, "\(query)") { try bundle.registrations(matching: query, offset: offset, limit: limit) }
            do { _ = try bundle.registrations(matching: query, offset: offset, limit: limit) } catch {
                #expect(error.kind == .usage && error.field == field, "\(error)")
                #expect(error.description.contains("expected"), "\(error)")
            }
        }
    }

    @Test("identifiers: N-numbers and Mode S addresses, computed N-numbers for US addresses MASTER lacks")
    func identifiers() throws {
        let bundle = try AircraftBundle(path: try buildArtifact(from: FAAFixtures.inputDirectory))
        #expect(bundle.aircraft(identifier: "250jt")?.record.nNumber == "N250JT")
        #expect(bundle.aircraft(identifier: "250jt")?.matchedBy == .registration)
        #expect(bundle.aircraft(identifier: "0xa1b2c3")?.record.nNumber == "N250JT")
        #expect(bundle.aircraft(identifier: "A1B2C3")?.matchedBy == .modeS)
        // The address computed from N10 is MASTER's only when MASTER gives N10 that code.
        let n10 = try #require(USModeS.address(nNumber: "N10"))
        if bundle.aircraft(modeSHex: n10) == nil {
            #expect(bundle.aircraft(identifier: n10)?.record.nNumber == "N10")
            #expect(bundle.aircraft(identifier: n10)?.matchedBy == .computedRegistration)
        }
        #expect(bundle.aircraft(identifier: "ADF7C7") == nil)   // N99999: not registered
        #expect(AircraftIdentifierKind("hello world") == nil && AircraftIdentifierKind("N123456") == nil)
        #expect(AircraftIdentifierKind("ZZZ") == nil && AircraftIdentifierKind("N0") == nil && AircraftIdentifierKind("NI1") == nil)
        #expect(AircraftIdentifierKind("n1-2ab") == .registration && AircraftIdentifierKind("0xa1b2c3") == .modeS)
        // The packed-key check agrees with USModeS on every spelling of up to three marks from a mixed alphabet.
        let marks = Array("019AHIOZ")
        var spellings = marks.map { String($0) }
        for _ in 0..<2 { spellings += spellings.flatMap { prefix in marks.map { prefix + String($0) } } }
        for text in Set(spellings) + ["12345", "1234A", "123AB", "12ABC", "99999", "1A2"] {
            #expect((AircraftIdentifierKind("N" + text) == .registration) == USModeS.isValid(nNumber: text), "\(text)")
        }
        #expect(AircraftIdentifierKind("123456") == .modeS && AircraftIdentifierKind("12345") == .registration)
    }

    @Test("real MASTER and ACFTREF samples: hundreds of queries agree with the oracle")
    func realSamples() throws {
        guard let directory = try FAAFixtures.sharedDirectory() else { return }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bundle = try AircraftBundle(path: try buildArtifact(from: directory))
        var queries: [RegistrationQuery] = []
        for record in Self.allRecords(bundle).prefix(120) {
            let words = RegistrySearchFolding.words(record.name)
            if let first = words.first {
                queries.append(.init(owner: String(first.prefix(3))))
                queries.append(.init(owner: words.reversed().joined(separator: " ").lowercased()))
                queries.append(.init(owner: String(first.prefix(2)), state: record.state.isEmpty ? nil : record.state))
            }
            if !record.state.isEmpty { queries.append(.init(state: record.state.lowercased())) }
            queries.append(.init(model: record.modelCode))
            queries.append(.init(serialNumber: record.serialNumber.lowercased()))
            if let model = record.model, !RegistrySearchFolding.modelKey(model.model).isEmpty {
                queries.append(.init(model: String(RegistrySearchFolding.modelKey(model.model).prefix(2))))
                queries.append(.init(owner: String(words.last?.prefix(1) ?? "a"), model: model.model))
            }
        }
        var nonEmpty = 0
        for query in queries where !(query.serialNumber?.isEmpty ?? false) && !(query.model?.isEmpty ?? false) {
            try Self.expectMatchesOracle(bundle, query)
            if try bundle.registrations(matching: query).total > 0 { nonEmpty += 1 }
        }
        #expect(queries.count > 600 && nonEmpty > 500, "\(queries.count) queries, \(nonEmpty) found something")
    }
}
