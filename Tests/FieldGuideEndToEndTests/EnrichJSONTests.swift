import FieldGuide
import FieldGuideCore
import Foundation
import Testing
import TestSupport

/// `fieldguide enrich --from FILE --format json` writes its lines by hand (`JSONLineWriter`):
/// they must be the bytes `JSONEncoder` wrote before, on every registration of an artifact.
@Suite("enrich --format json: JSONEncoder's bytes, written by hand")
struct EnrichJSONTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The shape `EnrichBatch.Row` had when `JSONEncoder` wrote it.
    struct EncodedRow: Encodable {
        let line: Int
        let input: String
        let status: String
        let matchedBy: AircraftIdentifierKind?
        let enrichment: AircraftEnrichment?
    }

    @Test("every ASCII character, Latin-1, emoji, U+2028 and slashes escape as JSONEncoder escapes them")
    func strings() throws {
        var texts = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["", "JOSÉ \"DOC\" O'BRIEN", "C:\\AIR\\PLANES", "a/b//c", "✈️ N250JT", "line\u{2028}separator", "\u{7F}\u{80}\u{FEFF}",
                  "tab\there\r\nnext\u{1}\u{1F}\u{0}"]
        for text in texts {
            var bytes: [UInt8] = []
            JSONLineWriter.appendString(text, to: &bytes)
            #expect(bytes == Array(try Self.encoder.encode(text)), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// The enrich rows of `lines` (one identifier a line), as JSONEncoder writes them.
    static func expected(_ lines: [String], bundle: AircraftBundle) throws -> [String] {
        try lines.enumerated().map { index, input in
            var row = EncodedRow(line: index + 1, input: input, status: "invalid", matchedBy: nil, enrichment: nil)
            if AircraftIdentifierKind(input) != nil {
                if let found = bundle.aircraft(identifier: input) {
                    row = EncodedRow(line: index + 1, input: input, status: "found", matchedBy: found.matchedBy,
                                     enrichment: bundle.enrichment(for: found.record))
                } else {
                    row = EncodedRow(line: index + 1, input: input, status: "not_found", matchedBy: nil, enrichment: nil)
                }
            }
            return String(decoding: try encoder.encode(row), as: UTF8.self)
        }
    }

    /// Every registration of `master` by N-number and by Mode S address, and some that are not.
    static func identifiers(_ master: String) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: master)), as: UTF8.self)
        var identifiers: [String] = []
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 33 else { continue }
            identifiers.append("N" + fields[0].trimmingCharacters(in: .whitespaces))
            let hex = fields[33].trimmingCharacters(in: .whitespaces)
            if !hex.isEmpty { identifiers.append(hex) }
        }
        return identifiers + ["N99999", "ADF7C7", "not an id", "N0123", "back\\slash"]
    }

    static func check(master: String, sources: String, name: String) throws {
        let directory = try TestPaths.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let artifact = try buildArtifact(from: sources, into: directory.path)
        let identifiers = try identifiers(master)
        let list = directory.appendingPathComponent("list.txt")
        try identifiers.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let run = try TestPaths.run("fieldguide", ["enrich", "--from", list.path, "--bundle", artifact, "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let expected = try expected(identifiers, bundle: try AircraftBundle(path: artifact)) + [""]
        #expect(lines.count == expected.count)
        let mismatch = Array(zip(lines, expected)).firstIndex { $0 != $1 }
        #expect(mismatch == nil, "line \(mismatch.map { $0 + 1 } ?? 0): \(mismatch.map { lines[$0] } ?? "")\nJSONEncoder: \(mismatch.map { expected[$0] } ?? "")")
    }

    @Test("input/faa: every registration by N-number and Mode S, not found and invalid lines: JSONEncoder's bytes")
    func fixtures() throws {
        try Self.check(master: FAAFixtures.inputDirectory + "/MASTER.txt", sources: FAAFixtures.inputDirectory, name: "enrich-json")
    }

    @Test("the real MASTER sample (../shared): every registration, JSONEncoder's bytes")
    func shared() throws {
        guard let sources = try FAAFixtures.sharedDirectory() else {
            print("skipped: ../shared/data/faa is absent")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: sources) }
        try Self.check(master: sources + "/MASTER.txt", sources: sources, name: "enrich-json-shared")
    }
}
