/// The sections and row layouts of the aircraft artifact (`aircraft.fgb`).
///
/// Shared by the writer (FieldGuideEmit) and the reader (FieldGuide), so the two cannot
/// disagree. Codes are stored raw as strings (`"4"`, `"H"`, `"10"`); their display names are
/// in the `CODE` section. Dates are `yyyymmdd` numbers, absent as `UInt32.max`.
public enum AircraftSchema {
    /// The artifact kind in the header.
    public static let kind = FourCC("ACFT")

    public enum Section {
        /// Every string, sorted and deduplicated.
        public static let strings = FourCC("STRS")
        /// Aircraft models (ACFTREF), sorted by code.
        public static let models = FourCC("MODL")
        /// Manufacturers, sorted by their case-folded name.
        public static let manufacturers = FourCC("MFRS")
        /// Model row numbers grouped by manufacturer (`MFRS.firstModel ..< +modelCount`).
        public static let manufacturerModels = FourCC("MFRM")
        /// Engines (ENGINE), sorted by code.
        public static let engines = FourCC("ENGN")
        /// Registrations (MASTER), sorted by N-number.
        public static let registrations = FourCC("REGS")
        /// Mode S index: (hex address, registration row), sorted by address.
        public static let modeS = FourCC("MODS")
        /// Code tables: (table, code, display name), sorted by table then code.
        public static let codes = FourCC("CODE")
        /// `PackedKey` of each model's code, parallel to `MODL`.
        public static let modelKeys = FourCC("MKEY")
        /// `PackedKey` of each engine's code, parallel to `ENGN`.
        public static let engineKeys = FourCC("EKEY")
        /// `PackedKey` of each registration's N-number, parallel to `REGS`.
        public static let registrationKeys = FourCC("RKEY")
        /// `PackedKey` of each manufacturer's folded name (its first 8 bytes), parallel to `MFRS`.
        public static let manufacturerKeys = FourCC("FKEY")

        // Registry search (`RegistrySearchFolding` folds what they hold and what is asked).
        /// The folded search strings, sorted: owner-name words and model names (a `StringPool`).
        public static let searchStrings = FourCC("XSTR")
        /// Owner-name words by word: (word id in `XSTR`, first posting, posting count).
        public static let ownerWords = FourCC("OWRD")
        /// `REGS` rows of each owner word, in `OWRD` order, ascending within a word.
        public static let ownerPostings = FourCC("OWNP")
        /// (folded model name id in `XSTR`, `MODL` row), by name then row.
        public static let modelNames = FourCC("MNAM")
        /// `REGS` rows with a model code, by code (string id) then row.
        public static let registrationsByModel = FourCC("RBMD")
        /// Each model's stretch of `RBMD` (its code's registrations), parallel to `MODL`.
        public static let modelRegistrations = FourCC("MREG")
        /// `REGS` rows with a state, by state (string id) then row.
        public static let registrationsByState = FourCC("RBST")
        /// `REGS` rows with a serial number, by serial number (string id) then row.
        public static let registrationsBySerial = FourCC("RBSN")

        // Status: DEREG and RESERVED beside MASTER, optional (`AircraftStatusSchema` has their rows).
        /// The status sections' strings, sorted (a `StringPool` of their own, not `STRS`).
        public static let statusStrings = FourCC("DSTR")
        /// DEREG rows by N-number, then cancel date (newest first), then file order.
        public static let deregistered = FourCC("DREG")
        /// `PackedKey` of each DEREG row's N-number, parallel to `DREG`.
        public static let deregisteredKeys = FourCC("DKEY")
        /// RESERVED rows by N-number (one each).
        public static let reserved = FourCC("RSVD")
        /// `PackedKey` of each RESERVED row's N-number, parallel to `RSVD`.
        public static let reservedKeys = FourCC("VKEY")

        /// What the artifact withholds: one row, the registrant types whose owner is withheld.
        public static let privacy = FourCC("PRIV")
        /// The registry's as-of date: one row, the latest MASTER last-action date (0: none).
        public static let asOf = FourCC("ASOF")
    }

    public enum ModelColumn: Int, RowColumn {
        case code, manufacturer, model, aircraftType, engineType, category, builderCertification
        case engineCount, seatCount, weightClass, cruiseSpeed, typeCertificateDataSheet, typeCertificateHolder

        public var kind: ColumnKind {
            switch self {
            case .engineCount: return .u8
            case .seatCount, .cruiseSpeed: return .u16
            default: return .string
            }
        }
    }

    public enum ManufacturerColumn: Int, RowColumn {
        /// Upper-cased, diacritics removed: what prefix search compares.
        case foldedName
        case name, firstModel, modelCount

        public var kind: ColumnKind {
            switch self {
            case .foldedName, .name: return .string
            case .firstModel, .modelCount: return .u32
            }
        }
    }

    public enum ManufacturerModelColumn: Int, U32RowColumn {
        case modelRow
    }

    public enum EngineColumn: Int, RowColumn {
        case code, manufacturer, model, engineType, horsepower, thrust

        public var kind: ColumnKind {
            switch self {
            case .horsepower, .thrust: return .u32
            default: return .string
            }
        }
    }

    public enum RegistrationColumn: Int, RowColumn {
        case nNumber, serialNumber, modelCode, engineCode, modelRow, engineRow, yearManufactured
        case registrantType, name, street, street2, city, state, zip, region, county, country
        case lastActionDate, certificateIssueDate, certification, airworthinessClass, approvedOperations
        case aircraftType, engineType, status, modeSHex, fractionalOwner, airworthinessDate
        /// Co-owner names joined with `|`.
        case otherNames
        case expirationDate, uniqueID, kitManufacturer, kitModel

        public var kind: ColumnKind {
            switch self {
            case .modelRow, .engineRow, .modeSHex, .lastActionDate, .certificateIssueDate,
                 .airworthinessDate, .expirationDate:
                return .u32
            case .yearManufactured: return .u16
            case .fractionalOwner: return .u8
            default: return .string
            }
        }
    }

    public enum ModeSColumn: Int, U32RowColumn {
        case address, registrationRow
    }

    public enum OwnerWordColumn: Int, U32RowColumn {
        /// The word's id in `XSTR` (not `STRS`).
        case word
        case firstPosting, postingCount
    }

    /// One `REGS` row number: the rows of `OWNP`, `RBMD`, `RBST` and `RBSN`.
    public enum RegistrationRowColumn: Int, U32RowColumn {
        case registrationRow
    }

    public enum ModelRegistrationsColumn: Int, U32RowColumn {
        /// The model's first row in `RBMD`, and how many follow.
        case first, count
    }

    public enum ModelNameColumn: Int, U32RowColumn {
        /// The folded model name's id in `XSTR` (not `STRS`).
        case name
        case modelRow
    }

    public enum PrivacyColumn: Int, U32RowColumn {
        /// `OwnerRedaction.withheldRegistrantTypes`: bit `k` set withholds registrant type `k`.
        case withheldRegistrantTypes
    }

    /// The one row of `ASOF`.
    public enum AsOfColumn: Int, U32RowColumn {
        /// `yyyymmdd`: the latest last-action date among the registrations (0: none had one).
        case date
    }

    public enum CodeColumn: Int, StringRowColumn {
        case table, code, name
    }

    /// Names of the code tables in the `CODE` section.
    public enum CodeTable: String, CaseIterable, Sendable {
        case aircraftType = "aircraft-type"
        case engineType = "engine-type"
        case aircraftCategory = "aircraft-category"
        case builderCertification = "builder-certification"
        case weightClass = "weight-class"
        case registrantType = "registrant-type"
        case status = "status"
        case region = "region"
        case airworthinessClass = "airworthiness-class"
        /// RESERVED's TR (`AircraftStatusSchema`).
        case reservationType = "reservation-type"
    }

    /// The separator between joined values (`otherNames`, `approvedOperations`).
    public static let listSeparator: Character = "|"
}
