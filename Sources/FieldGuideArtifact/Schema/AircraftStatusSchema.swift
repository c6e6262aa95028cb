/// The rows of the aircraft artifact's status sections (tags in `AircraftSchema.Section`,
/// `DSTR`, `DREG`, `DKEY`, `RSVD`, `VKEY`): DEREG (deregistered aircraft) and RESERVED
/// (reserved N-numbers), beside MASTER's registrations, so that an N-number's status is read
/// from the one file.
///
/// They have a string pool of their own (`DSTR`), as the registry search has (`XSTR`): the
/// sections are built apart from the registrations and never change them. An artifact without
/// them (written before them, or from a download without DEREG or RESERVED) still opens; the
/// query library then says it cannot tell deregistered or reserved numbers from available ones.
/// Additions only: the format stays 1.0 (older readers ignore sections they do not know).
/// Dates are `yyyymmdd`, absent as `UInt32.max`; `DSTR` ids are strings (0 is "").
public enum AircraftStatusSchema {
    /// What the status answer needs of a DEREG row: the aircraft, the last owner's name and
    /// place, why and when it left. Street lines, co-owners, kit, engine and certification stay
    /// in the hand-off (`deregistered.csv`): on a full-size DEREG (400,000 rows) they were half
    /// the sections' 78 MB and most of emit-aircraft's added memory.
    public enum DeregisteredColumn: Int, RowColumn {
        case nNumber, serialNumber, modelCode, status, registrantType, name
        case city, state, country, exportCountry
        case cancelDate, airworthinessDate, lastActionDate, certificateIssueDate, modeSHex, yearManufactured

        public var kind: ColumnKind {
            switch self {
            case .cancelDate, .airworthinessDate, .lastActionDate, .certificateIssueDate, .modeSHex: return .u32
            case .yearManufactured: return .u16
            default: return .string
            }
        }
    }

    public enum ReservedColumn: Int, RowColumn {
        case nNumber, registrant, street, street2, city, state, zip, reservationType
        /// The N-number a change (types NC, NN, CN, CE) is to or from, `N`-prefixed.
        case changeNNumber
        case reserveDate, expirationDate, purgeDate

        public var kind: ColumnKind {
            switch self {
            case .reserveDate, .expirationDate, .purgeDate: return .u32
            default: return .string
            }
        }
    }
}
