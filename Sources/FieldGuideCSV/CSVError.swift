/// A CSV file could not be read or written.
public struct CSVError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file could not be opened, read or written.
        case io
        /// libcsv could not allocate memory or a field grew past its limits.
        case resources
        /// The bytes are not valid CSV for the dialect (for example an unterminated quote).
        case malformed
        /// The dialect asks for something no parser can do (padding dropped from a quoted dialect).
        case unsupportedDialect
    }

    public var kind: Kind
    /// The file the error is about, as given by the caller.
    public var file: String
    /// The 1-based physical line, when known.
    public var line: Int?
    public var message: String

    public init(_ kind: Kind, file: String, line: Int? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
