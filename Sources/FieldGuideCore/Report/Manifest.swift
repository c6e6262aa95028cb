import Foundation

/// `manifest.json`: the artifacts of an output directory, what each holds and what it was built from.
///
/// Written beside every artifact; deterministic (sorted keys, no wall-clock time unless
/// `SOURCE_DATE_EPOCH` is set).
public struct Manifest: Codable, Sendable, Equatable {
    public struct Format: Codable, Sendable, Equatable {
        public var name: String = "fieldguide-artifact"
        public var major: Int
        public var minor: Int
        public init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    }

    public struct Tool: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
        public init(name: String, version: String) { self.name = name; self.version = version }
    }

    public struct Rows: Codable, Sendable, Equatable {
        public var read: Int
        public var kept: Int
        public var rejected: Int
        public var warnings: Int
        public init(read: Int = 0, kept: Int = 0, rejected: Int = 0, warnings: Int = 0) {
            self.read = read; self.kept = kept; self.rejected = rejected; self.warnings = warnings
        }
    }

    public struct Source: Codable, Sendable, Equatable {
        public var file: String
        public var bytes: Int
        public var sha256: String
        public var rows: Rows
        public init(file: String, bytes: Int, sha256: String, rows: Rows) {
            self.file = file; self.bytes = bytes; self.sha256 = sha256; self.rows = rows
        }
    }

    /// One section of an artifact: its tag, where it lies, its rows and CRC-32 (as `inspect` shows).
    public struct Section: Codable, Sendable, Hashable {
        public var tag: String
        public var offset: UInt64
        public var length: UInt64
        public var rows: UInt64
        public var crc32: UInt32
        public init(tag: String, offset: UInt64, length: UInt64, rows: UInt64, crc32: UInt32) {
            self.tag = tag; self.offset = offset; self.length = length; self.rows = rows; self.crc32 = crc32
        }
    }

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

        public init(file: String, kind: String, bytes: Int, sha256: String, sections: [Section], sources: [Source], counts: [String: Int]) {
            self.file = file; self.kind = kind; self.bytes = bytes; self.sha256 = sha256
            self.sections = sections; self.sources = sources; self.counts = counts
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
}
