import FieldGuideCSV
import FieldGuideXML
import Foundation

/// Why an export file (or the run) could not be read: where, and what went wrong.
///
/// A file error names `file:line:col` when the parser knows the column (XML), else `file:line`.
///
/// ```swift
/// do { try ExportFileReader.read(path: "trip.gpx") { _ in } } catch {
///     print(error)    // trip.gpx:3:9: Opening and ending tag mismatch: wpt line 2 and trk
/// }
/// ```
public struct ExportsError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// The file or directory could not be opened, read or written.
        case unreadable
        /// A zero-byte (or white-space only) file.
        case empty
        /// Bytes that are not valid for the format (XML not well formed, a plist element out of place).
        case malformed
        /// Text that is not the encoding the file declares (Latin-1 bytes in a UTF-8 file).
        case encoding
        /// Refused on purpose: entity declarations and references (expansion attacks, external entities).
        case refused
        /// A readable file that is none of the export formats.
        case unrecognized
    }

    public var kind: Kind
    public var file: String
    public var line: Int
    public var column: Int?
    public var message: String

    public init(_ kind: Kind, file: String, line: Int = 0, column: Int? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = file
        if line > 0 { location += ":\(line)" }
        if line > 0, let column { location += ":\(column)" }
        return "\(location): \(message)"
    }

    /// The XML reader's error, classified (encoding problems and refused entities apart).
    init(_ error: XMLError) {
        let message = error.message.split(whereSeparator: \.isNewline).map { $0.trimmedASCII }.joined(separator: " ")
        let kind: Kind
        if message.contains("not proper UTF-8") || message.contains("encoding") || message.contains("Invalid bytes") { kind = .encoding }
        else if message.contains("entit") || message.contains("Entit") { kind = .refused }
        else if message.contains("Document is empty") { kind = .empty }
        else { kind = .malformed }
        self.init(kind, file: error.file, line: max(error.line, 1), column: max(error.column, 1), message: message)
    }

    init(_ error: CSVError) {
        self.init(error.kind == .io ? .unreadable : .malformed, file: error.file, line: error.line ?? 0, message: error.message)
    }
}
