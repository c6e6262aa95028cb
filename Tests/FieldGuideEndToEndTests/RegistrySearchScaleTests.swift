import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCSV
import FieldGuideEmit
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// The registry search on a generated registry large enough for every way of running a query:
/// drivers of one stretch, of a few rows (sorted) and of many (a bitmap); other sets walked by
/// a cursor, marked or tested one by one. Every way gives the oracle's matches.
@Suite("Registry search at scale: every strategy agrees with the oracle")
struct RegistrySearchScaleTests {
    static let words = ["AIR", "AIRWAYS", "AERO", "ALPHA", "BLUE", "BRAVO", "CEDAR", "CHARTER", "DELTA", "EAGLE", "FLIGHT",
                        "GROUP", "HAWK", "INC", "JOHN", "JONES", "KELLY", "LLC", "MARTIN", "O'BRIEN", "PETERS", "SMITH", "WING", "WEST"]
    static let states = ["GA", "CA", "TX", "ME", "AK", ""]

    /// 40 models of 8 names, 6,000 registrations with two- or three-word owners.
    static func bundle(in directory: URL) throws -> AircraftBundle {
        let names = ["SKYHAWK", "SKYLANE", "SR-22", "SR-20", "737-800", "737-700", "KING AIR 200", "BH-900 JET"]
        let models = (0..<40).map { AircraftModel(code: String(format: "%07d", 1_000 + $0), manufacturer: "MAKER \($0 % 5)", model: names[$0 % 8]) }
        var builder = AircraftArtifactBuilder(models: models, engines: [], expectedRegistrations: 6_000)
        var rng = SystemRandomNumberGenerator()
        for index in 0..<6_000 {
            var fields = [String](repeating: "", count: NormalizedFAA.RegistrationField.allCases.count)
            typealias F = NormalizedFAA.RegistrationField
            fields[F.nNumber.rawValue] = "N\(index + 1)"
            fields[F.serialNumber.rawValue] = "SN-\(index % 3_000)"
            fields[F.modelCode.rawValue] = index % 97 == 0 ? "9999999" : models[Int.random(in: 0..<models.count, using: &rng)].code
            fields[F.name.rawValue] = (0..<Int.random(in: 2...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
            fields[F.state.rawValue] = states.randomElement(using: &rng)!
            try builder.addRegistration(CSVRecord(line: index + 2, index: index + 1, fields: fields))
        }
        let path = directory.appendingPathComponent("aircraft.fgb").path
        try builder.build().artifact.write(to: path)
        return try AircraftBundle(path: path)
    }

    @Test("hundreds of random queries over 6,000 registrations, each checked by cost, by marking and by testing")
    func randomQueries() throws {
        let directory = try TestPaths.temporaryDirectory("registry-scale")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try Self.bundle(in: directory)
        var rng = SystemRandomNumberGenerator()
        var queries: [RegistrationQuery] = [.init(owner: "a"), .init(owner: "a b c"), .init(owner: "air air"), .init(model: "sky"),
                                            .init(model: "9999999"), .init(owner: "obrien", state: "GA"), .init(state: "tx")]
        for _ in 0..<150 {
            func word() -> String { String(Self.words.randomElement(using: &rng)!.prefix(Int.random(in: 1...4, using: &rng))) }
            var query = RegistrationQuery()
            if Bool.random(using: &rng) { query.owner = (0..<Int.random(in: 1...3, using: &rng)).map { _ in word() }.joined(separator: " ") }
            if Int.random(in: 0..<3, using: &rng) == 0 { query.model = ["sky", "sr2", "7", "1001", "0001010", "king", "b"].randomElement(using: &rng)! }
            if Int.random(in: 0..<3, using: &rng) == 0 { query.state = Self.states.dropLast().randomElement(using: &rng)! }
            if Int.random(in: 0..<8, using: &rng) == 0 { query.serialNumber = "sn-\(Int.random(in: 0..<3_000, using: &rng))" }
            if query == RegistrationQuery() { query.owner = word() }
            queries.append(query)
        }
        var large = 0
        for query in queries {
            try RegistrySearchTests.expectMatchesOracle(bundle, query)
            if try bundle.registrations(matching: query).total > 256 { large += 1 }
        }
        #expect(large > 30, "\(large) queries with more than 256 matches")
    }
}
