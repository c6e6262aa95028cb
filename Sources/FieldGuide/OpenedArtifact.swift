import FieldGuideArtifact

/// What every bundle opens the same way: the checked file, then its string pools and the typed
/// tables of its sections, each checked against the schema as it is read.
///
/// ```swift
/// let opened = try OpenedArtifact(path: path, kind: AircraftSchema.kind, verification: .full)
/// let strings = try opened.strings(AircraftSchema.Section.strings)
/// let models: RowTable<AircraftSchema.ModelColumn> = try opened.rows(AircraftSchema.Section.models)
/// let keys = try opened.keys(AircraftSchema.Section.modelKeys, rows: models.count)
/// ```
struct OpenedArtifact {
    let file: ArtifactFile
    let verification: ArtifactFile.Verification
    var path: String { file.path }

    /// Opens `path` as an artifact of `kind`.
    init(path: String, kind: FourCC, verification: ArtifactFile.Verification) throws(ArtifactError) {
        file = try ArtifactFile(path: path, expectedKind: kind, verification: verification)
        self.verification = verification
    }

    /// The string pool in section `tag` (every string checked with `.full` verification).
    func strings(_ tag: FourCC) throws(ArtifactError) -> StringPool {
        let pool = try StringPool(file.section(tag), path: path, tag: tag)
        if verification == .full { try pool.verify(path: path) }
        return pool
    }

    /// The row table in section `tag`; with `count`, it must hold that many rows.
    func rows<Column: RowColumn>(_ tag: FourCC, count: Int? = nil) throws(ArtifactError) -> RowTable<Column> {
        let table = try RowTable<Column>(file.section(tag), layout: .init(), tag: tag, path: path)
        try check(tag, rows: table.count, expected: count)
        return table
    }

    /// The fixed-width text column in section `tag` (its rows from the section table); with
    /// `count`, it must hold that many rows.
    func text(_ tag: FourCC, count: Int? = nil) throws(ArtifactError) -> TextColumn {
        let column = try TextColumn(file.section(tag), rows: file.info(tag)?.rows ?? 0, tag: tag, path: path)
        try check(tag, rows: column.count, expected: count)
        return column
    }

    /// The key table in section `tag`: one key per row of the table it indexes (`rows`), or,
    /// for a table of keys alone (nil), as many as the section holds.
    func keys(_ tag: FourCC, rows: Int? = nil) throws(ArtifactError) -> KeyTable {
        let section = try file.section(tag)
        return try KeyTable(section, rows: rows ?? section.count / 8, tag: tag, path: path)
    }

    /// Whether the artifact has section `tag` (optional sections: an artifact written before them).
    func has(_ tag: FourCC) -> Bool { file.info(tag) != nil }

    /// A typed error naming `tag` unless it holds `expected` rows (nil: any number).
    func check(_ tag: FourCC, rows: Int, expected: Int?) throws(ArtifactError) {
        guard let expected, rows != expected else { return }
        throw .malformedSection(path: path, section: tag.description, reason: "expected \(expected) row\(expected == 1 ? "" : "s"), found \(rows)")
    }
}
