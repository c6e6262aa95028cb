import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// What every emit stage does around its builder: check the ingest hand-off's file hashes and
/// merge the artifact's entry into the directory's `manifest.json`.
///
/// ```swift
/// if let bad = EmitSupport.firstMismatch(handOff: "output/stage/birds", outputs: report.outputs) { … }
/// let manifest = try EmitSupport.publish(entry, outputDirectory: "output")
/// ```
public enum EmitSupport {
    public static let manifestFile = "manifest.json"

    /// The first hand-off file (by name) whose SHA-256 differs from the ingest report's, if any.
    public static func firstMismatch(handOff: String, outputs: [String: String]) -> (path: String, expected: String, found: String)? {
        for (name, expected) in outputs.sorted(by: { $0.key < $1.key }) {
            let path = handOff + "/" + name
            let found = (try? FileDigest.sha256(ofFileAt: path).digest) ?? "missing"
            if found != expected { return (path, expected, found) }
        }
        return nil
    }

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
