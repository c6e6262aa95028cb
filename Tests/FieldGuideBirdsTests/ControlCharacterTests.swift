import FieldGuideBirds
import Foundation
import Testing
import TestSupport

/// A seed string with a NUL or an escape sequence (JSON lets them in as `\u0000`, `\u001b`):
/// an error where it is, printed on one line; tabs and line breaks stay allowed.
@Suite("Seed text with control characters")
struct ControlCharacterTests {
    /// input/birds with the Mallard's common name and the database's description changed.
    static func seeds(name: String, description: String) throws -> URL {
        let directory = try TestPaths.temporaryDirectory("control-seeds")
        try FileManager.default.copyItem(atPath: TestPaths.input.path + "/birds", toPath: directory.path + "/birds")
        let path = directory.path + "/birds/bird_database.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: #""commonName": "Mallard""#, with: #""commonName": ""# + name + #"""#)
            .replacingOccurrences(of: #""description": "FieldGuide fixture"#, with: #""description": ""# + description + "FieldGuide fixture")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return directory
    }

    @Test("a NUL and an escape in a common name: one error at the string, its pointer, the text escaped; a tab and a line break in a description pass")
    func rule() throws {
        let directory = try Self.seeds(name: #"Mal\u0000lard\u001b[31m"#, description: #"two\tcolumns\nand lines: "#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try SeedValidator().validate(paths: [directory.path + "/birds"])
        let found = report.findings.filter { $0.rule == .text }
        #expect(found.count == 1, "\(report.findings)")
        #expect(found.first?.severity == .error && found.first?.pointer == "/birds/0/commonName")
        #expect(found.first?.line == 113 && found.first?.column == 27)
        #expect(found.first?.message == #"a control character (U+0000) in "Mal\u{0}lard\u{1B}[31m": apps would show it as garbage or cut the text there"#)
        #expect(report.findings.allSatisfy { !$0.description.contains("\u{1B}") && !$0.description.contains("\0") })
    }

    @Test("every way JSON writes one is found (\\b, \\f, \\u001B, a raw DEL); an escaped backslash before u0000, \\u0009 and \\n are not")
    func escapes() throws {
        let cases: [(name: String, found: String?)] = [
            (#"Mallard\b"#, "U+0008"), (#"Mallard\f"#, "U+000C"), (#"Mallard\u001B"#, "U+001B"),
            (#"Mallard\u007f"#, "U+007F"), ("Mallard\u{7F}", "U+007F"),
            (#"Mallard\\u0000"#, nil), (#"Mallard\u0009"#, nil), (#"Mallard\n"#, nil), (#"Mall\u00e9rd"#, nil),
        ]
        for (name, expected) in cases {
            let directory = try Self.seeds(name: name, description: "")
            defer { try? FileManager.default.removeItem(at: directory) }
            let found = try SeedValidator().validate(paths: [directory.path + "/birds"]).findings.filter { $0.rule == .text }
            #expect(found.map { String($0.message.dropFirst(21).prefix(6)) } == (expected.map { [$0] } ?? []), "\(name): \(found)")
        }
    }

    @Test("validate and ingest-birds: exit 1, the error on one line, no hand-off written")
    func executables() throws {
        let directory = try Self.seeds(name: #"Mallard\u0007"#, description: "")
        defer { try? FileManager.default.removeItem(at: directory) }
        let validate = try TestPaths.run("validate", [directory.path + "/birds"])
        #expect(validate.status == 1, "\(validate.stderr)")
        #expect(validate.stdout.contains(#"bird_database.json:113:27: error: a control character (U+0007) in "Mallard\u{7}""#), "\(validate.stdout)")
        #expect(!validate.stdout.contains("\u{7}"), "\(validate.stdout)")
        let ingest = try TestPaths.run("ingest-birds", [directory.path + "/birds", "--output", directory.path + "/out"])
        #expect(ingest.status == 1, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("a control character (U+0007)"), "\(ingest.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/out/species.csv"))
    }
}
