/// The FAA releasable files FieldGuide reads (DEREG and RESERVED optional: see `FAAStatusLayout`).
public enum FAAFileKind: String, Sendable, CaseIterable, Codable {
    case aircraftReference = "ACFTREF"
    case engine = "ENGINE"
    case master = "MASTER"
    case deregistered = "DEREG"
    case reserved = "RESERVED"

    /// The file name in the FAA download.
    public var fileName: String { rawValue + ".txt" }
}

/// One column of an FAA file: its header name and its width in the fixed-width layout.
public struct FAAColumn: Sendable, Hashable {
    public let name: String
    public let width: Int
}

/// Column layouts from the FAA's record layout document (ardata, 5/8/2025), with the errata
/// checked against real rows: dates are YYYYMMDD, and ACFTREF's TC-DATA-SHEET is 15 wide at
/// 90-104 and TC-DATA-HOLDER 50 wide at 106-155.
///
/// Every line, header included, ends with a comma, so a record has one more (empty) field
/// than its layout has columns.
public enum FAALayout {
    public static let aircraftReference: [FAAColumn] = [
        .init(name: "CODE", width: 7), .init(name: "MFR", width: 30), .init(name: "MODEL", width: 20),
        .init(name: "TYPE-ACFT", width: 1), .init(name: "TYPE-ENG", width: 2), .init(name: "AC-CAT", width: 1),
        .init(name: "BUILD-CERT-IND", width: 1), .init(name: "NO-ENG", width: 2), .init(name: "NO-SEATS", width: 3),
        .init(name: "AC-WEIGHT", width: 7), .init(name: "SPEED", width: 4), .init(name: "TC-DATA-SHEET", width: 15),
        .init(name: "TC-DATA-HOLDER", width: 50),
    ]

    public static let engine: [FAAColumn] = [
        .init(name: "CODE", width: 5), .init(name: "MFR", width: 10), .init(name: "MODEL", width: 13),
        .init(name: "TYPE", width: 2), .init(name: "HORSEPOWER", width: 5), .init(name: "THRUST", width: 6),
    ]

    public static let master: [FAAColumn] = [
        .init(name: "N-NUMBER", width: 5), .init(name: "SERIAL NUMBER", width: 30),
        .init(name: "MFR MDL CODE", width: 7), .init(name: "ENG MFR MDL", width: 5), .init(name: "YEAR MFR", width: 4),
        .init(name: "TYPE REGISTRANT", width: 1), .init(name: "NAME", width: 50), .init(name: "STREET", width: 33),
        .init(name: "STREET2", width: 33), .init(name: "CITY", width: 18), .init(name: "STATE", width: 2),
        .init(name: "ZIP CODE", width: 10), .init(name: "REGION", width: 1), .init(name: "COUNTY", width: 3),
        .init(name: "COUNTRY", width: 2), .init(name: "LAST ACTION DATE", width: 8),
        .init(name: "CERT ISSUE DATE", width: 8), .init(name: "CERTIFICATION", width: 10),
        .init(name: "TYPE AIRCRAFT", width: 1), .init(name: "TYPE ENGINE", width: 2), .init(name: "STATUS CODE", width: 2),
        .init(name: "MODE S CODE", width: 8), .init(name: "FRACT OWNER", width: 1),
        .init(name: "AIR WORTH DATE", width: 8), .init(name: "OTHER NAMES(1)", width: 50),
        .init(name: "OTHER NAMES(2)", width: 50), .init(name: "OTHER NAMES(3)", width: 50),
        .init(name: "OTHER NAMES(4)", width: 50), .init(name: "OTHER NAMES(5)", width: 50),
        .init(name: "EXPIRATION DATE", width: 8), .init(name: "UNIQUE ID", width: 8), .init(name: "KIT MFR", width: 30),
        .init(name: "KIT MODEL", width: 20), .init(name: "MODE S CODE HEX", width: 10),
    ]

    public static func columns(_ kind: FAAFileKind) -> [FAAColumn] {
        switch kind {
        case .aircraftReference: return aircraftReference
        case .engine: return engine
        case .master: return master
        case .deregistered: return FAAStatusLayout.deregistered
        case .reserved: return FAAStatusLayout.reserved
        }
    }

    /// Which file a header belongs to, comparing trimmed names (MASTER writes `" KIT MODEL"`).
    public static func kind(ofHeader names: [String]) -> FAAFileKind? {
        let trimmed = names.map { $0.trimmingSpaces() }
        let withoutTrailing = trimmed.last == "" ? Array(trimmed.dropLast()) : trimmed
        return FAAFileKind.allCases.first { columns($0).map(\.name) == withoutTrailing }
    }
}

extension String {
    /// Drops leading and trailing spaces and tabs (the FAA pads with spaces).
    func trimmingSpaces() -> String {
        var utf8 = Substring(self).utf8
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
        return String(Substring(utf8))
    }
}
