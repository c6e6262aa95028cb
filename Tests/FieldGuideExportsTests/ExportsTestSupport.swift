@testable import FieldGuideExports
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import TestSupport

/// What one export file gave: its observations, issues and summary.
struct ReadResult {
    var observations: [Observation] = []
    var issues: [RowIssue] = []
    var summary: ExportFileSummary?
}

final class Collector {
    var result = ReadResult()
}

/// Reads one file through the format-sniffing reader.
func readExport(_ path: String, name: String? = nil) throws(LocatedError) -> ReadResult {
    let collector = Collector()
    let sink = RecordSink(observe: { collector.result.observations.append($0) }, issue: { collector.result.issues.append($0) })
    collector.result.summary = try ExportFileReader.read(path: path, displayName: name, sink: sink)
    return collector.result
}

/// The error a file is refused with (nil when it reads).
func refusal(_ path: String) -> LocatedError? {
    do { _ = try readExport(path); return nil } catch { return error }
}

enum ExportFixtures {
    static var input: String { TestPaths.input.appendingPathComponent("exports").path }
    /// A small ICAO type table (kept out of input/, whose JSON the bird seed check reads).
    static var icaoTypes: String { TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/aircraft/icao-types.json").path }
    static func broken(_ name: String) -> String {
        TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/exports/\(name)").path
    }

    /// Writes `text` to a fresh temporary file.
    static func write(_ text: String, name: String) throws -> String {
        let path = try TestPaths.temporaryDirectory("exports").appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

extension Double {
    func close(to other: Double, within tolerance: Double = 1e-6) -> Bool { abs(self - other) <= tolerance }
}
