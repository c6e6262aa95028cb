import FieldGuideArtifact

/// What every bundle opens the same way: the checked file, its string pool, and the typed
/// tables of its sections, each checked against the schema as it is read.
///
/// ```swift
/// let opened = try OpenedArtifact(path: path, kind: AircraftSchema.kind, strings: AircraftSchema.Section.strings, verification: .full)
/// let models: RowTable<AircraftSchema.ModelColumn> = try opened.rows(AircraftSchema.Section.models)
/// let keys = try opened.keys(AircraftSchema.Section.modelKeys, rows: models.count)
/// ```
struct OpenedArtifact {
    let path: String
    let file: ArtifactFile
    let strings: StringPool

    /// Opens `path` as an artifact of `kind` and reads its string pool (every string checked
    /// with `.full` verification).
    init(path: String, kind: FourCC, strings tag: FourCC, verification: ArtifactFile.Verification) throws(ArtifactError) {
        self.path = path
        file = try ArtifactFile(path: path, expectedKind: kind, verification: verification)
        strings = try StringPool(file.section(tag), path: path)
        if verification == .full { try strings.verify(path: path) }
    }

    /// The row table in section `tag`.
    func rows<Column: RowColumn>(_ tag: FourCC) throws(ArtifactError) -> RowTable<Column> {
        try RowTable(file.section(tag), layout: .init(), tag: tag, path: path)
    }

    /// The key table in section `tag`: one key per row of the table it indexes (`rows`), or,
    /// for a table of keys alone (nil), as many as the section holds.
    func keys(_ tag: FourCC, rows: Int? = nil) throws(ArtifactError) -> KeyTable {
        let section = try file.section(tag)
        return try KeyTable(section, rows: rows ?? section.count / 8, tag: tag, path: path)
    }
}
