import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// `manifest.json`: the artifacts of an output directory, what each holds and what it was built from.
///
/// Written beside every artifact by the emit stages (their stage report) and published with
/// the build; deterministic (sorted keys, no wall-clock time unless `SOURCE_DATE_EPOCH` is set).
///
/// ```swift
/// let manifest = try Manifest.read(from: "output/manifest.json")
/// manifest.artifact(named: "aircraft.fgb")?.sources.map(\.file)   // ["ACFTREF.txt", "ENGINE.txt", "MASTER.txt"]
/// ```
public struct Manifest: Codable, Sendable, Equatable {
    /// The name every emit stage writes it under.
    package static let fileName = "manifest.json"

    public struct Format: Codable, Sendable, Equatable {
        public var name: String = "fieldguide-artifact"
        public var major: Int
        public var minor: Int
        public init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    }

    /// The tool, rows and sources of a stage report: one definition for reports and manifests.
    public typealias Tool = StageReport.Tool
    public typealias Rows = StageReport.Rows
    public typealias Source = StageReport.Source

    /// One section of an artifact: its tag, where it lies, its rows and CRC-32 (as `inspect`
    /// shows), recorded as the artifact's own section table holds it.
    public typealias Section = SectionInfo

    /// One artifact of the output directory and what it was built from.
    public struct Artifact: Codable, Sendable, Equatable {
        public var file: String
        public var kind: String
        public var bytes: Int
        public var sha256: String
        public var sections: [Section]
        public var sources: [Source]
        /// Named counts worth keeping (orphan joins, index sizes).
        public var counts: [String: Int]
        /// The date the source data is as of (`2026-08-18`), when the artifact records one
        /// (the aircraft artifact's `ASOF`: its latest MASTER last-action date).
        public var asOf: String?

        public init(file: String, kind: String, bytes: Int, sha256: String, sections: [Section], sources: [Source], counts: [String: Int],
                    asOf: String? = nil) {
            self.file = file; self.kind = kind; self.bytes = bytes; self.sha256 = sha256
            self.sections = sections; self.sources = sources; self.counts = counts; self.asOf = asOf
        }
    }

    /// The artifact format version the emit stage wrote (the read side's `ArtifactFormat`).
    public var format: Format
    public var tool: Tool
    /// ISO 8601, from `SOURCE_DATE_EPOCH` when set; otherwise absent (builds stay reproducible).
    public var built: String?
    /// Every artifact in the directory, sorted by file name.
    public var artifacts: [Artifact]

    public init(format: Format, tool: Tool, built: String?, artifacts: [Artifact]) {
        self.format = format
        self.tool = tool
        self.built = built
        self.artifacts = artifacts.sorted { $0.file < $1.file }
    }

    /// This manifest with `artifact` added, replacing an entry for the same file.
    public func replacing(_ artifact: Artifact) -> Manifest {
        var copy = self
        copy.artifacts = (artifacts.filter { $0.file != artifact.file } + [artifact]).sorted { $0.file < $1.file }
        return copy
    }

    /// The entry for an artifact file name.
    public func artifact(named file: String) -> Artifact? { artifacts.first { $0.file == file } }

    public static func decode(from data: Data) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: data)
    }

    /// Reads a manifest; a file that is missing or is not a manifest is a located error.
    package static func read(from path: String) throws(LocatedError) -> Manifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LocatedError(.missingFile, file: path, message: "expected a manifest, found none")
        }
        do { return try decode(from: data) } catch {
            throw LocatedError(.malformed, file: path, message: "expected a manifest, found JSON that does not decode as one: \(StageReport.reason(error))")
        }
    }
}
