import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// What every emit stage does after its builder: merge the artifact's entry into the
/// directory's `manifest.json` (the hand-off is checked before, by `HandOff`).
///
/// ```swift
/// let manifest = try EmitSupport.publish(entry, outputDirectory: "output")
/// ```
public enum EmitSupport {
    public static let manifestFile = Manifest.fileName

    /// Writes `manifest.json` with `entry` replacing the previous entry for its file (other
    /// artifacts' entries kept), atomically; `built` from `SOURCE_DATE_EPOCH` only.
    public static func publish(_ entry: Manifest.Artifact, outputDirectory: String,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws(LocatedError) -> Manifest {
        let manifestPath = outputDirectory + "/" + manifestFile
        let previous = FileManager.default.contents(atPath: manifestPath).flatMap { try? Manifest.decode(from: $0) }
        var manifest = (previous ?? Manifest(format: .init(major: Int(ArtifactFormat.majorVersion), minor: Int(ArtifactFormat.minorVersion)), tool: .init(name: ToolInfo.name, version: ToolInfo.version), built: nil, artifacts: []))
            .replacing(entry)
        manifest.tool = .init(name: ToolInfo.name, version: ToolInfo.version)
        manifest.built = BuildTime.sourceDateEpoch(environment)
        try JSON.write(manifest, to: manifestPath)
        return manifest
    }
}
