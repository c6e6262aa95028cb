/// The four sections that give `RegistrationRecord.info` its text in two memory waits after
/// the lookup (format 1.3): `RTXR`, `MTXR` and `ETXR`, one `TextRecords` record per `REGS`,
/// `MODL` and `ENGN` row holding that row's text columns that `.info` decodes, and `RTXL`, the
/// links from each registration to its model's and engine's records.
///
/// Why they exist: through the string pool, each text field is two dependent cache misses (its
/// offset, then its bytes) after the row's, and the model's fields two more after the model's
/// row. `.info` decodes 11 such fields of the registration, 5 of the model and 3 of the engine:
/// about 40 lines in a 100 MB file, in four waits one after another (measured on the full-size
/// registry, random keys: 1.25-1.39 µs, 0.57-0.62 µs when all of it is in cache). A record holds
/// the same text in one or two lines. The registration's record start and its links are found
/// from the row number alone, so they are requested with the row; then the three records and
/// the model's and engine's rows all at once. The records copy text the pool already holds
/// (about 25 MB at full size), the price of that speed; the pool stays the one source for every
/// other reader, and for a field longer than a record keeps (`TextRecords.keptOut`).
///
/// `RTXL` (rows: the registrations), in `REGS` row order:
///
/// ```text
/// u32  where the record of the registration's model starts in MTXR's data (UInt32.max: none)
/// u32  where the record of its engine starts in ETXR's data (UInt32.max: none)
/// ```
///
/// A link is read as a record's start: a crafted one gives wrong text, never a read outside
/// the data (`TextRecords.record(at:)`); `.full` opening checks each against the row's model
/// and engine.
///
/// An artifact without them (format 1.2 and before) reads its text through the pool; all four
/// or none.
extension AircraftSchema.Section {
    /// The text of each registration that `.info` decodes (`RegistrationTextField`).
    public static let registrationText = FourCC("RTXR")
    /// The text of each model (`ModelTextField`).
    public static let modelText = FourCC("MTXR")
    /// The text of each engine (`EngineTextField`).
    public static let engineText = FourCC("ETXR")
    /// Each registration's links to its model's and engine's records.
    public static let registrationTextLinks = FourCC("RTXL")
}

extension AircraftSchema {
    /// The fields of an `RTXR` record, in their stored order.
    public enum RegistrationTextField: Int, CaseIterable, Sendable {
        case engineCode, street, street2, zip, county, country, certification, otherNames, uniqueID, kitManufacturer, kitModel

        /// The `REGS` column the field repeats.
        public var column: RegistrationColumn {
            switch self {
            case .engineCode: return .engineCode
            case .street: return .street
            case .street2: return .street2
            case .zip: return .zip
            case .county: return .county
            case .country: return .country
            case .certification: return .certification
            case .otherNames: return .otherNames
            case .uniqueID: return .uniqueID
            case .kitManufacturer: return .kitManufacturer
            case .kitModel: return .kitModel
            }
        }
    }

    /// The fields of an `MTXR` record, in their stored order.
    public enum ModelTextField: Int, CaseIterable, Sendable {
        case code, manufacturer, model, typeCertificateDataSheet, typeCertificateHolder

        /// The `MODL` column the field repeats.
        public var column: ModelColumn {
            switch self {
            case .code: return .code
            case .manufacturer: return .manufacturer
            case .model: return .model
            case .typeCertificateDataSheet: return .typeCertificateDataSheet
            case .typeCertificateHolder: return .typeCertificateHolder
            }
        }
    }

    /// The fields of an `ETXR` record, in their stored order.
    public enum EngineTextField: Int, CaseIterable, Sendable {
        case code, manufacturer, model

        /// The `ENGN` column the field repeats.
        public var column: EngineColumn {
            switch self {
            case .code: return .code
            case .manufacturer: return .manufacturer
            case .model: return .model
            }
        }
    }
}
