import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// The columns of one birds hand-off file: the raw value is the header name, the order of
/// `allCases` the order in the file. The one definition `ingest-birds` writes with and
/// `emit-birds` and `ingest-exports` read with.
///
/// ```swift
/// NormalizedBirds.ShapeColumn.header   // ["shape_id", "name", "icon"]
/// NormalizedBirds.ShapeColumn.file     // "shapes.csv"
/// ```
public protocol HandOffColumn: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String, AllCases == [Self] {
    /// The file these are the columns of (`species.csv`).
    static var file: String { get }
}

extension HandOffColumn {
    /// The header row.
    public static var header: [String] { allCases.map(\.rawValue) }
    /// The column's position in a row.
    var position: Int { Self.allCases.firstIndex(of: self)! }
}

/// The normalized files `ingest-birds` writes (the hand-off), their columns and how they are
/// read back.
///
/// Lists inside a field (months, locations, weeks, dates, bird ids, frequencies) are joined
/// with `;`. Dates are ISO 8601 UTC, converted from the seed files' seconds since 2001-01-01.
/// Seed rows are in the order of the seed files, so identical inputs give byte-identical
/// outputs. `taxon` columns are rows of `taxa.csv` (0-based), in the artifact's taxon order.
///
/// ```swift
/// let handOff = try NormalizedBirds.handOff(in: "output/stage/birds", reading: [NormalizedBirds.ShapeColumn.file])   // status and hashes checked
/// try NormalizedBirds.read(NormalizedBirds.ShapeColumn.self, in: "output/stage/birds") { row in print(row[.name]) }
/// ```
public enum NormalizedBirds {
    public static let reportFile = "birds-ingest.json"
    /// The stage that writes the hand-off (its report's `stage`).
    package static let producer = "ingest-birds"

    /// `species.csv`: one row per seed bird; `species_code` is the taxonomy's, by scientific name.
    public enum SpeciesColumn: String, HandOffColumn {
        case birdID = "bird_id", speciesCode = "species_code", commonName = "common_name", scientificName = "scientific_name"
        case family, order, rarity, shapeID = "shape_id", sizeCategory = "size_category", months, locations, imageName = "image_name"
        public static let file = "species.csv"
    }

    /// `species-field-marks.csv`: each bird's field marks.
    public enum FieldMarkColumn: String, HandOffColumn {
        case birdID = "bird_id", area, variantID = "variant_id", variantName = "variant_name", colors
        public static let file = "species-field-marks.csv"
    }

    /// `shapes.csv`: body shapes.
    public enum ShapeColumn: String, HandOffColumn {
        case shapeID = "shape_id", name, icon
        public static let file = "shapes.csv"
    }

    /// `field-mark-variants.csv`: field-mark variants with their mark's shape and area.
    public enum VariantColumn: String, HandOffColumn {
        case variantID = "variant_id", fieldMarkID = "field_mark_id", shapeID = "shape_id", area, name
        public static let file = "field-mark-variants.csv"
    }

    /// `watchlists.csv`: personal and shared watchlists.
    public enum WatchlistColumn: String, HandOffColumn {
        case watchlistID = "watchlist_id", kind, title, location, start, end, dateRange = "date_range", mainImageName = "main_image_name"
        public static let file = "watchlists.csv"
    }

    /// `watchlist-entries.csv`: the birds of each watchlist's lists.
    public enum WatchlistEntryColumn: String, HandOffColumn {
        case watchlistID = "watchlist_id", list, birdID = "bird_id", name, dates
        public static let file = "watchlist-entries.csv"
    }

    /// `hotspots.csv`: hotspots with their position.
    public enum HotspotColumn: String, HandOffColumn {
        case hotspotID = "hotspot_id", name, locality, latitude, longitude, imageName = "image_name"
        public static let file = "hotspots.csv"
    }

    /// `hotspot-species.csv`: the birds of each hotspot, probability 0–100 and weeks 1–53.
    public enum HotspotSpeciesColumn: String, HandOffColumn {
        case hotspotID = "hotspot_id", birdID = "bird_id", probability, weeks
        public static let file = "hotspot-species.csv"
    }

    /// `migration-sessions.csv`: migration sessions of the home data.
    public enum MigrationColumn: String, HandOffColumn {
        case sessionID = "session_id", birdID = "bird_id", startWeek = "start_week", endWeek = "end_week", hemisphere
        public static let file = "migration-sessions.csv"
    }

    /// `migration-points.csv`: each session's trajectory.
    public enum TrajectoryColumn: String, HandOffColumn {
        case sessionID = "session_id", week, latitude, longitude, probability
        public static let file = "migration-points.csv"
    }

    /// `taxa.csv`: every taxon the artifact knows, in its order (code, scientific name, common
    /// name); `bird_ids` are its seed birds in species order, the first being the taxon's bird.
    public enum TaxonColumn: String, HandOffColumn {
        case taxon, speciesCode = "species_code", commonName = "common_name", scientificName = "scientific_name", category, family
        case birdIDs = "bird_ids"
        public static let file = "taxa.csv"
    }

    /// `names.csv`: the names index, every name form of every taxon (`common`, `scientific`,
    /// `code` or a labels language), sorted by folded name.
    public enum NameColumn: String, HandOffColumn {
        case foldedName = "folded_name", name, form, taxon
        public static let file = "names.csv"
    }

    /// `bar-charts.csv`: each bar chart's rows in file order, then its sample-size row (empty
    /// `taxon` and `name`); `values` are the 48 frequencies (or checklist counts).
    public enum BarChartColumn: String, HandOffColumn {
        case region, taxon, name, values
        public static let file = "bar-charts.csv"
    }

    /// `seasons.csv`: Status & Trends runs in file order; dates `MM-DD`, empty when the species
    /// has no such season.
    public enum SeasonColumn: String, HandOffColumn {
        case taxon, speciesCode = "species_code", resident, breedingStart = "breeding_start", breedingEnd = "breeding_end"
        case nonbreedingStart = "nonbreeding_start", nonbreedingEnd = "nonbreeding_end"
        case prebreedingMigrationStart = "prebreeding_migration_start", prebreedingMigrationEnd = "prebreeding_migration_end"
        case postbreedingMigrationStart = "postbreeding_migration_start", postbreedingMigrationEnd = "postbreeding_migration_end"
        public static let file = "seasons.csv"
    }

    // MARK: Reading

    /// Streams the data rows of `directory/Column.file`: the header must be `Column.header`
    /// and every row as wide.
    public static func read<Column: HandOffColumn>(_ columns: Column.Type, in directory: String,
                                                  _ body: (HandOffRow<Column>) throws(LocatedError) -> Void) throws(LocatedError) {
        let path = directory + "/" + Column.file
        try CSVTable.records(at: path) { record throws(LocatedError) in
            if record.index == 0 {
                guard record.fields == Column.header else {
                    throw LocatedError(.badHandOff, file: path, line: record.line, expected: Column.header.joined(separator: ","),
                                       found: record.fields.joined(separator: ","), message: "not the hand-off's header")
                }
                return
            }
            guard record.count == Column.allCases.count else {
                throw LocatedError(.badHandOff, file: path, line: record.line, expected: "\(Column.allCases.count) fields",
                                   found: "\(record.count)", message: "a row of another width")
            }
            try body(HandOffRow(record: record, file: path))
        }
    }

    /// Opens the hand-off in `directory` through `HandOff`: the report is `ingest-birds`' and
    /// `ok`, every file in `files` is among its outputs, and every output still has its SHA-256.
    /// Read the files with ``read(_:in:_:)`` afterwards.
    package static func handOff(in directory: String, reading files: [String]) throws(LocatedError) -> HandOff {
        try HandOff(directory: directory, report: reportFile, producer: producer, files: files)
    }

    // MARK: Writing

    /// One hand-off file being written: the header first, then a row per `append`.
    ///
    /// ```swift
    /// var shapes = NormalizedBirds.Writer<NormalizedBirds.ShapeColumn>()
    /// shapes.append { column in switch column { case .shapeID: "Corvidae"; case .name: "Crows"; case .icon: "" } }
    /// ```
    public struct Writer<Column: HandOffColumn>: Sendable {
        public private(set) var csv = CSVWriter()
        public private(set) var rows = 0

        public init() { csv.write(Column.header) }

        /// A whole table: a row for each of `items`, `field` giving an item's value in each column.
        ///
        /// ```swift
        /// let shapes = NormalizedBirds.Writer<NormalizedBirds.ShapeColumn>(rows: database.shapes) { shape, column in
        ///     switch column { case .shapeID: shape.id; case .name: shape.name; case .icon: shape.icon ?? "" }
        /// }
        /// ```
        public init<Items: Sequence>(rows items: Items, _ field: (Items.Element, Column) -> String) {
            self.init()
            append(rows: items, field)
        }

        /// Writes a row: `field` gives each column's value.
        public mutating func append(_ field: (Column) -> String) {
            csv.write(Column.allCases.map(field))
            rows += 1
        }

        /// Writes a row for each of `items`: `field` gives an item's value in each column.
        public mutating func append<Items: Sequence>(rows items: Items, _ field: (Items.Element, Column) -> String) {
            for item in items { append { field(item, $0) } }
        }
    }
}

/// One data row of a hand-off file, read by column.
///
/// ```swift
/// try NormalizedBirds.read(NormalizedBirds.SpeciesColumn.self, in: handOff) { row in
///     let months = try row.integers(.months)   // [10, 11, 12, 1, 2, 3]
/// }
/// ```
public struct HandOffRow<Column: HandOffColumn> {
    public let record: CSVRecord
    public let file: String

    public var line: Int { record.line }

    public subscript(column: Column) -> String { record[column.position] }

    /// The `;`-separated items of a field (none when it is empty).
    public func list(_ column: Column) -> [String] { self[column].split(separator: ";").map(String.init) }

    /// The `;`-separated integers of a field.
    public func integers(_ column: Column) throws(LocatedError) -> [Int] { try numbers(column) }

    /// The `;`-separated numbers of a field.
    public func doubles(_ column: Column) throws(LocatedError) -> [Double] { try numbers(column) }

    private func numbers<Number: LosslessStringConvertible>(_ column: Column) throws(LocatedError) -> [Number] {
        var out: [Number] = []
        for item in list(column) {
            guard let n = Number(item) else { throw invalid(column, "numbers separated by ;", item) }
            out.append(n)
        }
        return out
    }

    /// An integer field; nil when it is empty.
    public func integer(_ column: Column) throws(LocatedError) -> Int? {
        let text = self[column]
        if text.isEmpty { return nil }
        guard let n = Int(text) else { throw invalid(column, "an integer", text) }
        return n
    }

    /// A number field that must be there.
    public func double(_ column: Column) throws(LocatedError) -> Double {
        let text = self[column]
        guard text.isNumeral, let n = Double(text) else { throw invalid(column, "a number", text) }
        return n
    }

    func invalid(_ column: Column, _ expected: String, _ found: String) -> LocatedError {
        LocatedError(.badHandOff, file: file, line: line, field: column.rawValue, expected: expected, found: found, message: "not a valid value")
    }
}
