import FieldGuideArtifact

/// What every bundle of the query library shares: one mapped artifact, its full check (for a
/// bundle opened with `.headerOnly` at launch), its section table and format version.
///
/// ```swift
/// let index = try AircraftIndex(path: url.path, verification: .headerOnly)   // fast start
/// Task.detached { try index.verify() }                                      // full check later
/// ```
public protocol FieldGuideBundle: AnyObject, Sendable {
    /// The mapped artifact the bundle reads.
    var artifact: ArtifactFile { get }
}

extension FieldGuideBundle {
    /// The artifact's path, as it was opened.
    public var path: String { artifact.path }

    /// Checks every section's CRC-32: for a bundle opened with `.headerOnly` at launch, later,
    /// off the main thread.
    public func verify() throws(FieldGuideError) {
        do { try artifact.verify() } catch { throw FieldGuideError(error) }
    }

    /// The section table, as stored.
    public var sections: [SectionInfo] { artifact.sections }

    /// Format version of the file (`major.minor`).
    public var formatVersion: String { "\(artifact.majorVersion).\(artifact.minorVersion)" }
}
