import FieldGuide
import FieldGuideArtifact
import FieldGuideDiagnostics
import Foundation
import Testing
import TestSupport

/// The aircraft artifact under structure-aware mutation: every checksum valid, any word of a
/// section's first rows changed; opening and every query give a typed error or wrong text.
@Suite("Crafted aircraft artifacts: valid checksums, hostile structure")
struct CraftedAircraftArtifactTests {
    static func exercise(_ bundle: AircraftBundle) {
        for n in ["N90", "N250JT", "N4477", "1", "N99999"] {
            if let record = bundle.aircraft(registration: n) { _ = (record.info, bundle.enrichment(for: record)) }
        }
        for hex in ["A00C12", "AC6CD2", "000000", "FFFFFF"] { _ = bundle.aircraft(modeSHex: hex)?.info }
        for prefix in ["", "B", "CESS", "Z"] {
            for manufacturer in bundle.manufacturers(prefix: prefix, limit: 20) { _ = manufacturer.models.map(\.info) }
        }
        for code in ["2072738", "0020901", ""] { _ = bundle.model(code: code)?.info }
        for code in ["17020", "41514", ""] { _ = bundle.engine(code: code)?.code }
        for table in AircraftSchema.CodeTable.allCases { _ = bundle.codeTable(table) }
        for query in registryQueries {
            for record in (try? bundle.registrations(matching: query, limit: 50))?.records ?? [] {
                _ = (record.info, bundle.enrichment(for: record), record.ownerWithheld)
            }
        }
        for identifier in ["N250JT", "A1B2C3", "ADF7C7", "0xA00002", "AC6CD2"] { _ = bundle.aircraft(identifier: identifier)?.record.info }
    }

    /// Queries that reach every search section: owner words (one and several, broad and
    /// narrow), model codes and names, an orphan code, states, serial numbers, combinations.
    static let registryQueries: [RegistrationQuery] = [
        .init(owner: "c"), .init(owner: "northwind charter"), .init(owner: "a b"), .init(model: "bh"), .init(model: "2100200"),
        .init(model: "9999999"), .init(model: "1"), .init(state: "ME"), .init(state: "CA"), .init(serialNumber: "BH9-0005"),
        .init(owner: "a", state: "CA"), .init(owner: "s", model: "d", state: "NM"), .init(model: "c", serialNumber: "CR6-031"),
    ]

    static let searchSections: Set<String> = ["XSTR", "OWRD", "OWNP", "MNAM", "RBMD", "MREG", "RBST", "RBSN", "PRIV"]

    @Test("one word of each section's first rows set to huge and mid values: no crash in any query")
    func everySectionWord() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-aircraft")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let variants = try ArtifactSurgery.wordVariants(of: path, values: [0xFFFF_FFF0, 0x00FF_FFFF, 0x7FFF_FFFF])
        #expect(variants.count > 200)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        var opened = 0
        for variant in variants {
            try Data(variant.data).write(to: crafted)
            guard let bundle = try? AircraftBundle(path: crafted.path, verification: .full) else { continue }
            opened += 1
            Self.exercise(bundle)
        }
        #expect(opened * 2 > variants.count)
    }

    @Test("every word of every search section set to huge and mid values: queries give wrong results, never a crash")
    func everySearchWord() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-search")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let variants = try ArtifactSurgery.wordVariants(of: path, words: 10_000, values: [0xFFFF_FFF0, 0x00FF_FFFF, 1],
                                                        sections: Self.searchSections)
        #expect(Set(variants.map(\.section)) == Self.searchSections)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        var opened = 0
        for variant in variants {
            try Data(variant.data).write(to: crafted)
            // Header-only opening skips the pool's structure check: all but a pool's count reach the queries.
            do {
                Self.exercise(try AircraftBundle(path: crafted.path, verification: .headerOnly))
                opened += 1
            } catch {
                #expect(variant.section == "XSTR" && variant.offset == 0 && error.kind == .corrupt, "\(variant.section) \(error)")
            }
        }
        #expect(variants.count > 500 && opened + 3 >= variants.count, "\(opened) of \(variants.count)")
    }

    @Test("a search section missing: without XSTR the bundle opens and searching is a typed error; without another, opening is")
    func missingSearchSection() throws {
        let directory = try TestPaths.temporaryDirectory("crafted-missing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try buildArtifact(from: FAAFixtures.inputDirectory, into: directory.path)
        let crafted = directory.appendingPathComponent("crafted.fgb")
        for tag in Self.searchSections.sorted() {
            try Data(try ArtifactSurgery.renamingSection(of: path, tag, to: "ZZZZ")).write(to: crafted)
            switch tag {
            case "XSTR":
                let bundle = try AircraftBundle(path: crafted.path)
                #expect(throws: LocatedError.self) { try bundle.registrations(matching: .init(state: "ME")) }
                #expect(bundle.aircraft(registration: "N250JT") != nil)
            case "PRIV":
                #expect(try AircraftBundle(path: crafted.path).ownerRedaction == .none)
            default:
                #expect(throws: FieldGuideError.self, "\(tag)") { try AircraftBundle(path: crafted.path) }
                do { _ = try AircraftBundle(path: crafted.path) } catch {
                    #expect(error.kind == .corrupt && error.description.contains("section \(tag): missing"), "\(error)")
                }
            }
        }
        let fieldguide = try TestPaths.run("fieldguide", ["registrations", "--owner", "x", "--bundle", crafted.path])
        #expect(fieldguide.status == 1 && fieldguide.stderr.contains("has no registry search sections (XSTR, OWRD, …)"), "\(fieldguide.stderr)")
    }
}
