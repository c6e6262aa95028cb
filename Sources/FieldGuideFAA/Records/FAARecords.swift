/// A calendar date from an FAA `YYYYMMDD` field.
package struct FAADate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    package let year: Int
    package let month: Int
    package let day: Int

    /// Validates a real Gregorian date (`20230231` is nil).
    package init?(year: Int, month: Int, day: Int) {
        guard (1800...2200).contains(year), (1...12).contains(month), day >= 1,
              day <= FAADate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYYMMDD` or ISO `YYYY-MM-DD`.
    package init?(_ text: String) {
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
    package var yyyymmdd: Int { year * 10_000 + month * 100 + day }

    /// `2023-04-26`.
    package var description: String {
        let digits: [UInt8] = [
            UInt8(0x30 + year / 1000 % 10), UInt8(0x30 + year / 100 % 10), UInt8(0x30 + year / 10 % 10), UInt8(0x30 + year % 10),
            UInt8(ascii: "-"), UInt8(0x30 + month / 10), UInt8(0x30 + month % 10),
            UInt8(ascii: "-"), UInt8(0x30 + day / 10), UInt8(0x30 + day % 10),
        ]
        return String(decoding: digits, as: UTF8.self)
    }

    package static func < (a: FAADate, b: FAADate) -> Bool { a.yyyymmdd < b.yyyymmdd }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// An aircraft model from ACFTREF: the manufacturer index.
package struct AircraftModel: Sendable, Hashable {
    /// The 7-character manufacturer/model/series code (`0020901`).
    package var code: String
    package var manufacturer: String
    package var model: String
    package var aircraftType: FAACode?
    package var engineType: FAACode?
    /// AC-CAT: Land, Sea or Amphibian.
    package var category: FAACode?
    package var builderCertification: FAACode?
    package var engineCount: Int?
    package var seatCount: Int?
    /// AC-WEIGHT class number (`CLASS 2` → `2`).
    package var weightClass: FAACode?
    /// Average cruising speed in mph; the FAA writes `0000` when unknown, kept absent here.
    package var cruiseSpeedMPH: Int?
    package var typeCertificateDataSheet: String
    package var typeCertificateHolder: String

    package init(code: String, manufacturer: String, model: String) {
        self.code = code
        self.manufacturer = manufacturer
        self.model = model
        self.typeCertificateDataSheet = ""
        self.typeCertificateHolder = ""
    }
}

/// An engine model from ENGINE.
package struct EngineModel: Sendable, Hashable {
    /// The 5-character engine manufacturer/model code (`17020`).
    package var code: String
    package var manufacturer: String
    package var model: String
    package var engineType: FAACode?
    package var horsepower: Int?
    package var thrustPounds: Int?

    package init(code: String, manufacturer: String, model: String) {
        self.code = code
        self.manufacturer = manufacturer
        self.model = model
    }
}

/// The airworthiness certificate: class (first character of CERTIFICATION) and operations.
package struct Airworthiness: Sendable, Hashable {
    /// The raw CERTIFICATION value, trimmed (`1NU`, `48A`, `6131`).
    package var certification: String
    /// 1 Standard … 9 Light Sport.
    package var classification: FAACode?
    /// The approved operation codes that follow the class, decoded for that class.
    package var operations: [FAACode]

    package init(certification: String, classification: FAACode?, operations: [FAACode]) {
        self.certification = certification
        self.classification = classification
        self.operations = operations
    }
}

/// An aircraft registration from MASTER.
package struct Registration: Sendable, Hashable {
    /// `N` followed by the mark (`N90`).
    package var nNumber: String
    package var serialNumber: String
    /// ACFTREF code of the model (join key).
    package var modelCode: String
    /// ENGINE code (join key); empty when the FAA left it blank.
    package var engineCode: String
    package var yearManufactured: Int?
    package var registrantType: FAACode?
    package var name: String
    package var street: String
    package var street2: String
    package var city: String
    package var state: String
    /// ZIP or ZIP+4 (`67215-1400`); other postal codes as written.
    package var zip: String
    package var region: FAACode?
    package var county: String
    package var country: String
    package var lastActionDate: FAADate?
    package var certificateIssueDate: FAADate?
    package var airworthiness: Airworthiness
    package var aircraftType: FAACode?
    package var engineType: FAACode?
    package var status: FAACode?
    /// The 24-bit ICAO address (checked: MODE S CODE octal equals MODE S CODE HEX).
    package var modeS: UInt32?
    package var fractionalOwner: Bool
    package var airworthinessDate: FAADate?
    package var otherNames: [String]
    package var expirationDate: FAADate?
    package var uniqueID: String
    package var kitManufacturer: String
    package var kitModel: String

    package init(nNumber: String) {
        self.nNumber = nNumber
        serialNumber = ""; modelCode = ""; engineCode = ""; name = ""; street = ""; street2 = ""
        city = ""; state = ""; zip = ""; county = ""; country = ""; uniqueID = ""; kitManufacturer = ""; kitModel = ""
        airworthiness = Airworthiness(certification: "", classification: nil, operations: [])
        fractionalOwner = false
        otherNames = []
    }

    /// The Mode S address as six upper-case hex digits (`AC6CD2`).
    package var modeSHex: String? {
        modeS.map { let s = String($0, radix: 16, uppercase: true); return String(repeating: "0", count: max(0, 6 - s.count)) + s }
    }
}
