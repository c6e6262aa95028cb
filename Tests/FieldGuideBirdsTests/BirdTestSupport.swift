import FieldGuideBirds
import FieldGuideDiagnostics
import Foundation
import TestSupport

/// `Tests/Fixtures/birds/<relative>` as an absolute path.
func fixture(_ relative: String) -> String {
    TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/birds/\(relative)").path
}

/// `<path relative to the package root>` as an absolute path.
func projectPath(_ relative: String) -> String { TestPaths.packageRoot.appendingPathComponent(relative).path }

/// A finding reduced to what a test compares: severity, rule, file name, line:column.
struct Seen: Hashable, CustomStringConvertible {
    var severity: Finding.Severity
    var rule: Finding.Rule
    var file: String
    var line: Int
    var column: Int
    var description: String { "\(file):\(line):\(column) \(severity.rawValue) \(rule.rawValue)" }

    init(_ severity: Finding.Severity, _ rule: Finding.Rule, _ file: String, _ line: Int, _ column: Int) {
        self.severity = severity
        self.rule = rule
        self.file = file
        self.line = line
        self.column = column
    }

    init(_ finding: Finding) {
        self.init(finding.severity, finding.rule, (finding.file as NSString).lastPathComponent, finding.line, finding.column)
    }
}

func seen(_ findings: [Finding]) -> [Seen] { findings.map(Seen.init) }

/// Parses a string as a JSON document.
func parse(_ text: String) throws -> JSONDocument { try JSONDocument.parse(Array(text.utf8)) }

/// The syntax error a string gives.
func syntaxError(_ text: String) -> LocatedError? {
    do { _ = try JSONDocument.parse(Array(text.utf8)); return nil } catch { return error }
}
