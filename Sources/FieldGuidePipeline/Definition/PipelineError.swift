import FieldGuideDiagnostics

/// Why a pipeline run stopped: a required source missing, a stage failed, a guard refused,
/// another run holding the lock, an interruption, or its own directories failing. The kind is
/// what the run summary records (`failure`).
///
/// The pipeline file's own errors are ``LocatedError``s (``PipelineDefinition/load(path:)``);
/// one met while planning or running is kept here as `.invalidDefinition`, its text as it was.
///
/// ```swift
/// do { _ = try PipelinePlan(definition, parameters: ["SOURCES": "/nowhere"]) }
/// catch where error.kind == .missingSource { print(error) }   // source 'faa' is required but /nowhere/faa does not exist
/// ```
public struct PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The pipeline file, or a parameter set for it, is wrong (usage error).
        case invalidDefinition
        /// A required source is missing or matches nothing.
        case missingSource
        /// A stage exited non-zero or did not leave a declared output.
        case stageFailed
        /// A guard refused to publish (the stages all passed).
        case guardRefused
        /// Reading or writing the state, staging or output directories failed.
        case io
        /// The run was interrupted (SIGINT or SIGTERM).
        case cancelled
        /// Another run of the same pipeline holds the lock on the output directory.
        case locked
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A located error met while planning or running: I/O kinds are `.io`, the rest (the
    /// pipeline file, a parameter) `.invalidDefinition`.
    public init(_ error: LocatedError) {
        self.init(error.kind.isUsageOrIO && error.kind != .usage ? .io : .invalidDefinition, error.description)
    }

    public var description: String { message }
}
