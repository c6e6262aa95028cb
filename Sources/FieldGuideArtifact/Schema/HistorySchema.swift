/// The sections of the registry history (`history.fgb`): what changed, per N-number, from one
/// published build to the next, as this installation saw it.
///
/// The nightly pipeline writes it into each published build from the previous build's history
/// and the two aircraft artifacts (`RegistrationHistoryWriter`). Bounded: each N-number keeps its
/// last `HistorySchema.eventsPerNumber` events; older ones drop off as new ones come.
public enum HistorySchema {
    /// The artifact kind in the header.
    public static let kind = FourCC("HIST")
    /// Events kept per N-number: its newest ones. An owner, status, address or model change is
    /// a handful of events in an aircraft's life; 32 covers years of nightly changes to one
    /// number (an unstable record: status codes 13-29 cycling through renewal notices) while
    /// bounding the file at 32 rows per N-number ever seen.
    public static let eventsPerNumber = 32

    public enum Section {
        /// Every string, sorted (a `StringPool`).
        public static let strings = FourCC("STRS")
        /// Events by N-number, then build (oldest first), then kind.
        public static let events = FourCC("EVNT")
        /// `PackedKey` of each event's N-number, parallel to `EVNT`.
        public static let eventKeys = FourCC("EKEY")
        /// One row: the first build the history covers, the latest, and how many builds it saw.
        public static let info = FourCC("HINF")
    }

    /// What changed.
    public enum EventKind: UInt32, Sendable, CaseIterable, Codable {
        /// The N-number appeared in MASTER (`after`: the owner).
        case registered = 0
        /// The N-number left MASTER (`before`: the last owner).
        case deregistered = 1
        /// MASTER's NAME changed.
        case owner = 2
        /// MASTER's STATUS CODE changed (codes).
        case status = 3
        /// The street, city, state or ZIP changed (`street, street2, city state zip`).
        case address = 4
        /// The ACFTREF model code changed.
        case model = 5

        public var name: String {
            switch self {
            case .registered: return "registered"
            case .deregistered: return "deregistered"
            case .owner: return "owner"
            case .status: return "status"
            case .address: return "address"
            case .model: return "model"
            }
        }
    }

    public enum EventColumn: Int, RowColumn {
        case nNumber
        /// The build that saw the change (its directory name under `builds/`: the run id).
        case build
        case kind
        case before, after

        public var kind: ColumnKind {
            switch self {
            case .kind: return .u8
            default: return .string
            }
        }
    }

    public enum InfoColumn: Int, RowColumn {
        case firstBuild, lastBuild
        case builds

        public var kind: ColumnKind { self == .builds ? .u32 : .string }
    }
}
