import FieldGuideArtifact

/// Why a FieldGuide bundle could not be opened.
///
/// ```swift
/// do { _ = try AircraftBundle(path: path) }
/// catch let error as FieldGuideError where error.kind == .corrupt { ... }
/// ```
public struct FieldGuideError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file could not be opened or mapped.
        case unreadable
        /// Not a FieldGuide artifact, or another kind of artifact than asked for.
        case notAnArtifact
        /// Written by a newer major format version.
        case unsupportedVersion
        /// Shorter than its header says.
        case truncated
        /// A checksum does not match, or a section does not fit its schema.
        case corrupt
    }

    public let kind: Kind
    /// The detailed reason, with the path.
    public let underlying: ArtifactError

    package init(_ underlying: ArtifactError) {
        self.underlying = underlying
        switch underlying {
        case .io: kind = .unreadable
        case .badMagic, .wrongKind: kind = .notAnArtifact
        case .unsupportedVersion: kind = .unsupportedVersion
        case .truncated: kind = .truncated
        case .checksumMismatch, .malformedSection: kind = .corrupt
        }
    }

    public var description: String { underlying.description }
}
