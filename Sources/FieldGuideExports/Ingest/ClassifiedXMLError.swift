import FieldGuideDiagnostics
import Foundation

/// The XML reader's error for an export file, classified by libxml2's words: text that is not
/// its declared encoding (`.encoding`), entity declarations and references (`.refused`), an
/// empty document (`.empty`), anything else not well formed (`.malformed`). The message is
/// joined onto one line, and the error placed at line and column 1 at least.
///
/// ```swift
/// do { _ = try XMLStreamReader(path: "trip.gpx").next() }
/// catch { print(classifiedXMLError(error)) }   // trip.gpx:3:9: Opening and ending tag mismatch: wpt line 2 and trk
/// ```
func classifiedXMLError(_ error: LocatedError) -> LocatedError {
    let message = error.message.split(whereSeparator: \.isNewline).map { $0.trimmedASCII }.joined(separator: " ")
    var kind = error.kind
    if kind == .malformed {
        if message.contains("not proper UTF-8") || message.contains("encoding") || message.contains("Invalid bytes") { kind = .encoding }
        else if message.contains("entit") || message.contains("Entit") { kind = .refused }
        else if message.contains("Document is empty") { kind = .empty }
    }
    return LocatedError(kind, file: error.file, line: max(error.line ?? 0, 1), column: max(error.column ?? 0, 1), message: message)
}
