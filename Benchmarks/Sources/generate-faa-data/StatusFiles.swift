import BenchSupport

/// The headers of DEREG.txt and RESERVED.txt as the FAA writes them (`" KIT MODEL"` with its space).
enum FAAStatusHeaders {
    static let deregistered = [
        "N-NUMBER", "SERIAL-NUMBER", "MFR-MDL-CODE", "STATUS-CODE", "NAME", "STREET-MAIL", "STREET2-MAIL", "CITY-MAIL",
        "STATE-ABBREV-MAIL", "ZIP-CODE-MAIL", "ENG-MFR-MDL", "YEAR-MFR", "CERTIFICATION", "REGION", "COUNTY-MAIL", "COUNTRY-MAIL",
        "AIR-WORTH-DATE", "CANCEL-DATE", "MODE-S-CODE", "INDICATOR-GROUP", "EXP-COUNTRY", "LAST-ACT-DATE", "CERT-ISSUE-DATE",
        "STREET-PHYSICAL", "STREET2-PHYSICAL", "CITY-PHYSICAL", "STATE-ABBREV-PHYSICAL", "ZIP-CODE-PHYSICAL", "COUNTY-PHYSICAL",
        "COUNTRY-PHYSICAL", "OTHER-NAMES(1)", "OTHER-NAMES(2)", "OTHER-NAMES(3)", "OTHER-NAMES(4)", "OTHER-NAMES(5)", "KIT MFR",
        " KIT MODEL", "MODE S CODE HEX",
    ]
    static let reserved = ["N-NUMBER", "REGISTRANT", "STREET", "STREET2", "CITY", "STATE", "ZIP CODE", "RSV DATE", "TR", "EXP DATE",
                           "N-NUM-CHG", "PURGE DATE"]
}

/// Writes DEREG.txt (deregistered aircraft, about a quarter of its N-numbers with more than one
/// record) and RESERVED.txt (one row per reserved N-number), in the FAA's positions (ardata:
/// DEREG 721 characters a record, RESERVED's fields as listed), marks in FAA sequence, every
/// row valid for ingest-faa. Names, streets and places come from MASTER's generator; marks from
/// seeds of their own, so some deregistered and reserved numbers are registered in MASTER too,
/// as in the real files.
struct StatusGenerator {
    private var people: MasterGenerator
    private var rng: SplitMix64
    private let seed: UInt64

    init(reference: ReferenceData, seed: UInt64) {
        people = MasterGenerator(reference: reference, seed: seed ^ 0x5045_4F50_4C45)  // "PEOPLE"
        rng = SplitMix64(seed: seed)
        self.seed = seed
    }

    private static let statuses: [UInt8] = Array("VVVVAEDSTW126789".utf8)
    private static let exports = ["CANADA", "MEXICO", "BRAZIL", "GERMANY", "UNITED KINGDOM", "AUSTRALIA", "ARGENTINA", "SOUTH AFRICA"]
    private static let reservations = ["FP", "FP", "FP", "FN", "AA", "HD", "HD", "MF", "MT", "NC", "NN", "CN", "CE", "A"]
    private static let registrantTypes: [UInt8] = Array("1111133377245".utf8)

    static func marks(_ count: Int, seed: UInt64) -> [Int] {
        MasterGenerator.markIndices(rows: min(count, NNumber.count), seed: seed)
    }

    /// Writes `rows` DEREG records: three in four N-numbers once, the others twice or more.
    mutating func writeDeregistered(rows: Int, to file: inout FixedWidthFile) throws(GeneratorError) {
        let marks = Self.marks(rows * 3 / 4, seed: seed ^ 0x4445_5245_47)  // "DEREG"
        var extra = rows - marks.count
        for (i, index) in marks.enumerated() {
            var records = 1
            if extra > 0, i % 3 == 0 { records += min(extra, 1 + (i % 5 == 0 ? 1 : 0)); extra -= records - 1 }
            if i == marks.count - 1 { records += extra; extra = 0 }
            var cancel = CivilDate.day(2026, 8, 31) - rng.below(56 * 365)
            for _ in 0..<records {
                try writeDeregistered(mark: index, cancelled: cancel, to: &file)
                cancel -= 1 + rng.below(15 * 365)
            }
        }
    }

    private mutating func writeDeregistered(mark index: Int, cancelled: Int, to file: inout FixedWidthFile) throws(GeneratorError) {
        let model = people.drawModel()
        let type = rng.pick(Self.registrantTypes)
        let place = people.drawPlace()
        file.text(NNumber.mark(index), width: 5)
        file.text(Array("SN\(rng.within(1...999_999))".utf8), width: 30)
        file.text(model.code, width: 7)
        file.text([rng.pick(Self.statuses)], width: 1)
        file.beginField(); people.appendRegistrant(type, mark: NNumber.mark(index), to: &file); file.endField(width: 50)
        file.beginField(); people.appendStreet(to: &file); file.endField(width: 33)
        file.blank(width: 33)
        file.text(place.city, width: 18)
        file.text(place.state, width: 2)
        let zip = Array(String(rng.within(501...99_950)).utf8)
        file.text(zip, width: 10)
        file.text(people.engineCode(for: model), width: 5)
        let year = rng.within(1940...2024)
        file.digits(year, width: 4)
        file.text(Array(["1N", "1U", "4", "1T", "3", ""][rng.below(6)].utf8), width: 10)
        file.text([place.region], width: 1)
        file.digits(1 + 2 * rng.below(100), width: 3)
        file.text(Array("US".utf8), width: 2)
        let built = min(CivilDate.day(year, 6, 1), cancelled)
        file.date(built)
        file.date(cancelled)
        file.radix(NNumber.address(index), 8, digits: 8, width: 8)
        file.text([type], width: 1)
        file.text(rng.chance(perMille: 150) ? Array(rng.pick(Self.exports).utf8) : [], width: 18)
        file.date(cancelled)
        file.date(built + rng.below(max(1, cancelled - built)))
        file.beginField(); people.appendStreet(to: &file); file.endField(width: 33)
        file.blank(width: 33)
        file.text(place.city, width: 18)
        file.text(place.state, width: 2)
        file.text(zip, width: 10)
        file.blank(width: 3)
        file.text(Array("US".utf8), width: 2)
        for _ in 0..<5 { file.blank(width: 50) }
        file.blank(width: 30)
        file.blank(width: 19)
        file.radix(NNumber.address(index), 16, digits: 6, width: 10)
        try file.endLine()
    }

    /// Writes `rows` RESERVED records, one per N-number.
    mutating func writeReserved(rows: Int, to file: inout FixedWidthFile) throws(GeneratorError) {
        for index in Self.marks(rows, seed: seed ^ 0x5245_5345_5256) {  // "RESERV"
            let type = rng.pick(Self.reservations)
            let place = people.drawPlace()
            file.text(NNumber.mark(index), width: 5)
            file.beginField(); people.appendRegistrant(rng.pick(Self.registrantTypes), mark: NNumber.mark(index), to: &file); file.endField(width: 50)
            file.beginField(); people.appendStreet(to: &file); file.endField(width: 33)
            file.blank(width: 33)
            file.text(place.city, width: 18)
            file.text(place.state, width: 2)
            file.text(Array(String(rng.within(501...99_950)).utf8), width: 10)
            let reserved = CivilDate.day(2026, 8, 31) - rng.below(8 * 365)
            file.date(reserved)
            file.text(Array(type.utf8), width: 2)
            let expires = type == "MF" ? nil : reserved + 365 * (type == "HD" ? 2 : 1)
            file.date(expires)
            let change = ["NC", "NN", "CN", "CE"].contains(type) ? NNumber.mark(rng.below(NNumber.count)) : []
            file.text(change, width: 5)
            file.date(expires.map { $0 + 30 })
            try file.endLine()
        }
    }
}
