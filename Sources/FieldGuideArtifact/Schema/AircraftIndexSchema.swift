/// The sections of the manufacturer index (`aircraft-index.fgb`): the FAA's ACFTREF models and
/// ENGINE engines, the ICAO type designators, the crosswalk between the two, and a search index.
///
/// Shared by the writer (FieldGuideEmit) and the reader (FieldGuide's `AircraftIndex`). Built
/// without MASTER, small enough to ship inside an app: text lives in fixed-width columns in row
/// order (`TextColumn`), numbers in narrow row tables, and the search postings are
/// delta-encoded. Every text column named "sorted" is sorted by its bytes.
///
/// ```swift
/// let file = try ArtifactFile(path: "output/aircraft-index.fgb", expectedKind: AircraftIndexSchema.kind)
/// ```
public enum AircraftIndexSchema {
    /// The artifact kind in the header.
    public static let kind = FourCC("ACIX")

    public enum Section {
        /// ACFTREF codes, sorted: the model table's order.
        public static let modelCodes = FourCC("MCOD")
        /// Each model's MODEL, in code order.
        public static let modelNames = FourCC("MNAM")
        /// Each model's row in the manufacturer table (`U32Column`), in code order.
        public static let modelManufacturers = FourCC("MMFR")
        /// Each model's codes and numbers (`ModelColumn`), in code order.
        public static let modelAttributes = FourCC("MATT")
        /// Each model's TC-DATA-SHEET, in code order.
        public static let modelDataSheets = FourCC("MTCS")
        /// Each model's TC-DATA-HOLDER, in code order.
        public static let modelDataHolders = FourCC("MTCH")
        /// Manufacturer names, distinct, sorted by folded name (`NameFolding`) then name.
        public static let manufacturerNames = FourCC("FNAM")
        /// How many models each manufacturer has (`U32Column`).
        public static let manufacturerModelCounts = FourCC("FCNT")
        /// ENGINE codes, sorted: the engine table's order.
        public static let engineCodes = FourCC("ECOD")
        /// Each engine's manufacturer, in code order.
        public static let engineManufacturers = FourCC("EMFR")
        /// Each engine's model, in code order.
        public static let engineModels = FourCC("EMDL")
        /// Each engine's type and power (`EngineColumn`), in code order.
        public static let engineAttributes = FourCC("EATT")
        /// Code tables: table name, code and display name, one row each, sorted by table then code.
        public static let codeTables = FourCC("CTAB")
        public static let codeValues = FourCC("CVAL")
        public static let codeNames = FourCC("CNAM")
        /// ICAO type designators, sorted: the type table's order (designators the crosswalk
        /// names but the ICAO list lacks are rows with an empty name).
        public static let typeDesignators = FourCC("TDES")
        /// Each type's name (`BOEING 737-800`).
        public static let typeNames = FourCC("TNAM")
        /// Each type's description: class, engine count, engine type (`L2J`).
        public static let typeDescriptions = FourCC("TDSC")
        /// Each type's wake turbulence category (`L`, `M`, `H`, `J`, `L/M`).
        public static let typeWakeClasses = FourCC("TWAK")
        /// The crosswalk (`CrosswalkColumn`): each model with registrations whose Mode S address
        /// has a designator, and its majority designator; sorted by type row, registrations
        /// (most first), then model row.
        public static let crosswalk = FourCC("XWLK")
        /// Crosswalk rows (`U32Column`) sorted by model row: a model's designator.
        public static let crosswalkByModel = FourCC("XMDL")
        /// The search dictionary: every atom (`SearchText`) of a type name, model name or
        /// manufacturer name, sorted.
        public static let searchAtoms = FourCC("SATM")
        /// Where each atom's postings lie in `SPST` (`AtomColumn`), parallel to `SATM`.
        public static let searchAtomPostings = FourCC("SAPS")
        /// Atom rows (`U32Column`) sorted by their reversed bytes: for one-typo lookups by suffix.
        public static let searchAtomsReversed = FourCC("SREV")
        /// Postings: per atom, the entities (`SearchEntity`) holding it, ascending, as LEB128
        /// deltas from the previous one (the first from 0).
        public static let searchPostings = FourCC("SPST")
    }

    /// A table of one 32-bit number per row.
    public enum U32Column: Int, U32RowColumn {
        case value
    }

    /// A model's coded fields (rows of the code tables, absent when blank) and numbers.
    public enum ModelColumn: Int, RowColumn {
        case aircraftType, engineType, category, builderCertification, weightClass
        case engineCount, seatCount, cruiseSpeed

        public var kind: ColumnKind {
            switch self {
            case .engineCount: return .u8
            default: return .u16
            }
        }
    }

    /// An engine's type (a row of the code tables) and power.
    public enum EngineColumn: Int, RowColumn {
        case engineType, horsepower, thrust

        public var kind: ColumnKind { self == .engineType ? .u16 : .u32 }
    }

    /// A crosswalk row: the model's majority designator with the registrations that agree, and
    /// the model's registrations that have a designator at all.
    public enum CrosswalkColumn: Int, U32RowColumn {
        case typeRow, modelRow, registrations, modelRegistrations
    }

    /// An atom's postings: the byte offset of its list in `SPST`, and how many entities it holds.
    public enum AtomColumn: Int, U32RowColumn {
        case start, count
    }

    /// An entity of the search index: its kind in the top two bits, its row below.
    ///
    /// ```swift
    /// SearchEntity(kind: .model, row: 12).rawValue   // 0x4000000C
    /// ```
    public struct SearchEntity: Hashable, Comparable, Sendable {
        public enum Kind: UInt32, Sendable, CaseIterable {
            case type = 0, model = 1, manufacturer = 2
        }

        /// Rows must stay below this (2^30).
        public static let rowLimit = 1 << 30

        public let rawValue: UInt32

        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public init(kind: Kind, row: Int) { rawValue = kind.rawValue << 30 | UInt32(row) }

        /// Nil for the unused fourth kind (a crafted posting).
        public var kind: Kind? { Kind(rawValue: rawValue >> 30) }
        public var row: Int { Int(rawValue & 0x3FFF_FFFF) }

        public static func < (a: SearchEntity, b: SearchEntity) -> Bool { a.rawValue < b.rawValue }
    }

    /// The largest number of rows a code table column can point at (its values are `u16`).
    public static let maximumCodes = 65_534
}
