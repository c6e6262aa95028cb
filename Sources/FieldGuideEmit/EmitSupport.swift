import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// What every emit stage does after its builder: merge the artifact's entry into the
/// directory's `manifest.json` (the hand-off is checked before, by `HandOff`).
///
/// ```swift
/// let manifest = try EmitSupport.publish(entry, outputDirectory: "output", with: outputs)   // the artifact in `outputs`
/// ```
public enum EmitSupport {
    public static let manifestFile = Manifest.fileName

    /// Writes `manifest.json` with `entry` replacing the previous entry for its file (other
    /// artifacts' entries kept), atomically; `built` from `SOURCE_DATE_EPOCH` only. With
    /// `outputs` (the artifact and what goes beside it, on disk and not yet renamed), the
    /// manifest is added to them and all are committed together, the manifest last.
    public static func publish(_ entry: Manifest.Artifact, outputDirectory: String, with outputs: OutputSet? = nil,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws(LocatedError) -> Manifest {
        let manifestPath = outputDirectory + "/" + manifestFile
        let previous = FileManager.default.contents(atPath: manifestPath).flatMap { try? Manifest.decode(from: $0) }
        var manifest = (previous ?? Manifest(format: .init(major: Int(ArtifactFormat.majorVersion), minor: Int(ArtifactFormat.minorVersion)), tool: .init(name: ToolInfo.name, version: ToolInfo.version), built: nil, artifacts: []))
            .replacing(entry)
        manifest.tool = .init(name: ToolInfo.name, version: ToolInfo.version)
        manifest.built = BuildTime.sourceDateEpoch(environment)
        let set = outputs ?? OutputSet()
        try set.write(try JSON.encode(manifest, for: manifestPath), to: manifestPath)
        try set.commit()
        return manifest
    }
}
