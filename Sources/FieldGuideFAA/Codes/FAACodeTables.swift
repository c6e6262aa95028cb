/// A table of FAA codes and their display names, from the ardata record layout.
public struct FAACodeTable: Sendable {
    /// A stable identifier (`"aircraft-type"`), as stored in artifacts.
    public let id: String
    /// The FAA field the codes come from.
    public let field: String
    public let entries: [(code: String, name: String)]
    private let index: [String: String]
    /// The one-byte codes as bits (byte `b` is bit `b % 64` of word `b / 64`), and the two-byte
    /// ones packed as `first << 8 | second`. All codes are 1 or 2 bytes, most of them one: the
    /// fast paths test three or four codes of every MASTER and ACFTREF row, where a search
    /// through every code packed this way took about 100 instructions (callgrind).
    private let singleByteCodes: (UInt64, UInt64, UInt64, UInt64)
    private let packedCodes: [UInt16]

    init(id: String, field: String, _ entries: [(String, String)]) {
        self.id = id
        self.field = field
        self.entries = entries.map { (code: $0.0, name: $0.1) }
        self.index = Dictionary(uniqueKeysWithValues: entries)
        var single: [UInt64] = [0, 0, 0, 0], packed: [UInt16] = []
        for bytes in entries.map({ Array($0.0.utf8) }) {
            precondition((1...2).contains(bytes.count) && !bytes.contains(0), "FAA codes are 1 or 2 bytes, none zero")
            if bytes.count == 1 {
                single[Int(bytes[0] >> 6)] |= 1 << UInt64(bytes[0] & 63)
            } else {
                packed.append(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
            }
        }
        singleByteCodes = (single[0], single[1], single[2], single[3])
        packedCodes = packed
    }

    /// The display name of `code`, or nil for a code the layout does not list.
    public func name(of code: String) -> String? { index[code] }

    /// Whether the table lists the code spelled by these bytes (`name(of:) != nil` without a `String`).
    func contains(_ code: UnsafeRawBufferPointer) -> Bool {
        if code.count == 1 {
            let byte = code[0], words = singleByteCodes
            let word = switch byte >> 6 { case 0: words.0 case 1: words.1 case 2: words.2 default: words.3 }
            return word >> UInt64(byte & 63) & 1 != 0
        }
        return code.count == 2 && packedCodes.contains(UInt16(code[0]) << 8 | UInt16(code[1]))
    }
}

/// A code as found in a record: the raw value and, when the table lists it, its name.
package struct FAACode: Sendable, Hashable, Codable, CustomStringConvertible {
    package let raw: String
    package let name: String?

    package init(raw: String, name: String?) {
        self.raw = raw
        self.name = name
    }

    package var isKnown: Bool { name != nil }
    package var description: String { name.map { "\(raw) (\($0))" } ?? raw }
}

/// Every code table of the ardata layout used by ACFTREF, ENGINE and MASTER.
public enum FAACodeTables {
    public static let aircraftType = FAACodeTable(id: "aircraft-type", field: "TYPE-ACFT / TYPE AIRCRAFT", [
        ("1", "Glider"), ("2", "Balloon"), ("3", "Blimp/Dirigible"), ("4", "Fixed wing single engine"),
        ("5", "Fixed wing multi engine"), ("6", "Rotorcraft"), ("7", "Weight-shift-control"),
        ("8", "Powered Parachute"), ("9", "Gyroplane"), ("H", "Hybrid Lift"), ("O", "Other"),
    ])

    public static let engineType = FAACodeTable(id: "engine-type", field: "TYPE-ENG / TYPE ENGINE / TYPE", [
        ("0", "None"), ("1", "Reciprocating"), ("2", "Turbo-prop"), ("3", "Turbo-shaft"), ("4", "Turbo-jet"),
        ("5", "Turbo-fan"), ("6", "Ramjet"), ("7", "2 Cycle"), ("8", "4 Cycle"), ("9", "Unknown"),
        ("10", "Electric"), ("11", "Rotary"),
    ])

    /// ACFTREF's AC-CAT: where the aircraft operates from. Not the airworthiness class.
    public static let aircraftCategory = FAACodeTable(id: "aircraft-category", field: "AC-CAT", [
        ("1", "Land"), ("2", "Sea"), ("3", "Amphibian"),
    ])

    public static let builderCertification = FAACodeTable(id: "builder-certification", field: "BUILD-CERT-IND", [
        ("0", "Type Certificated"), ("1", "Not Type Certificated"), ("2", "Light Sport"),
    ])

    /// AC-WEIGHT, keyed by the class number (`CLASS 1` → `1`).
    public static let weightClass = FAACodeTable(id: "weight-class", field: "AC-WEIGHT", [
        ("1", "Up to 12,499 lbs"), ("2", "12,500 - 19,999 lbs"), ("3", "20,000 lbs and over"), ("4", "UAV up to 55 lbs"),
    ])

    public static let registrantType = FAACodeTable(id: "registrant-type", field: "TYPE REGISTRANT", [
        ("1", "Individual"), ("2", "Partnership"), ("3", "Corporation"), ("4", "Co-Owned"), ("5", "Government"),
        ("7", "LLC"), ("8", "Non Citizen Corporation"), ("9", "Non Citizen Co-Owned"),
    ])

    public static let region = FAACodeTable(id: "region", field: "REGION", [
        ("1", "Eastern"), ("2", "Southwestern"), ("3", "Central"), ("4", "Western-Pacific"), ("5", "Alaskan"),
        ("7", "Southern"), ("8", "European"), ("C", "Great Lakes"), ("E", "New England"), ("S", "Northwest Mountain"),
    ])

    public static let status = FAACodeTable(id: "status", field: "STATUS CODE", [
        ("A", "Triennial registration form mailed, not returned by the Post Office"),
        ("D", "Expired Dealer"),
        ("E", "Certificate of Aircraft Registration revoked by enforcement action"),
        ("M", "Valid - assigned to the manufacturer under its Dealer Certificate"),
        ("N", "Non-citizen corporation that has not returned its flight hour reports"),
        ("R", "Registration pending"),
        ("S", "Second triennial registration form mailed, not returned by the Post Office"),
        ("T", "Valid Registration from a Trainee"),
        ("V", "Valid Registration"),
        ("W", "Certificate of Registration deemed Ineffective or Invalid"),
        ("X", "Enforcement Letter"),
        ("Z", "Permanent Reserved"),
        ("1", "Triennial registration form returned by the Post Office as undeliverable"),
        ("2", "N-Number Assigned - not yet registered"),
        ("3", "N-Number assigned as a Non Type Certificated aircraft - not yet registered"),
        ("4", "N-Number assigned as import - not yet registered"),
        ("5", "Reserved N-Number"),
        ("6", "Administratively canceled"),
        ("7", "Sale reported"),
        ("8", "Second attempt at mailing a triennial registration form, no response"),
        ("9", "Certificate of Registration revoked"),
        ("10", "N-Number assigned, not registered, pending cancellation"),
        ("11", "N-Number assigned as Non Type Certificated (Amateur), not registered, pending cancellation"),
        ("12", "N-Number assigned as import, not registered, pending cancellation"),
        ("13", "Registration Expired"),
        ("14", "First Notice for Re-Registration/Renewal"),
        ("15", "Second Notice for Re-Registration/Renewal"),
        ("16", "Registration Expired - Pending Cancellation"),
        ("17", "Sale Reported - Pending Cancellation"),
        ("18", "Sale Reported - Canceled"),
        ("19", "Registration Pending - Pending Cancellation"),
        ("20", "Registration Pending - Canceled"),
        ("21", "Revoked - Pending Cancellation"),
        ("22", "Revoked - Canceled"),
        ("23", "Expired Dealer (Pending Cancellation)"),
        ("24", "Third Notice for Re-Registration/Renewal"),
        ("25", "First Notice for Registration Renewal"),
        ("26", "Second Notice for Registration Renewal"),
        ("27", "Registration Expired"),
        ("28", "Third Notice for Registration Renewal"),
        ("29", "Registration Expired - Pending Cancellation"),
    ])

    /// MASTER's airworthiness class: the first character of CERTIFICATION.
    ///
    /// The aircraft app labels this table "AC-CAT"; it is not ACFTREF's AC-CAT (Land/Sea/Amphibian).
    public static let airworthinessClass = FAACodeTable(id: "airworthiness-class", field: "CERTIFICATION (1st character)", [
        ("1", "Standard"), ("2", "Limited"), ("3", "Restricted"), ("4", "Experimental"), ("5", "Provisional"),
        ("6", "Multiple"), ("7", "Primary"), ("8", "Special Flight Permit"), ("9", "Light Sport"),
    ])

    /// The tables stored in artifacts, in a fixed order.
    public static let all: [FAACodeTable] = [
        aircraftType, engineType, aircraftCategory, builderCertification, weightClass, registrantType,
        status, region, airworthinessClass, reservationType,
    ]

    /// Operation codes that may follow the airworthiness class, per class.
    static let standardOperations: [String: String] = [
        "N": "Normal", "U": "Utility", "A": "Acrobatic", "T": "Transport", "G": "Glider", "B": "Balloon",
        "C": "Commuter", "O": "Other",
    ]
    static let restrictedOperations: [String: String] = [
        "0": "Other", "1": "Agriculture and Pest Control", "2": "Aerial Surveying", "3": "Aerial Advertising",
        "4": "Forest", "5": "Patrolling", "6": "Weather Control", "7": "Carriage of Cargo",
    ]
    static let experimentalOperations: [String: String] = [
        "0": "To show compliance with FAR", "1": "Research and Development", "2": "Amateur Built", "3": "Exhibition",
        "4": "Racing", "5": "Crew Training", "6": "Market Survey", "7": "Operating Kit Built Aircraft",
        "8A": "Reg. Prior to 01/31/08", "8B": "Operating Light-Sport Kit-Built",
        "8C": "Operating Light-Sport Previously issued cert under 21.190",
        "9A": "Unmanned Aircraft - Research and Development", "9B": "Unmanned Aircraft - Market Survey",
        "9C": "Unmanned Aircraft - Crew Training", "9D": "Unmanned Aircraft - Exhibition",
        "9E": "Unmanned Aircraft - Compliance With CFR",
    ]
    static let provisionalOperations: [String: String] = ["1": "Class I", "2": "Class II"]
    static let multipleClasses: [String: String] = ["1": "Standard", "2": "Limited", "3": "Restricted"]
    static let specialFlightOperations: [String: String] = [
        "1": "Ferry flight for repairs, alterations, maintenance or storage",
        "2": "Evacuate from area of impending danger", "3": "Operation in excess of maximum certificated",
        "4": "Delivery or export", "5": "Production flight testing", "6": "Customer Demo",
    ]
    static let lightSportOperations: [String: String] = [
        "A": "Airplane", "G": "Glider", "L": "Lighter than Air", "P": "Power-Parachute", "W": "Weight-Shift-Control",
    ]
}

extension FAACodeTables {
    /// The name of an approved-operation code under an airworthiness class, if listed.
    ///
    /// For class 6 (Multiple) the first two positions name classes and the rest restricted
    /// operations, so the position matters: pass `position` 0 for the first character after the
    /// class. Elsewhere it is ignored.
    public static func operationName(classCode: String, code: String, position: Int = 2) -> String? {
        switch classCode {
        case "1": return standardOperations[code]
        case "3": return restrictedOperations[code]
        case "4": return experimentalOperations[code]
        case "5": return provisionalOperations[code]
        case "6": return position < 2 ? multipleClasses[code] : restrictedOperations[code]
        case "8": return specialFlightOperations[code]
        case "9": return lightSportOperations[code]
        default: return nil
        }
    }
}
