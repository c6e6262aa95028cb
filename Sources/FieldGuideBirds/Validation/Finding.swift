import FieldGuideCSV
import FieldGuideDiagnostics

/// One problem found in a seed file: how bad, which rule, where (file, line, column, JSON
/// pointer) and what.
///
/// ```swift
/// let finding = Finding(.error, .range, file: "bird_database.json", location: .init(line: 61, column: 30),
///                       pointer: "/birds/7/size_category", message: "size_category 5 is outside 0–4")
/// finding.description   // bird_database.json:61:30: error: size_category 5 is outside 0–4
/// ```
public struct Finding: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How bad a finding is: an error fails validation; a warning fails it only with `--strict`.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        case warning
        case error

        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }

    /// The rule a finding comes from (its `rule` in JSON output).
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable {
        /// The file is not JSON (or not readable CSV).
        case syntax
        /// A missing or mistyped field, a repeated key, an unknown file kind or generation.
        case schema
        /// An id or name that points at nothing (shape, field mark, variant, bird).
        case reference
        /// The same id, common name or scientific name twice.
        case duplicate
        /// A number outside its range (size, month, week, probability, coordinate, dates).
        case range
        /// `metadata.total_species` disagrees with the birds listed.
        case count
        /// A vocabulary value one or two edits from another (`Dessert` / `Desert`).
        case vocabulary
        /// A scientific name that is not a binomial `Genus species`.
        case binomial
        /// A bird whose name or family disagrees with the eBird/Clements taxonomy.
        case taxonomy
        /// A value in a CSV or text file that is not valid UTF-8, read as Latin-1.
        case encoding
        /// A string holding a control character other than a tab or a line break (NUL, ESC):
        /// an error in a seed, a warning where a CSV or text file's value was kept with U+FFFD.
        case text

        /// The rule of a reading a CSV or text reader reports (`TextReading`).
        init(_ kind: TextReading.Kind) {
            switch kind {
            case .latin1: self = .encoding
            case .controlCharacter: self = .text
            }
        }
    }

    public var severity: Severity
    public var rule: Rule
    public var file: String
    public var line: Int
    public var column: Int
    /// The JSON pointer of the value (or, for a missing field, of the field that should be there).
    public var pointer: String
    public var message: String

    public init(_ severity: Severity, _ rule: Rule, file: String, location: SourceLocation, pointer: String, message: String) {
        self.severity = severity
        self.rule = rule
        self.file = file
        self.line = location.line
        self.column = location.column
        self.pointer = pointer
        self.message = message
    }

    public var location: SourceLocation { SourceLocation(line: line, column: column) }

    /// One line: control characters in the file name or the message are escaped
    /// (``LocatedError/visible(_:)``), so a name echoed from the file cannot split it.
    public var description: String {
        "\(LocatedError.visible(file)):\(line):\(column): \(severity.rawValue): \(LocatedError.visible(message))"
    }
}

/// Collects the findings about one file, turning JSON pointers and offsets into line:column.
///
/// ```swift
/// let sink = FindingSink(file: "watchlists.json", document: document)
/// sink.error(.range, at: "/0/startDate", "startDate is after endDate")
/// ```
public final class FindingSink {
    public let file: String
    public let document: JSONDocument?
    public private(set) var findings: [Finding] = []

    public init(file: String, document: JSONDocument?) {
        self.file = file
        self.document = document
    }

    /// A finding at the value `pointer` names (or its deepest existing ancestor).
    public func add(_ severity: Finding.Severity, _ rule: Finding.Rule, at pointer: String, _ message: String) {
        var location = SourceLocation(line: 1, column: 1)
        if let document { location = document.location(of: document.deepestValue(at: pointer).value) }
        findings.append(Finding(severity, rule, file: file, location: location, pointer: pointer, message: message))
    }

    /// A finding at a known byte offset.
    public func add(_ severity: Finding.Severity, _ rule: Finding.Rule, at pointer: String, offset: Int, _ message: String) {
        let location = document?.location(ofOffset: offset) ?? SourceLocation(line: 1, column: 1)
        findings.append(Finding(severity, rule, file: file, location: location, pointer: pointer, message: message))
    }

    /// A finding at an explicit line and column (CSV files, syntax errors).
    public func add(_ severity: Finding.Severity, _ rule: Finding.Rule, at location: SourceLocation, pointer: String = "", _ message: String) {
        findings.append(Finding(severity, rule, file: file, location: location, pointer: pointer, message: message))
    }

    public func error(_ rule: Finding.Rule, at pointer: String, _ message: String) { add(.error, rule, at: pointer, message) }
    public func warning(_ rule: Finding.Rule, at pointer: String, _ message: String) { add(.warning, rule, at: pointer, message) }
}
