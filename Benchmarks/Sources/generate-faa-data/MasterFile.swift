import BenchSupport

/// Writes MASTER.txt: one registration per distinct N-number, consistent with the generated
/// ACFTREF and ENGINE files.
///
/// - Marks are drawn uniformly from all 915,399 valid N-numbers and written in the FAA's
///   sequence (sorted by the space-padded mark); each aircraft's Mode S address is its mark's
///   real ICAO address (see `NNumber`), so addresses are distinct and MODE S CODE (octal) and
///   MODE S CODE HEX agree.
/// - About 97% of rows refer to a generated ACFTREF model (type-certificated ones more often
///   than amateur-built ones); the rest are orphans, codes that ACFTREF does not have.
///   TYPE AIRCRAFT, TYPE ENGINE, ENG MFR MDL, CERTIFICATION and the kit follow the model.
/// - Names, streets and cities are composed from word lists, so that like the real file most
///   of them are distinct. All dates are real calendar dates.
struct MasterGenerator {
    /// The day the synthetic registry was "released": no date lies after it.
    static let releaseDay = CivilDate.day(2026, 8, 31)

    private let reference: ReferenceData
    private var rng: SplitMix64
    private let markSeed: UInt64
    private let cities: [Place]
    private let stateTable: [(state: [UInt8], region: UInt8)]
    private let stateDraw: Weighted<Int>
    private let kits: [(manufacturer: [UInt8], model: [UInt8])]

    /// A city with its state and FAA region.
    struct Place {
        var city: [UInt8]
        var state: [UInt8]
        var region: UInt8
    }

    init(reference: ReferenceData, seed: UInt64) {
        self.reference = reference
        rng = SplitMix64(seed: seed)
        markSeed = seed ^ 0x4E4E_554D_4245_5253  // "NNUMBERS": marks do not shift with row content
        stateTable = WordLists.states.map { (Array($0.state.utf8), $0.region.utf8.first!) }
        stateDraw = Weighted(WordLists.states.indices.map { ($0, WordLists.states[$0].weight) })
        let regions = Dictionary(uniqueKeysWithValues: stateTable.map { ($0.state, $0.region) })
        cities = WordLists.cities.map { line in
            let state = Array(line.suffix(2))
            return Place(city: Array(line.dropLast(3)), state: state, region: regions[state] ?? 0x20)
        }
        kits = WordLists.kits.map { (Array($0.manufacturer.utf8), Array($0.model.utf8)) }
    }

    // MARK: Marks

    /// The ICAO indices (see `NNumber`) of `rows` distinct marks, in FAA file order.
    ///
    /// Selection sampling (Knuth's Algorithm S) picks each mark with the right probability in one
    /// pass; the marks are then sorted as the FAA sorts them, by the mark padded with spaces.
    func markIndices(rows: Int) -> [Int] { Self.markIndices(rows: rows, seed: markSeed) }

    /// `rows` distinct marks (ICAO indices) drawn by a generator of `seed`, in FAA file order.
    static func markIndices(rows: Int, seed: UInt64) -> [Int] {
        var rng = SplitMix64(seed: seed)
        var keys: [UInt64] = []
        keys.reserveCapacity(rows)
        var needed = rows
        for index in 0..<NNumber.count where needed > 0 {
            guard rng.below(NNumber.count - index) < needed else { continue }
            needed -= 1
            // The padded mark as a 40-bit big-endian number, then the index in the low 20 bits.
            var key: UInt64 = 0
            let mark = NNumber.mark(index)
            for i in 0..<5 { key = key << 8 | UInt64(i < mark.count ? mark[i] : 0x20) }
            keys.append(key << 20 | UInt64(index))
        }
        keys.sort()
        return keys.map { Int($0 & 0xF_FFFF) }
    }

    // MARK: Rows

    /// Writes `rows` registrations to `file`.
    mutating func write(rows: Int, to file: inout FixedWidthFile) throws(GeneratorError) {
        for (row, index) in markIndices(rows: rows).enumerated() {
            try writeRow(row, markIndex: index, to: &file)
        }
    }

    private mutating func writeRow(_ row: Int, markIndex: Int, to file: inout FixedWidthFile) throws(GeneratorError) {
        let mark = NNumber.mark(markIndex)
        let address = NNumber.address(markIndex)
        let model = drawModel()
        let amateur = model.builderCertification != 0
        let registrantType = (amateur ? Self.amateurRegistrants : Self.registrants).draw(&rng)
        let status = Self.statuses.draw(&rng)
        let registered = status != Self.assigned && status != Self.importAssigned
        let withheld = rng.chance(perMille: 5)

        file.text(mark, width: 5)
        file.beginField(); appendSerial(amateur: amateur, to: &file); file.endField(width: 30)
        file.text(model.code, width: 7)
        file.text(engineCode(for: model), width: 5)
        let year = yearManufactured()
        if let year { file.digits(year, width: 4) } else { file.blank(width: 4) }
        file.text([registrantType], width: 1)

        // Registrant and address.
        if withheld {
            for width in [50, 33, 33, 18, 2, 10, 1, 3, 2] { file.blank(width: width) }
        } else {
            file.beginField(); appendRegistrant(registrantType, mark: mark, to: &file); file.endField(width: 50)
            let abroad = (registrantType == 0x38 || registrantType == 0x39) && rng.chance(perMille: 400)
            let place = drawPlace()
            file.beginField(); appendStreet(to: &file); file.endField(width: 33)
            if rng.chance(perMille: 40) {
                file.beginField(); appendSecondStreet(to: &file); file.endField(width: 33)
            } else {
                file.blank(width: 33)
            }
            file.text(place.city, width: 18)
            file.text(abroad ? [] : place.state, width: 2)
            file.beginField()
            file.append(decimal(rng.within(501...99_950), width: 5))
            if !abroad && rng.chance(perMille: 800) { file.append(decimal(rng.within(1...9999), width: 4)) }
            file.endField(width: 10)
            file.text([abroad ? 0x38 : place.region], width: 1)
            if abroad { file.blank(width: 3) } else { file.digits(1 + 2 * rng.below(100), width: 3) }
            file.text(abroad ? rng.pick(WordLists.foreignCountries) : Array("US".utf8), width: 2)
        }

        // Dates: last action 2023 onwards; the certificate issued before it; expiry 7 years on.
        let lastAction = rng.within(CivilDate.day(2023, 1, 1)...Self.releaseDay)
        var certificateIssue: Int?
        if registered && status != Self.manufacturer && !rng.chance(perMille: 30) {
            let recent = lastAction - CivilDate.day(2017, 1, 1), all = lastAction - CivilDate.day(1985, 1, 1)
            certificateIssue = lastAction - rng.below(rng.chance(perMille: 700) ? recent : all)
        }
        file.date(lastAction)
        file.date(certificateIssue)
        file.text(certification(for: model, registered: registered), width: 10)
        file.text([model.aircraftType], width: 1)
        file.beginField(); file.append(number: model.engineType); file.endField(width: 2)
        file.text([status], width: 2)
        file.radix(address, 8, digits: 8, width: 8)
        file.text(rng.chance(perMille: 4) ? [0x59] : [], width: 1)
        file.date(airworthinessDate(year: year))
        appendOtherNames(registrantType, to: &file)
        if let certificateIssue {
            let renewed = Self.releaseDay - certificateIssue < 7 * 365 ? certificateIssue : lastAction
            let date = CivilDate.date(renewed)
            file.date(CivilDate.endOfMonth(date.year + 7, date.month))
        } else {
            file.blank(width: 8)
        }
        file.digits((row &* 73_939_133 &+ 10_000_019) % 100_000_000, width: 8)
        if let kit = model.kit, rng.chance(perMille: 600) {
            file.text(kits[kit].manufacturer, width: 30)
            file.text(kits[kit].model, width: 20)
        } else {
            file.blank(width: 30)
            file.blank(width: 20)
        }
        file.radix(address, 16, digits: 6, width: 10)
        try file.endLine()
    }

    // MARK: Model, engine, certificate

    /// An ACFTREF model (65% type-certificated), or about 3% of the time an orphan code.
    mutating func drawModel() -> GeneratedModel {
        let r = reference
        guard !r.models.isEmpty, !rng.chance(perMille: 30) else {
            return GeneratedModel(code: AmateurCode.orphan(rng.below(max(1, r.amateurBuilt.count))), aircraftType: 0x34,
                                  engineType: 1, builderCertification: 1, kit: nil)
        }
        let certificated = !r.typeCertificated.isEmpty && (r.amateurBuilt.isEmpty || rng.chance(perMille: 650))
        return r.models[rng.pick(certificated ? r.typeCertificated : r.amateurBuilt)]
    }

    /// ENG MFR MDL: an engine of the model's type (any engine if none has it), or blank.
    mutating func engineCode(for model: GeneratedModel) -> [UInt8] {
        guard model.engineType != 0, !reference.engines.isEmpty, rng.chance(perMille: 780) else { return [] }
        if let sameType = reference.enginesByType[model.engineType], !sameType.isEmpty { return rng.pick(sameType) }
        return rng.pick(reference.engines)
    }

    /// CERTIFICATION: an airworthiness class and operation codes that fit the model.
    private mutating func certification(for model: GeneratedModel, registered: Bool) -> [UInt8] {
        if !registered && rng.chance(perMille: 600) { return [] }
        switch model.builderCertification {
        case 1: return Self.amateurCertificates.draw(&rng)
        case 2: return Self.lightSportCertificates.draw(&rng)
        default:
            switch model.aircraftType {
            case 0x32, 0x33: return Self.balloonCertificates.draw(&rng)
            case 0x31: return Self.gliderCertificates.draw(&rng)
            case 0x36, 0x39: return Self.rotorcraftCertificates.draw(&rng)
            default: return Self.standardCertificates.draw(&rng)
            }
        }
    }

    private static func codes(_ entries: [(String, Int)]) -> Weighted<[UInt8]> {
        Weighted(entries.map { (Array($0.0.utf8), $0.1) })
    }

    private static let amateurCertificates = codes([("42", 600), ("48A", 120), ("48B", 30), ("41", 20), ("43", 30), ("", 200)])
    private static let lightSportCertificates = codes([
        ("9A", 400), ("9W", 120), ("9P", 100), ("9G", 50), ("9L", 30), ("48C", 100), ("", 200),
    ])
    private static let balloonCertificates = codes([("1B", 800), ("", 200)])
    private static let gliderCertificates = codes([("1G", 700), ("", 300)])
    private static let rotorcraftCertificates = codes([
        ("1N", 500), ("1T", 100), ("31", 120), ("314", 40), ("6131", 40), ("", 200),
    ])
    private static let standardCertificates = codes([
        ("1N", 350), ("1", 150), ("1T", 150), ("1NU", 120), ("1U", 100), ("1NA", 30), ("1A", 10), ("1C", 10),
        ("443", 10), ("41", 10), ("", 100),
    ])

    private static let registrants = Weighted<UInt8>([
        (0x31, 320), (0x37, 380), (0x33, 160), (0x34, 40), (0x35, 30), (0x32, 20), (0x38, 30), (0x39, 20),
    ])
    private static let amateurRegistrants = Weighted<UInt8>([
        (0x31, 700), (0x37, 180), (0x34, 60), (0x33, 30), (0x32, 10), (0x39, 10), (0x38, 10),
    ])

    private static let manufacturer: UInt8 = 0x4D  // M: assigned to the manufacturer
    private static let assigned: UInt8 = 0x32  // 2: assigned, not yet registered
    private static let importAssigned: UInt8 = 0x34  // 4: assigned as import, not yet registered
    private static let statuses = Weighted<UInt8>([
        (0x56, 880), (manufacturer, 20), (0x4E, 10), (assigned, 40), (importAssigned, 15), (0x37, 35),
    ])

    // MARK: Dates

    /// YEAR MFR: blank for about one aircraft in six, else mostly 1960-1980 and 2000 onwards.
    private mutating func yearManufactured() -> Int? {
        if rng.chance(perMille: 170) { return nil }
        switch rng.below(100) {
        case 0..<8: return rng.within(1940...1959)
        case 8..<43: return rng.within(1960...1979)
        case 43..<63: return rng.within(1980...1999)
        default: return rng.within(2000...2025)
        }
    }

    /// AIR WORTH DATE: within the year of manufacture when there is one; often blank.
    private mutating func airworthinessDate(year: Int?) -> Int? {
        if let year, rng.chance(perMille: 750) {
            return min(CivilDate.day(year, 1, 1) + rng.below(365), Self.releaseDay)
        }
        if year == nil, rng.chance(perMille: 300) {
            return rng.within(CivilDate.day(1950, 1, 1)...CivilDate.day(2025, 12, 31))
        }
        return nil
    }

    // MARK: Names and addresses

    /// A serial number in one of the shapes the real file has (`172S10868`, `32R-7885170`,
    /// `FL-1375`, `15069001`, `001`).
    private mutating func appendSerial(amateur: Bool, to file: inout FixedWidthFile) {
        let shape = rng.below(10)
        if amateur && shape < 5 {
            file.append(decimal(rng.within(1...9999), width: rng.within(1...4)))
        } else if shape < 7 {
            file.append(decimal(rng.within(1...99_999_999), width: rng.within(4...8)))
        } else if shape < 8 {
            file.append(decimal(rng.within(10...999)))
            if rng.chance(perMille: 400) { file.append(0x41 + UInt8(rng.below(26))) }
            file.append(0x2D)
            file.append(decimal(rng.within(1...9_999_999), width: rng.within(1...7)))
        } else {
            for _ in 0..<rng.within(1...3) { file.append(0x41 + UInt8(rng.below(26))) }
            if rng.chance(perMille: 500) { file.append(0x2D) }
            file.append(decimal(rng.within(1...999_999), width: rng.within(3...6)))
        }
    }

    /// NAME, by TYPE REGISTRANT: people for individuals and co-owners, company names otherwise.
    mutating func appendRegistrant(_ type: UInt8, mark: [UInt8], to file: inout FixedWidthFile) {
        let space: UInt8 = 0x20
        switch type {
        case 0x37:  // LLC
            switch rng.below(10) {
            case 0: file.append(0x4E); file.append(mark)
            case 1..<5: file.append(rng.pick(WordLists.companyWords)); file.append(space); file.append(rng.pick(WordLists.companyWords))
            case 5..<8: file.append(rng.pick(WordLists.surnames))
            default: file.append(rng.pick(WordLists.companyWords))
            }
            file.append(space)
            file.append(rng.pick(WordLists.llcSuffixes))
        case 0x33:  // corporation
            if rng.chance(perMille: 100) { return file.append(rng.pick(WordLists.trustees)) }
            switch rng.below(10) {
            case 0..<5: file.append(rng.pick(WordLists.companyWords)); file.append(space); file.append(rng.pick(WordLists.companyWords))
            case 5..<8: file.append(rng.pick(WordLists.surnames))
            default: file.append(rng.pick(WordLists.companyWords))
            }
            file.append(space)
            file.append(rng.pick(WordLists.corporateSuffixes))
        case 0x32:  // partnership
            if rng.chance(perMille: 500) {
                file.append(rng.pick(WordLists.surnames)); file.append(Array(" & ".utf8)); file.append(rng.pick(WordLists.surnames))
            } else {
                file.append(rng.pick(WordLists.companyWords)); file.append(space); file.append(rng.pick(WordLists.companyWords))
                file.append(Array(" PARTNERSHIP".utf8))
            }
        case 0x35:  // government
            let place = drawPlace()
            if rng.chance(perMille: 400) {
                file.append(Array("CITY OF ".utf8)); file.append(place.city)
            } else {
                file.append(rng.chance(perMille: 500) ? place.city : place.state)
                file.append(space)
                file.append(rng.pick(WordLists.governmentSuffixes))
            }
        case 0x38:  // non-citizen corporation
            file.append(rng.pick(WordLists.companyWords)); file.append(space); file.append(rng.pick(WordLists.companyWords))
            file.append(space)
            file.append(rng.pick(WordLists.foreignCorporateSuffixes))
        default:  // individual, co-owned
            appendPerson(to: &file)
        }
    }

    /// `SURNAME GIVEN M`, sometimes with `JR`, `SR`, `II` or `III`.
    private mutating func appendPerson(to file: inout FixedWidthFile) {
        file.append(rng.pick(WordLists.surnames))
        file.append(0x20)
        file.append(rng.pick(WordLists.firstNames))
        if rng.chance(perMille: 700) { file.append(0x20); file.append(0x41 + UInt8(rng.below(26))) }
        if rng.chance(perMille: 30) { file.append(0x20); file.append(rng.pick(Self.generations)) }
    }

    private static let generations = WordLists.words("JR SR II III")

    /// OTHER NAMES(1)…(5): co-owners for co-owned and partnership registrations, rarely others.
    private mutating func appendOtherNames(_ type: UInt8, to file: inout FixedWidthFile) {
        var count = 0
        switch type {
        case 0x34, 0x39: count = rng.chance(perMille: 900) ? 1 + rng.below(2) + (rng.chance(perMille: 100) ? 1 : 0) : 0
        case 0x32: count = rng.chance(perMille: 600) ? 1 : 0
        default: count = rng.chance(perMille: 20) ? 1 : 0
        }
        for i in 0..<5 {
            if i < count {
                file.beginField(); appendPerson(to: &file); file.endField(width: 50)
            } else {
                file.blank(width: 50)
            }
        }
    }

    /// STREET: `298 MIMI LN`, `9403 NE 157TH ST`, `1001 MAIN ST STE 49`, `PO BOX 1345`.
    mutating func appendStreet(to file: inout FixedWidthFile) {
        let kind = rng.below(100)
        if kind < 10 {
            file.append(Array("PO BOX ".utf8)); file.append(number: rng.within(1...99_999)); return
        }
        let house = switch rng.below(100) {
        case 0..<30: rng.within(1...99)
        case 30..<85: rng.within(100...9999)
        default: rng.within(10_000...99_999)
        }
        file.append(number: house)
        file.append(0x20)
        if kind < 13 {
            file.append(Array("COUNTY ROAD ".utf8)); file.append(number: rng.within(1...999)); return
        }
        if rng.chance(perMille: 150) { file.append(rng.pick(WordLists.directions)); file.append(0x20) }
        if kind < 18 {
            let n = rng.within(1...199)
            file.append(number: n)
            let ones = n % 10, tens = n / 10 % 10
            file.append(Array((tens == 1 || ones > 3 || ones == 0 ? "TH" : ["ST", "ND", "RD"][ones - 1]).utf8))
        } else {
            file.append(rng.pick(WordLists.streetNames))
        }
        file.append(0x20)
        file.append(rng.pick(WordLists.streetSuffixes))
        if rng.chance(perMille: 80) {
            file.append(Array((rng.chance(perMille: 500) ? " STE " : " APT ").utf8)); file.append(number: rng.within(1...999))
        }
    }

    /// STREET2: a suite, hangar or box.
    private mutating func appendSecondStreet(to file: inout FixedWidthFile) {
        file.append(Array(["STE ", "HANGAR ", "PO BOX ", "UNIT ", "BLDG "][rng.below(5)].utf8))
        file.append(number: rng.within(1...9999))
    }

    /// A real city (60%) or a made-up town in a state drawn by aircraft count.
    mutating func drawPlace() -> Place {
        if rng.chance(perMille: 600) { return rng.pick(cities) }
        let state = stateTable[stateDraw.draw(&rng)]
        return Place(city: rng.pick(WordLists.townStems) + rng.pick(WordLists.townSuffixes), state: state.state,
                     region: state.region)
    }
}
