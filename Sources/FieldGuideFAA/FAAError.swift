/// Why an FAA stage could not run (as opposed to rows it rejected, which are reported).
public struct FAAError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A required file is not in the source directory or archive.
        case missingFile
        /// The header is not the layout's, or belongs to another FAA file.
        case wrongHeader
        /// The file or archive could not be read.
        case unreadable
        /// More rows were rejected than the configured share allows.
        case tooManyRejects
        /// The normalized hand-off from `ingest-faa` is missing, failed, or inconsistent.
        case badHandOff
    }

    public var kind: Kind
    public var file: String
    public var line: Int?
    public var message: String

    public init(_ kind: Kind, file: String, line: Int? = nil, _ message: String) {
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
