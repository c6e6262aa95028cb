/// Why a pipeline could not be read, planned, run or published.
///
/// The message names the place: `pipelines/nightly.yaml:42:7: stages[3].args: …` for a
/// pipeline file, the stage for a failed stage, the guard for a refused publish.
public struct PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The pipeline file is not valid YAML or not a valid pipeline (usage error).
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

    public var description: String { message }

    /// A definition error located in `file` (`file:line:column: message`).
    static func definition(_ file: String, _ mark: (line: Int, column: Int)?, _ message: String) -> PipelineError {
        if let mark { return PipelineError(.invalidDefinition, "\(file):\(mark.line):\(mark.column): \(message)") }
        return PipelineError(.invalidDefinition, "\(file): \(message)")
    }
}
