import FieldGuideDiagnostics
import Foundation

/// The one report every ingest stage writes: how it ended, what it read (with SHA-256 and row
/// counts), what it wrote (with SHA-256), how many findings, and named counts.
///
/// Written with ``write(to:)`` (deterministic bytes through ``JSON``), decoded typed by the
/// pipeline and by ``HandOff``, which checks the outputs before an emit stage reads them.
/// Stage-specific facts are named counts (`registrationsWithoutModel`) or the typed optional
/// fields below (`generation`, `findings.listed`). The emit stages' `manifest.json` reuses
/// its ``Tool``, ``Source`` and ``Rows``.
///
/// ```swift
/// var report = StageReport(stage: "ingest-faa", status: .ok)
/// report.sources.append(.init(file: "MASTER.txt", bytes: 3_080, sha256: "9f…", rows: .init(read: 20, kept: 20)))
/// report.outputs.append(.init(file: "registrations.csv", bytes: 4_211, sha256: "0c…"))
/// report.counts["registrationsWithoutModel"] = 1
/// try report.write(to: "output/stage/faa/faa-ingest.json")
/// ```
public struct StageReport: Codable, Sendable, Equatable {
    /// How the stage ended.
    public enum Status: String, Codable, Sendable {
        /// Every output was written; the hand-off may be read.
        case ok
        /// The input was read and refused (a wrong header, rejects over the share, errors in
        /// the seed files, an export that does not read); the stage exits 1.
        case rejected
        /// The stage could not do its work (a file it could not read or write); exit 2.
        case failed
    }

    /// The program that wrote a report or manifest.
    public struct Tool: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
        public init(name: String, version: String) { self.name = name; self.version = version }

        /// This build of FieldGuide (`ToolInfo`).
        public static let current = Tool(name: ToolInfo.name, version: ToolInfo.version)
    }

    /// What became of a source's rows.
    public struct Rows: Codable, Sendable, Equatable {
        public var read: Int
        public var kept: Int
        public var rejected: Int
        public var warnings: Int
        public init(read: Int = 0, kept: Int = 0, rejected: Int = 0, warnings: Int = 0) {
            self.read = read; self.kept = kept; self.rejected = rejected; self.warnings = warnings
        }

        /// Both counts added field by field, each stopping at `Int.max` (or `Int.min`) rather than
        /// overflowing: counts read back from a report or manifest are never trusted to be small.
        public static func + (a: Rows, b: Rows) -> Rows {
            func add(_ x: Int, _ y: Int) -> Int {
                let (sum, overflow) = x.addingReportingOverflow(y)
                return overflow ? (y > 0 ? .max : .min) : sum
            }
            return Rows(read: add(a.read, b.read), kept: add(a.kept, b.kept), rejected: add(a.rejected, b.rejected),
                        warnings: add(a.warnings, b.warnings))
        }
    }

    /// One input file: its name, size, SHA-256 and what became of its rows.
    public struct Source: Codable, Sendable, Equatable {
        public var file: String
        public var bytes: Int
        public var sha256: String
        public var rows: Rows
        public init(file: String, bytes: Int, sha256: String, rows: Rows) {
            self.file = file; self.bytes = bytes; self.sha256 = sha256; self.rows = rows
        }
    }

    /// One file the stage wrote into its output directory, for the next stage to check.
    public struct Output: Codable, Sendable, Equatable {
        public var file: String
        public var bytes: Int
        public var sha256: String
        public init(file: String, bytes: Int, sha256: String) { self.file = file; self.bytes = bytes; self.sha256 = sha256 }

        private enum CodingKeys: String, CodingKey { case file, bytes, sha256 }

        /// Decoded only as a name in the report's own directory: readers join it to that
        /// directory and open it, so `../../dev/zero` in a crafted report would be read for ever.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            file = try container.decode(String.self, forKey: .file)
            bytes = try container.decode(Int.self, forKey: .bytes)
            sha256 = try container.decode(String.self, forKey: .sha256)
            guard Self.isFileName(file) else {
                throw DecodingError.dataCorruptedError(forKey: .file, in: container,
                                                       debugDescription: "expected the name of a file beside the report, found \"\(file)\"")
            }
        }

        /// A name with no directory in it: not empty, `.` or `..`, and without `/` or NUL.
        static func isFileName(_ name: String) -> Bool {
            !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(0)
        }
    }

    /// One finding, located, for a stage that has no rejects file to list it in.
    public struct Finding: Codable, Sendable, Equatable, CustomStringConvertible {
        public enum Severity: String, Codable, Sendable { case error, warning }
        public var severity: Severity
        /// The rule it comes from (`reference`, `range`), when the stage has rules.
        public var rule: String?
        public var file: String
        public var line: Int?
        public var column: Int?
        public var message: String
        public init(_ severity: Severity, rule: String? = nil, file: String, line: Int? = nil, column: Int? = nil, message: String) {
            self.severity = severity; self.rule = rule; self.file = file; self.line = line; self.column = column; self.message = message
        }

        /// `file:line:column: severity: message`.
        public var description: String {
            file + (line.map { ":\($0)" } ?? "") + (column.map { ":\($0)" } ?? "") + ": \(severity.rawValue): \(message)"
        }
    }

    /// How many findings: errors (rows rejected, or problems that fail the stage) and warnings.
    public struct Findings: Codable, Sendable, Equatable {
        public var errors: Int
        public var warnings: Int
        /// Every finding, when the stage has no rejects file of its own (`ingest-birds`).
        public var listed: [Finding]?
        public init(errors: Int = 0, warnings: Int = 0, listed: [Finding]? = nil) {
            self.errors = errors; self.warnings = warnings; self.listed = listed
        }
    }

    /// The stage executable (`ingest-faa`).
    public var stage: String
    public var status: Status
    public var tool: Tool
    /// Why the stage did not end `ok`.
    public var failure: String?
    /// Every input file, in the order read.
    public var sources: [Source]
    /// The hand-off files, kept sorted by name (the report itself is not listed).
    public var outputs: [Output] {
        didSet { if !outputs.isSorted { outputs.sort { $0.file < $1.file } } }
    }
    public var findings: Findings
    /// Named counts (`registrationsWithoutModel`, `species`, `observations.bird` …).
    public var counts: [String: Int]
    /// The schema generation of the bird database read (`3.0`, `2.1`, `1.2`); `ingest-birds` only.
    public var generation: String?

    public init(stage: String, status: Status, tool: Tool = .current, failure: String? = nil, sources: [Source] = [],
                outputs: [Output] = [], findings: Findings = Findings(), counts: [String: Int] = [:], generation: String? = nil) {
        self.stage = stage
        self.status = status
        self.tool = tool
        self.failure = failure
        self.sources = sources
        self.outputs = outputs.sorted { $0.file < $1.file }
        self.findings = findings
        self.counts = counts
        self.generation = generation
    }

    /// The output entry for a file name.
    public func output(named file: String) -> Output? { outputs.first { $0.file == file } }

    /// Rows summed over every source (nil when the report has no sources).
    public var rows: Rows? { sources.isEmpty ? nil : sources.map(\.rows).reduce(Rows(), +) }

    /// The report's bytes: sorted keys, pretty printed, final newline.
    public func encoded() throws(LocatedError) -> [UInt8] {
        do { return try JSON.encode(self) } catch {
            throw LocatedError(.unwritable, file: stage, message: "cannot encode the stage report: \(error)")
        }
    }

    /// Writes the report atomically.
    public func write(to path: String) throws(LocatedError) {
        try AtomicFile.write(try encoded(), to: path)
    }

    /// The largest report read: 64 MiB (the nightly's are a few KB; `ingest-exports` lists
    /// each file it read, some 300 bytes a file).
    public static let maximumBytes = 64 << 20

    /// Reads a report; a file that is missing, past `maximumBytes`, or not a stage report is a
    /// located error.
    /// `document` names the report in the error of a file that is not JSON at all (`the ingest
    /// report is not valid JSON`).
    public static func read(from path: String, as document: String = "the stage report") throws(LocatedError) -> StageReport {
        guard FileManager.default.fileExists(atPath: path) else {
            throw LocatedError(.missingFile, file: path, message: "expected a stage report, found none")
        }
        let data = try BoundedRead.data(atPath: path, limit: maximumBytes, what: "a stage report")
        do { return try JSONDecoder().decode(StageReport.self, from: data) } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw LocatedError(.malformed, file: path, message: "\(document) is not valid JSON")
        } catch {
            throw LocatedError(.malformed, file: path, message: "expected a stage report, found JSON that does not decode as one: \(Self.reason(error))")
        }
    }

    /// A decoding error in a few words (`keyNotFound "status"`).
    package static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "no \"\(path(context.codingPath + [key]))\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\"\(path(context.codingPath))\" \(context.debugDescription.prefix(1).lowercased() + context.debugDescription.dropFirst())"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\"\(path(context.codingPath))\": \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().drop { $0 == "." }.description
    }
}

private extension Array where Element == StageReport.Output {
    var isSorted: Bool { zip(self, dropFirst()).allSatisfy { $0.file <= $1.file } }
}
