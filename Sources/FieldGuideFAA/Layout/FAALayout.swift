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

    /// A layout written as `name: width` pairs, in the file's column order.
    ///
    /// ```swift
    /// FAAColumn.layout(["CODE": 5, "MFR": 10]).map(\.width)   // [5, 10]
    /// ```
    static func layout(_ columns: KeyValuePairs<String, Int>) -> [FAAColumn] {
        columns.map { FAAColumn(name: $0.key, width: $0.value) }
    }
}

/// Column layouts from the FAA's record layout document (ardata, 5/8/2025), with the errata
/// checked against real rows: dates are YYYYMMDD, and ACFTREF's TC-DATA-SHEET is 15 wide at
/// 90-104 and TC-DATA-HOLDER 50 wide at 106-155.
///
/// Every line, header included, ends with a comma, so a record has one more (empty) field
/// than its layout has columns.
public enum FAALayout {
    public static let aircraftReference = FAAColumn.layout([
        "CODE": 7, "MFR": 30, "MODEL": 20, "TYPE-ACFT": 1, "TYPE-ENG": 2, "AC-CAT": 1, "BUILD-CERT-IND": 1,
        "NO-ENG": 2, "NO-SEATS": 3, "AC-WEIGHT": 7, "SPEED": 4, "TC-DATA-SHEET": 15, "TC-DATA-HOLDER": 50,
    ])

    public static let engine = FAAColumn.layout([
        "CODE": 5, "MFR": 10, "MODEL": 13, "TYPE": 2, "HORSEPOWER": 5, "THRUST": 6,
    ])

    public static let master = FAAColumn.layout([
        "N-NUMBER": 5, "SERIAL NUMBER": 30, "MFR MDL CODE": 7, "ENG MFR MDL": 5, "YEAR MFR": 4, "TYPE REGISTRANT": 1,
        "NAME": 50, "STREET": 33, "STREET2": 33, "CITY": 18, "STATE": 2, "ZIP CODE": 10, "REGION": 1, "COUNTY": 3,
        "COUNTRY": 2, "LAST ACTION DATE": 8, "CERT ISSUE DATE": 8, "CERTIFICATION": 10, "TYPE AIRCRAFT": 1,
        "TYPE ENGINE": 2, "STATUS CODE": 2, "MODE S CODE": 8, "FRACT OWNER": 1, "AIR WORTH DATE": 8,
        "OTHER NAMES(1)": 50, "OTHER NAMES(2)": 50, "OTHER NAMES(3)": 50, "OTHER NAMES(4)": 50, "OTHER NAMES(5)": 50,
        "EXPIRATION DATE": 8, "UNIQUE ID": 8, "KIT MFR": 30, "KIT MODEL": 20, "MODE S CODE HEX": 10,
    ])

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
