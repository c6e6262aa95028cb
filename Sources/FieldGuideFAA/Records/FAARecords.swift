/// A calendar date from an FAA `YYYYMMDD` field.
public struct FAADate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Validates a real Gregorian date (`20230231` is nil).
    public init?(year: Int, month: Int, day: Int) {
        guard (1800...2200).contains(year), (1...12).contains(month), day >= 1,
              day <= FAADate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYYMMDD` or ISO `YYYY-MM-DD`.
    public init?(_ text: String) {
        var text = text
        guard let n = text.withUTF8({ FAADate.digits($0) }) else { return nil }
        self.init(year: n / 10_000, month: n / 100 % 100, day: n % 100)
    }

    /// `YYYYMMDD` or `YYYY-MM-DD` bytes as the number yyyymmdd, without building a string.
    static func digits(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let dashed = bytes.count == 10
        guard bytes.count == 8 || (dashed && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")) else { return nil }
        var n = 0
        for (i, byte) in bytes.enumerated() where !(dashed && (i == 4 || i == 7)) {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            n = n * 10 + Int(byte - 0x30)
        }
        return n
    }

    /// `20230426`.
    public var yyyymmdd: Int { year * 10_000 + month * 100 + day }

    /// `2023-04-26`.
    public var description: String {
        let digits: [UInt8] = [
            UInt8(0x30 + year / 1000 % 10), UInt8(0x30 + year / 100 % 10), UInt8(0x30 + year / 10 % 10), UInt8(0x30 + year % 10),
            UInt8(ascii: "-"), UInt8(0x30 + month / 10), UInt8(0x30 + month % 10),
            UInt8(ascii: "-"), UInt8(0x30 + day / 10), UInt8(0x30 + day % 10),
        ]
        return String(decoding: digits, as: UTF8.self)
    }

    public static func < (a: FAADate, b: FAADate) -> Bool { a.yyyymmdd < b.yyyymmdd }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// An aircraft model from ACFTREF: the manufacturer index.
public struct AircraftModel: Sendable, Hashable {
    /// The 7-character manufacturer/model/series code (`0020901`).
    public var code: String
    public var manufacturer: String
    public var model: String
    public var aircraftType: FAACode?
    public var engineType: FAACode?
    /// AC-CAT: Land, Sea or Amphibian.
    public var category: FAACode?
    public var builderCertification: FAACode?
    public var engineCount: Int?
    public var seatCount: Int?
    /// AC-WEIGHT class number (`CLASS 2` → `2`).
    public var weightClass: FAACode?
    /// Average cruising speed in mph; the FAA writes `0000` when unknown, kept absent here.
    public var cruiseSpeedMPH: Int?
    public var typeCertificateDataSheet: String
    public var typeCertificateHolder: String

    public init(code: String, manufacturer: String, model: String) {
        self.code = code
        self.manufacturer = manufacturer
        self.model = model
        self.typeCertificateDataSheet = ""
        self.typeCertificateHolder = ""
    }
}

/// An engine model from ENGINE.
public struct EngineModel: Sendable, Hashable {
    /// The 5-character engine manufacturer/model code (`17020`).
    public var code: String
    public var manufacturer: String
    public var model: String
    public var engineType: FAACode?
    public var horsepower: Int?
    public var thrustPounds: Int?

    public init(code: String, manufacturer: String, model: String) {
        self.code = code
        self.manufacturer = manufacturer
        self.model = model
    }
}

/// The airworthiness certificate: class (first character of CERTIFICATION) and operations.
public struct Airworthiness: Sendable, Hashable {
    /// The raw CERTIFICATION value, trimmed (`1NU`, `48A`, `6131`).
    public var certification: String
    /// 1 Standard … 9 Light Sport.
    public var classification: FAACode?
    /// The approved operation codes that follow the class, decoded for that class.
    public var operations: [FAACode]

    public init(certification: String, classification: FAACode?, operations: [FAACode]) {
        self.certification = certification
        self.classification = classification
        self.operations = operations
    }
}

/// An aircraft registration from MASTER.
public struct Registration: Sendable, Hashable {
    /// `N` followed by the mark (`N90`).
    public var nNumber: String
    public var serialNumber: String
    /// ACFTREF code of the model (join key).
    public var modelCode: String
    /// ENGINE code (join key); empty when the FAA left it blank.
    public var engineCode: String
    public var yearManufactured: Int?
    public var registrantType: FAACode?
    public var name: String
    public var street: String
    public var street2: String
    public var city: String
    public var state: String
    /// ZIP or ZIP+4 (`67215-1400`); other postal codes as written.
    public var zip: String
    public var region: FAACode?
    public var county: String
    public var country: String
    public var lastActionDate: FAADate?
    public var certificateIssueDate: FAADate?
    public var airworthiness: Airworthiness
    public var aircraftType: FAACode?
    public var engineType: FAACode?
    public var status: FAACode?
    /// The 24-bit ICAO address (checked: MODE S CODE octal equals MODE S CODE HEX).
    public var modeS: UInt32?
    public var fractionalOwner: Bool
    public var airworthinessDate: FAADate?
    public var otherNames: [String]
    public var expirationDate: FAADate?
    public var uniqueID: String
    public var kitManufacturer: String
    public var kitModel: String

    public init(nNumber: String) {
        self.nNumber = nNumber
        serialNumber = ""; modelCode = ""; engineCode = ""; name = ""; street = ""; street2 = ""
        city = ""; state = ""; zip = ""; county = ""; country = ""; uniqueID = ""; kitManufacturer = ""; kitModel = ""
        airworthiness = Airworthiness(certification: "", classification: nil, operations: [])
        fractionalOwner = false
        otherNames = []
    }

    /// The Mode S address as six upper-case hex digits (`AC6CD2`).
    public var modeSHex: String? {
        modeS.map { let s = String($0, radix: 16, uppercase: true); return String(repeating: "0", count: max(0, 6 - s.count)) + s }
    }
}
