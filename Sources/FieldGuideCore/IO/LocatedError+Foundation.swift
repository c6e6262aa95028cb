import FieldGuideDiagnostics
import Foundation

extension LocatedError {
    /// A file operation Foundation or POSIX refused, in the operating system's words: a file
    /// that is not there is `.missingFile`, anything else `kind` (`.unreadable` by default).
    ///
    /// ```swift
    /// do { _ = try Data(contentsOf: URL(fileURLWithPath: path)) }
    /// catch { throw LocatedError(path, failed: error) }   // path: No such file or directory
    /// ```
    public init(_ file: String, failed error: any Error, _ kind: Kind = .unreadable, doing action: String? = nil) {
        let reason = SystemReason.of(error)
        let missing = reason == String(cString: strerror(ENOENT))
        self.init(missing && kind == .unreadable ? .missingFile : kind, file: file,
                  message: action.map { "\($0): \(reason)" } ?? reason)
    }

    /// A JSON file that did not decode as `document`: the coding path as the field, what was
    /// expected and what was found, never the decoder's dump. A read failure is reported as by
    /// ``init(_:failed:_:doing:)``.
    ///
    /// ```swift
    /// LocatedError(decoding: error, file: "faa-ingest.json", in: "the ingest report")
    /// // faa-ingest.json: sources[0].bytes: wrong type in the ingest report (expected an integer; found a string)
    /// ```
    public init(decoding error: any Error, file: String, in document: String) {
        guard let error = error as? DecodingError else {
            self.init(file, failed: error)
            return
        }
        switch error {
        case let .typeMismatch(type, context):
            self.init(.invalidValue, file: file, field: Self.field(context.codingPath), expected: Self.describe(type),
                      found: Self.found(in: context.debugDescription), message: "wrong type in \(document)")
        case let .valueNotFound(type, context):
            self.init(.invalidValue, file: file, field: Self.field(context.codingPath), expected: Self.describe(type),
                      found: "null", message: "missing value in \(document)")
        case let .keyNotFound(key, context):
            self.init(.invalidValue, file: file, field: Self.field(context.codingPath + [key]), message: "missing key in \(document)")
        case let .dataCorrupted(context) where context.codingPath.isEmpty:
            self.init(.malformed, file: file, message: "\(document) is not valid JSON")
        case let .dataCorrupted(context):
            self.init(.invalidValue, file: file, field: Self.field(context.codingPath), message: "invalid value in \(document): \(context.debugDescription)")
        @unknown default:
            self.init(.malformed, file: file, message: "\(document) does not decode")
        }
    }

    /// The field a coding path names (`sources[0].bytes`).
    public static func field(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "(top level)" : text
    }

    /// JSON's words for a Swift type.
    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt64.Type, is UInt32.Type, is UInt16.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return name
        }
    }

    /// What the decoder found ("a string" of "Expected to decode Int but found a string instead.").
    static func found(in debugDescription: String) -> String? {
        guard let start = debugDescription.range(of: "but found ") else { return nil }
        let rest = debugDescription[start.upperBound...]
        return String(rest.range(of: " instead").map { rest[..<$0.lowerBound] } ?? rest)
    }
}
