import FieldGuideArtifact
import FieldGuideDiagnostics

/// `LinkedTaxa` as hand-off files: `taxa.csv`, `names.csv`, `bar-charts.csv`, `seasons.csv`.
///
/// ```swift
/// let tables = linked.tables()                                       // what ingest-birds writes
/// let again = try LinkedTaxa.read(from: "output/stage/birds")        // what emit-birds reads
/// ```
extension LinkedTaxa {
    typealias N = NormalizedBirds

    /// The four files' contents: (file name, bytes, data rows).
    public func tables() -> [(file: String, bytes: [UInt8], rows: Int)] {
        var taxa = N.Writer<N.TaxonColumn>()
        for (row, t) in self.taxa.enumerated() {
            taxa.append { column in
                switch column {
                case .taxon: String(row)
                case .speciesCode: t.speciesCode
                case .commonName: t.commonName
                case .scientificName: t.scientificName
                case .category: t.category
                case .family: t.family
                case .birdIDs: t.birdIDs.joined(separator: ";")
                }
            }
        }
        let names = N.Writer<N.NameColumn>(rows: self.names) { n, column in
            switch column {
            case .foldedName: n.folded
            case .name: n.name
            case .form: n.form
            case .taxon: String(n.taxon)
            }
        }
        let charts = N.Writer<N.BarChartColumn>(rows: chartRows) { r, column in
            switch column {
            case .region: r.region
            case .taxon: r.taxon.map(String.init) ?? ""
            case .name: r.name
            case .values: r.values.map { String($0) }.joined(separator: ";")
            }
        }
        return [taxa.table, names.table, charts.table, seasonsTable().table]
    }

    private func seasonsTable() -> N.Writer<N.SeasonColumn> {
        var seasons = N.Writer<N.SeasonColumn>()
        func date(_ monthDay: Int?) -> String {
            guard let monthDay else { return "" }
            let (month, day) = (monthDay / 100, monthDay % 100)
            return (month < 10 ? "0" : "") + String(month) + (day < 10 ? "-0" : "-") + String(day)
        }
        for s in self.seasons {
            seasons.append { column in
                switch column {
                case .taxon: String(s.taxon)
                case .speciesCode: s.speciesCode
                case .resident: s.resident ? "1" : "0"
                case .breedingStart: date(s.breeding?.start)
                case .breedingEnd: date(s.breeding?.end)
                case .nonbreedingStart: date(s.nonbreeding?.start)
                case .nonbreedingEnd: date(s.nonbreeding?.end)
                case .prebreedingMigrationStart: date(s.prebreedingMigration?.start)
                case .prebreedingMigrationEnd: date(s.prebreedingMigration?.end)
                case .postbreedingMigrationStart: date(s.postbreedingMigration?.start)
                case .postbreedingMigrationEnd: date(s.postbreedingMigration?.end)
                }
            }
        }
        return seasons
    }

    /// The hand-off's tables that `read(from:reading:)` reads besides `taxa.csv`.
    public struct Tables: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `names.csv`.
        public static let names = Tables(rawValue: 1)
        /// `bar-charts.csv`.
        public static let barCharts = Tables(rawValue: 2)
        /// `seasons.csv`.
        public static let seasons = Tables(rawValue: 4)
        public static let all: Tables = [.names, .barCharts, .seasons]
    }

    /// Reads `taxa.csv` and `tables` of the hand-off in `directory` (`counts` stay empty: the
    /// ingest report holds them). A `taxon` that names no row of `taxa.csv` is a bad hand-off.
    ///
    /// A reader of names alone (`ingest-exports`, resolving bird names) reads `[.names]`: the
    /// bar charts and seasons were a fifth of its reading, for tables it never used, and files
    /// it had not checked against the hand-off's report.
    public static func read(from directory: String, reading tables: Tables = .all) throws(LocatedError) -> LinkedTaxa {
        var linked = LinkedTaxa()
        try N.read(N.TaxonColumn.self, in: directory) { row throws(LocatedError) in
            guard try row.integer(.taxon) == linked.taxa.count else { throw row.invalid(.taxon, "\(linked.taxa.count), the row's position", row[.taxon]) }
            linked.taxa.append(Taxon(speciesCode: row[.speciesCode], commonName: row[.commonName], scientificName: row[.scientificName],
                                     category: row[.category], family: row[.family], birdIDs: row.list(.birdIDs)))
        }
        let count = linked.taxa.count
        func taxon<C>(_ row: HandOffRow<C>, _ column: C) throws(LocatedError) -> Int? {
            guard let taxon = try row.integer(column) else { return nil }
            guard (0..<count).contains(taxon) else { throw row.invalid(column, "a row of taxa.csv (0..<\(count))", row[column]) }
            return taxon
        }
        if tables.contains(.names) {
            try N.read(N.NameColumn.self, in: directory) { row throws(LocatedError) in
                guard let t = try taxon(row, .taxon) else { throw row.invalid(.taxon, "a row of taxa.csv", "") }
                linked.names.append(Name(folded: row[.foldedName], name: row[.name], form: row[.form], taxon: t))
            }
        }
        if tables.contains(.barCharts) { try readBarCharts(in: directory, into: &linked, taxon: taxon) }
        if tables.contains(.seasons) { try readSeasons(in: directory, into: &linked, taxon: taxon) }
        return linked
    }

    private static func readBarCharts(in directory: String, into linked: inout LinkedTaxa,
                                      taxon: (HandOffRow<N.BarChartColumn>, N.BarChartColumn) throws(LocatedError) -> Int?) throws(LocatedError) {
        try N.read(N.BarChartColumn.self, in: directory) { row throws(LocatedError) in
            let values = try row.doubles(.values)
            guard values.count == BirdsSchema.periodsPerYear else { throw row.invalid(.values, "\(BirdsSchema.periodsPerYear) numbers", "\(values.count)") }
            linked.chartRows.append(ChartRow(region: row[.region], name: row[.name], taxon: try taxon(row, .taxon), values: values))
        }
    }

    private static func readSeasons(in directory: String, into linked: inout LinkedTaxa,
                                    taxon: (HandOffRow<N.SeasonColumn>, N.SeasonColumn) throws(LocatedError) -> Int?) throws(LocatedError) {
        try N.read(N.SeasonColumn.self, in: directory) { row throws(LocatedError) in
            func range(_ start: N.SeasonColumn, _ end: N.SeasonColumn) throws(LocatedError) -> (start: Int, end: Int)? {
                if row[start].isEmpty && row[end].isEmpty { return nil }
                return (try monthDay(row, start), try monthDay(row, end))
            }
            guard let t = try taxon(row, .taxon) else { throw row.invalid(.taxon, "a row of taxa.csv", "") }
            linked.seasons.append(Season(taxon: t, speciesCode: row[.speciesCode], resident: row[.resident] == "1",
                                         breeding: try range(.breedingStart, .breedingEnd), nonbreeding: try range(.nonbreedingStart, .nonbreedingEnd),
                                         prebreedingMigration: try range(.prebreedingMigrationStart, .prebreedingMigrationEnd),
                                         postbreedingMigration: try range(.postbreedingMigrationStart, .postbreedingMigrationEnd)))
        }
    }

    /// `05-17` → `517`: two digits, a dash and two digits, as `ingest-birds` writes a date.
    ///
    /// Read from its five bytes: `split` walked the characters of every date in `seasons.csv`,
    /// and `Int` let through forms the writer never makes (`+5-17`, `-05-17`).
    private static func monthDay(_ row: HandOffRow<N.SeasonColumn>, _ column: N.SeasonColumn) throws(LocatedError) -> Int {
        var text = row[column]
        let value: Int? = text.withUTF8 { bytes in
            let field = UnsafeRawBufferPointer(bytes)
            guard field.count == 5, field[2] == UInt8(ascii: "-"), let month = EBDFields.digits(field, 0..<2),
                  let day = EBDFields.digits(field, 3..<5) else { return nil }
            return (1...12).contains(month) && (1...31).contains(day) ? month * 100 + day : nil
        }
        guard let value else { throw row.invalid(column, "a date MM-DD", row[column]) }
        return value
    }
}

extension NormalizedBirds.Writer {
    /// What was written: (file name, bytes, data rows).
    public var table: (file: String, bytes: [UInt8], rows: Int) { (Column.file, csv.bytes, rows) }
}
