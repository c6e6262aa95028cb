/// The sections and row layouts of the birds artifact (`birds.fgb`).
///
/// Shared by the writer (FieldGuideEmit) and the reader (FieldGuide), so the two cannot
/// disagree. Region tables are sections of packed `UInt64` keys (no rows): a lookup is a
/// binary search for the (region, period) prefix, then a run of species rows.
///
/// ```swift
/// let file = try ArtifactFile(path: "output/birds.fgb", expectedKind: BirdsSchema.kind)
/// let species = try RowTable<BirdsSchema.SpeciesColumn>(file.section(BirdsSchema.Section.species),
///                                                       layout: .init(), tag: BirdsSchema.Section.species, path: file.path)
/// ```
public enum BirdsSchema {
    /// The artifact kind in the header.
    public static let kind = FourCC("BIRD")

    public enum Section {
        /// Every string, sorted and deduplicated.
        public static let strings = FourCC("STRS")
        /// The seed database's birds, sorted by common name (ties by bird id).
        public static let species = FourCC("SPEC")
        /// Each bird's locations as region rows (`SPEC.locationFirst ..< +locationCount`).
        public static let speciesLocations = FourCC("SLOC")
        /// Each bird's field marks (`SPEC.markFirst ..< +markCount`).
        public static let speciesMarks = FourCC("SMRK")
        /// Body shapes, sorted by id.
        public static let shapes = FourCC("SHAP")
        /// Field-mark variants, sorted by id.
        public static let variants = FourCC("VARS")
        /// Regions (bird locations and bar-chart regions), sorted by folded name.
        public static let regions = FourCC("REGN")
        /// Species by region and month: `RegionKey` values, sorted.
        public static let regionMonths = FourCC("RMON")
        /// Species by region and week: `RegionKey` values, sorted.
        public static let regionWeeks = FourCC("RWEK")
        /// Hotspots, sorted by grid cell (`HotspotGrid`), then id.
        public static let hotspots = FourCC("HOTS")
        /// The grid cell of each hotspot, parallel to `HOTS`.
        public static let hotspotCells = FourCC("HKEY")
        /// Species of each hotspot (`HOTS.speciesFirst ..< +speciesCount`).
        public static let hotspotSpecies = FourCC("HSPC")
        /// Taxa (species and non-species) the artifact knows by code, sorted by code then scientific name.
        public static let taxa = FourCC("TAXA")
        /// The names index: every name form of every taxon, sorted by folded name.
        public static let names = FourCC("NAME")
        /// `PackedKey` of each folded name, parallel to `NAME`.
        public static let nameKeys = FourCC("NKEY")
        /// Bar-chart rows: (region, taxon) with 48 frequencies in `BVAL`, sorted by region then taxon.
        public static let barChart = FourCC("BARC")
        /// Bar-chart frequencies in parts per billion, 48 per `BARC` row.
        public static let barChartValues = FourCC("BVAL")
        /// Seasons per taxon (eBird Status & Trends), sorted by taxon row.
        public static let seasons = FourCC("SEAS")
        /// Birds observed by the app's users (ingest-exports, resolved): a separate "observed"
        /// source beside the seed presence tables, sorted by taxon, region, month, week.
        public static let observations = FourCC("OBSV")
    }

    public enum SpeciesColumn: Int, RowColumn {
        case birdID, speciesCode, commonName, scientificName, family, order, rarity, shapeID, imageName
        /// 0 (tiny) … 4 (very large); absent when the bird has no size.
        case sizeCategory
        /// Bit `m - 1` for month `m`; 0 when the bird lists no months ("unknown", not "never").
        case monthMask
        case locationFirst, locationCount, markFirst, markCount
        /// Row in `TAXA`, absent when the bird is not linked.
        case taxonRow

        public var kind: ColumnKind {
            switch self {
            case .sizeCategory: return .u8
            case .monthMask, .locationCount, .markCount: return .u16
            case .locationFirst, .markFirst, .taxonRow: return .u32
            default: return .string
            }
        }
    }

    public enum SpeciesLocationColumn: Int, U32RowColumn {
        case regionRow
    }

    public enum SpeciesMarkColumn: Int, StringRowColumn {
        case area, variantID
    }

    public enum ShapeColumn: Int, StringRowColumn {
        case id, name, icon
    }

    public enum VariantColumn: Int, StringRowColumn {
        case id, fieldMarkID, shapeID, area, name
    }

    public enum RegionColumn: Int, StringRowColumn {
        /// `NameFolding.fold(name)`: what queries compare.
        case foldedName
        case name
    }

    public enum HotspotColumn: Int, RowColumn {
        case id, name, locality, imageName
        /// Degrees × 10⁶ as the bit pattern of an `Int32`.
        case latitude, longitude
        case speciesFirst, speciesCount

        public var kind: ColumnKind {
            switch self {
            case .id, .name, .locality, .imageName: return .string
            default: return .u32
            }
        }
    }

    public enum HotspotSpeciesColumn: Int, RowColumn {
        case birdID
        /// Row in `SPEC`, absent when the hotspot names a bird the database lacks.
        case speciesRow
        /// 0–100.
        case probability
        /// Bits for weeks 1–32 (bit `w - 1`) and 33–53 (bit `w - 33`).
        case weeksLow, weeksHigh

        public var kind: ColumnKind {
            switch self {
            case .birdID: return .string
            case .probability: return .u8
            default: return .u32
            }
        }
    }

    public enum TaxonColumn: Int, RowColumn {
        case speciesCode, commonName, scientificName
        /// The taxonomy's category (`species`, `spuh`, `slash`, `hybrid` …); empty when unresolved.
        case category
        case family
        /// Row in `SPEC`, absent when the seed database lacks the taxon.
        case speciesRow

        public var kind: ColumnKind { self == .speciesRow ? .u32 : .string }
    }

    public enum NameColumn: Int, RowColumn {
        case foldedName, name
        /// `common`, `scientific`, `code`, or a language code of a labels file (`de`, `ja`).
        case form
        case taxonRow

        public var kind: ColumnKind { self == .taxonRow ? .u32 : .string }
    }

    public enum BarChartColumn: Int, U32RowColumn {
        case regionRow
        /// Row in `TAXA`; absent for the sample-size row.
        case taxonRow
        /// Index of the first of 48 values in `BVAL`.
        case valueFirst
    }

    public enum BarChartValueColumn: Int, U32RowColumn {
        /// Frequency × `frequencyScale` (10⁹); the sample-size row holds the checklist counts as they are.
        case value
    }

    public enum SeasonColumn: Int, RowColumn {
        case taxonRow
        /// 1 resident, 0 not.
        case resident
        /// Dates as `month × 100 + day` (`517` is 17 May).
        case breedingStart, breedingEnd, nonbreedingStart, nonbreedingEnd
        case prebreedingMigrationStart, prebreedingMigrationEnd, postbreedingMigrationStart, postbreedingMigrationEnd

        public var kind: ColumnKind {
            switch self {
            case .taxonRow: return .u32
            case .resident: return .u8
            default: return .u16
            }
        }
    }

    /// Bar-chart frequencies are stored as parts per billion.
    public static let frequencyScale: Double = 1_000_000_000

    /// Bar charts have 48 periods: 4 per month.
    public static let periodsPerYear = 48

    /// The region row meaning "the bird lists no locations".
    public static let anyRegion: UInt32 = 0xFF_FFFF
    /// The period meaning "the bird lists no months".
    public static let anyPeriod: UInt32 = 0

    /// Packs a (region, period, species) entry of `RMON`/`RWEK`: integer order is
    /// region, then period, then species row.
    public enum RegionKey {
        @inlinable
        public static func pack(region: UInt32, period: UInt32, species: UInt32) -> UInt64 {
            UInt64(region & 0xFF_FFFF) << 40 | UInt64(period & 0xFF) << 32 | UInt64(species)
        }

        /// The first key of a (region, period) run.
        @inlinable
        public static func prefix(region: UInt32, period: UInt32) -> UInt64 { pack(region: region, period: period, species: 0) }

        @inlinable
        public static func species(_ key: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: key) }

        @inlinable
        public static func run(_ key: UInt64) -> UInt64 { key >> 32 }
    }

    /// The months a week of the year touches (week `w` is days `7(w − 1) + 1 … 7w` of a
    /// 365-day year; week 53 is 31 December): bit `m - 1` for month `m`.
    public static let weekMonthMasks: [UInt16] = {
        let monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var monthOfDay: [Int] = []
        for (month, days) in monthDays.enumerated() { monthOfDay += Array(repeating: month + 1, count: days) }
        return (0...53).map { week in
            guard week > 0 else { return 0 }
            var mask: UInt16 = 0
            for day in ((week - 1) * 7)..<min(week * 7, 365) { mask |= 1 << UInt16(monthOfDay[day] - 1) }
            return mask
        }
    }()

    /// One observed bird: taxon, the observation's region (eBird state/county, else empty),
    /// month and week (absent when undated), position (`HotspotGrid.encode`d, absent when
    /// unknown) and count (absent for `X`).
    public enum ObservationColumn: Int, RowColumn {
        case taxonRow, region, month, week, latitude, longitude, count
        public var kind: ColumnKind {
            switch self {
            case .region: return .string
            case .month, .week: return .u8
            case .taxonRow, .latitude, .longitude, .count: return .u32
            }
        }
    }

    /// Month and week of an ISO `YYYY-MM-DD…` date as the tables count them: week *w* is days
    /// 7(*w*−1)+1 … 7*w* of the year, at most 53.
    ///
    /// ```swift
    /// BirdsSchema.monthAndWeek(ofISODate: "2025-01-08")   // (1, 2)
    /// ```
    public static func monthAndWeek(ofISODate text: String) -> (month: Int, week: Int)? {
        let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
        let cumulative = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
        let leap = parts[0] % 4 == 0 && (parts[0] % 100 != 0 || parts[0] % 400 == 0)
        let day = cumulative[parts[1] - 1] + parts[2] + (leap && parts[1] > 2 ? 1 : 0)
        return (parts[1], min(53, (day - 1) / 7 + 1))
    }

    /// The 1°×1° grid over hotspot coordinates: cells numbered row-major from (−90°, −180°).
    public enum HotspotGrid {
        public static let columns = 360

        @inlinable
        public static func latitudeIndex(_ latitude: Double) -> Int { min(179, max(0, Int((latitude + 90).rounded(.down)))) }

        @inlinable
        public static func longitudeIndex(_ longitude: Double) -> Int { min(359, max(0, Int((longitude + 180).rounded(.down)))) }

        @inlinable
        public static func cell(latitude: Double, longitude: Double) -> UInt64 {
            UInt64(latitudeIndex(latitude) * columns + longitudeIndex(longitude))
        }

        /// Coordinates are stored as degrees × 10⁶ in an `Int32`.
        @inlinable
        public static func encode(_ degrees: Double) -> UInt32 { UInt32(bitPattern: Int32((degrees * 1_000_000).rounded())) }

        @inlinable
        public static func decode(_ stored: UInt32) -> Double { Double(Int32(bitPattern: stored)) / 1_000_000 }
    }
}
