import BenchSupport

/// The column headers of the three files, exactly as the FAA writes them (MASTER's
/// `" KIT MODEL"` keeps its leading space).
enum FAAHeaders {
    static let aircraftReference = [
        "CODE", "MFR", "MODEL", "TYPE-ACFT", "TYPE-ENG", "AC-CAT", "BUILD-CERT-IND", "NO-ENG", "NO-SEATS",
        "AC-WEIGHT", "SPEED", "TC-DATA-SHEET", "TC-DATA-HOLDER",
    ]
    static let engine = ["CODE", "MFR", "MODEL", "TYPE", "HORSEPOWER", "THRUST"]
    static let master = [
        "N-NUMBER", "SERIAL NUMBER", "MFR MDL CODE", "ENG MFR MDL", "YEAR MFR", "TYPE REGISTRANT", "NAME", "STREET",
        "STREET2", "CITY", "STATE", "ZIP CODE", "REGION", "COUNTY", "COUNTRY", "LAST ACTION DATE", "CERT ISSUE DATE",
        "CERTIFICATION", "TYPE AIRCRAFT", "TYPE ENGINE", "STATUS CODE", "MODE S CODE", "FRACT OWNER", "AIR WORTH DATE",
        "OTHER NAMES(1)", "OTHER NAMES(2)", "OTHER NAMES(3)", "OTHER NAMES(4)", "OTHER NAMES(5)", "EXPIRATION DATE",
        "UNIQUE ID", "KIT MFR", " KIT MODEL", "MODE S CODE HEX",
    ]
}

/// What MASTER needs to know about one generated ACFTREF row, to stay consistent with it.
struct GeneratedModel {
    /// The 7-character code.
    var code: [UInt8]
    /// TYPE-ACFT: `1`-`9`, `H` or `O` (ASCII).
    var aircraftType: UInt8
    /// TYPE-ENG: 0-11.
    var engineType: Int
    /// BUILD-CERT-IND: 0 type certificated, 1 not type certificated (amateur-built), 2 light sport.
    var builderCertification: Int
    /// Index into `WordLists.kits` for kit-built models, or nil.
    var kit: Int?
}

/// The generated reference files, as MASTER refers to them.
struct ReferenceData {
    var models: [GeneratedModel] = []
    /// Indices into `models` of the type-certificated rows (most registered aircraft are these).
    var typeCertificated: [Int] = []
    /// Indices into `models` of the amateur-built rows (most have a single aircraft).
    var amateurBuilt: [Int] = []
    /// ENGINE codes by engine type, for ENG MFR MDL values that agree with the model.
    var enginesByType: [Int: [[UInt8]]] = [:]
    /// Every ENGINE code.
    var engines: [[UInt8]] = []
}

/// Amateur-built ACFTREF codes: `05` and five base-36 digits, as in the real file (`05625QM`).
///
/// Generated codes use every third value from `base`, so the values in between are codes that
/// are certainly not in ACFTREF: MASTER uses them for its orphan rows.
enum AmateurCode {
    /// Base 36 `60000`: the first code is `0560000`. Five digits leave room for 16.8 million codes.
    static let base = 6 * 36 * 36 * 36 * 36

    /// The code of the `k`-th amateur-built model.
    static func code(_ k: Int) -> [UInt8] { encode(base + 3 * k) }

    /// A code that no generated model has (for orphan registrations).
    static func orphan(_ k: Int) -> [UInt8] { encode(base + 3 * k + 1) }

    private static func encode(_ value: Int) -> [UInt8] {
        var code: [UInt8] = [0x30, 0x35, 0, 0, 0, 0, 0]
        var v = value
        for i in stride(from: 6, through: 2, by: -1) {
            let digit = UInt8(v % 36)
            code[i] = digit < 10 ? 0x30 + digit : 0x41 + digit - 10
            v /= 36
        }
        return code
    }
}

/// Writes ACFTREF.txt and ENGINE.txt and remembers what MASTER needs of them.
///
/// ACFTREF holds type-certificated models (codes of 7 digits: manufacturer 3, model 2, series 2;
/// manufacturer codes 050-059 are left out) and amateur-built ones (`05` codes), sorted by code
/// like the real file. Types, engines, seats, weights and type certificate data are drawn per
/// model from distributions like the real file's.
struct ReferenceGenerator {
    /// The share of ACFTREF rows that are type-certificated, per mille.
    static let typeCertificatedShare = 400

    private let seed: UInt64
    private var rng: SplitMix64
    private(set) var data = ReferenceData()

    /// Each file draws from its own stream of `seed`, so changing one file's row count leaves
    /// the other file as it was.
    init(seed: UInt64) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
    }

    // MARK: ACFTREF

    /// Writes `rows` ACFTREF rows to `file`.
    mutating func writeAircraftReference(rows: Int, to file: inout FixedWidthFile) throws(GeneratorError) {
        rng = SplitMix64(seed: seed ^ 0x4143_4654_5245_4600)  // "ACFTREF"
        let certificatedRows = rows * Self.typeCertificatedShare / 1000
        let manufacturers = planManufacturers(rows: certificatedRows)
        // Sorted by code: manufacturers 001-049, then the `05` amateur-built codes, then 060-999.
        for manufacturer in manufacturers where manufacturer.code < 50 {
            try writeTypeCertificated(manufacturer, to: &file)
        }
        for k in 0..<(rows - certificatedRows) {
            try writeAmateurBuilt(k, to: &file)
        }
        for manufacturer in manufacturers where manufacturer.code >= 60 {
            try writeTypeCertificated(manufacturer, to: &file)
        }
    }

    /// A type-certificated manufacturer: its code, names and how many ACFTREF rows it gets.
    private struct Manufacturer {
        var code: Int
        var name: [UInt8]
        var designator: [UInt8]
        var aircraftType: UInt8
        var rows: Int
    }

    /// Chooses manufacturer codes and names and shares `rows` among them, a few large and many small.
    private mutating func planManufacturers(rows: Int) -> [Manufacturer] {
        guard rows > 0 else { return [] }
        let codes = Array(1...999).filter { !(50...59).contains($0) }
        let wanted = min(codes.count, max(1, rows / 40))
        var manufacturers: [Manufacturer] = []
        var weights: [Double] = []
        var needed = wanted
        for (i, code) in codes.enumerated() where needed > 0 {
            guard rng.below(codes.count - i) < needed else { continue }
            needed -= 1
            manufacturers.append(Manufacturer(code: code, name: manufacturerName(), designator: rng.pick(WordLists.designators),
                                              aircraftType: aircraftTypes.draw(&rng), rows: 0))
            let u = rng.unit()
            weights.append(1 + 60 * u * u * u * u * u * u)
        }
        let total = weights.reduce(0, +)
        var assigned = 0
        for i in manufacturers.indices {
            manufacturers[i].rows = Int(Double(rows) * weights[i] / total)
            assigned += manufacturers[i].rows
        }
        while assigned < rows {
            manufacturers[rng.below(manufacturers.count)].rows += 1
            assigned += 1
        }
        return manufacturers
    }

    private mutating func manufacturerName() -> [UInt8] {
        if rng.chance(perMille: 350) { return rng.pick(WordLists.aircraftManufacturers) }
        let stem = rng.chance(perMille: 500) ? rng.pick(WordLists.companyWords) : rng.pick(WordLists.surnames)
        return stem + [0x20] + rng.pick(WordLists.manufacturerEndings)
    }

    private let aircraftTypes = Weighted<UInt8>([
        (0x34, 550), (0x35, 150), (0x36, 120), (0x31, 50), (0x32, 60), (0x33, 5), (0x37, 15), (0x38, 15),
        (0x39, 15), (0x48, 5), (0x4F, 5),
    ])

    /// One manufacturer's rows: models 01, 02 … each with one or more series.
    private mutating func writeTypeCertificated(_ manufacturer: Manufacturer, to file: inout FixedWidthFile) throws(GeneratorError) {
        var remaining = manufacturer.rows
        var modelNumber = 0
        // At most 99 models of at most 99 series: spread large manufacturers over more series.
        let minimumSeries = (manufacturer.rows + 94) / 95
        while remaining > 0 {
            modelNumber += 1
            let seriesCount = min(remaining, max(rng.within(1...6), minimumSeries))
            let step = seriesCount * 3 <= 98 ? 3 : 1
            let aircraftType = rng.chance(perMille: 800) ? manufacturer.aircraftType : aircraftTypes.draw(&rng)
            let profile = ModelProfile.draw(aircraftType: aircraftType, amateur: false, &rng)
            let baseName = manufacturer.designator + [0x2D] + decimal(rng.within(1...999))
            let dataSheet = typeCertificateDataSheet(aircraftType)
            let holder = rng.chance(perMille: 700) ? manufacturer.name : rng.pick(WordLists.aircraftManufacturers)
            var series = 0
            for s in 0..<seriesCount {
                series += s == 0 ? (step == 3 ? rng.within(1...3) : 1) : rng.within(1...step)
                let code = decimal(manufacturer.code, width: 3) + decimal(modelNumber, width: 2) + decimal(series, width: 2)
                let model = s == 0 ? baseName : baseName + rng.pick(WordLists.seriesSuffixes)
                try writeModelRow(code: code, manufacturer: manufacturer.name, model: model, profile: profile,
                                  dataSheet: dataSheet, holder: dataSheet.isEmpty ? [] : holder, kit: nil, to: &file)
                data.typeCertificated.append(data.models.count - 1)
            }
            remaining -= seriesCount
        }
    }

    /// The `k`-th amateur-built row: a builder's name and a kit or home-made design.
    private mutating func writeAmateurBuilt(_ k: Int, to file: inout FixedWidthFile) throws(GeneratorError) {
        let builder: [UInt8]
        if rng.chance(perMille: 850) {
            var name = rng.pick(WordLists.surnames) + [0x20] + rng.pick(WordLists.firstNames)
            if rng.chance(perMille: 600) { name += [0x20, 0x41 + UInt8(rng.below(26))] }
            builder = name
        } else {
            builder = rng.pick(WordLists.companyWords) + [0x20] + rng.pick(WordLists.manufacturerEndings)
        }
        var kit: Int?
        var model: [UInt8]
        if rng.chance(perMille: 700) {
            let index = rng.below(WordLists.kits.count)
            let entry = WordLists.kits[index]
            kit = index
            model = Array(entry.model.utf8)
            if rng.chance(perMille: 500), let brand = entry.manufacturer.split(separator: " ").first {
                model = Array(brand.utf8) + [0x20] + model
            }
        } else {
            model = rng.pick(WordLists.homebuiltNames)
            if rng.chance(perMille: 500) { model += [0x20] + decimal(rng.within(1...999)) }
        }
        let aircraftType = amateurTypes.draw(&rng)
        let profile = ModelProfile.draw(aircraftType: aircraftType, amateur: true, &rng)
        try writeModelRow(code: AmateurCode.code(k), manufacturer: builder, model: model, profile: profile,
                          dataSheet: [], holder: [], kit: kit, to: &file)
        data.amateurBuilt.append(data.models.count - 1)
    }

    private let amateurTypes = Weighted<UInt8>([
        (0x34, 800), (0x36, 50), (0x31, 30), (0x32, 20), (0x37, 25), (0x38, 25), (0x39, 25), (0x35, 15),
        (0x4F, 5), (0x48, 5),
    ])

    private mutating func writeModelRow(code: [UInt8], manufacturer: [UInt8], model: [UInt8], profile: ModelProfile,
                                        dataSheet: [UInt8], holder: [UInt8], kit: Int?,
                                        to file: inout FixedWidthFile) throws(GeneratorError) {
        file.text(code, width: 7)
        file.text(manufacturer, width: 30)
        file.text(model, width: 20)
        file.text([profile.aircraftType], width: 1)
        file.beginField(); file.append(number: profile.engineType); file.endField(width: 2)
        file.digits(profile.category, width: 1)
        file.digits(profile.builderCertification, width: 1)
        file.digits(profile.engineCount, width: 2)
        file.digits(profile.seatCount, width: 3)
        file.beginField(); file.append(Array("CLASS ".utf8)); file.append(number: profile.weightClass); file.endField(width: 7)
        file.digits(profile.speed, width: 4)
        file.text(dataSheet, width: 15)
        file.text(holder, width: 50)
        try file.endLine()
        data.models.append(GeneratedModel(code: code, aircraftType: profile.aircraftType, engineType: profile.engineType,
                                          builderCertification: profile.builderCertification, kit: kit))
    }

    /// A type certificate data sheet number: `A7CE`, `A00016WI`, `H2SW`, `G43EU`, or blank.
    private mutating func typeCertificateDataSheet(_ aircraftType: UInt8) -> [UInt8] {
        if rng.chance(perMille: 100) { return [] }
        let letter: UInt8 = switch aircraftType {
        case 0x31: 0x47  // G: glider
        case 0x32, 0x33: 0x42  // B: balloon, blimp
        case 0x36, 0x39: 0x48  // H: rotorcraft, gyroplane
        default: 0x41  // A: airplane
        }
        let offices = ["CE", "EA", "SW", "WE", "NM", "SO", "EU", "NE", "GL", "WI", "CH", ""]
        let number = rng.chance(perMille: 500) ? decimal(rng.within(1...99)) : decimal(rng.within(1...99_999), width: 5)
        return [letter] + number + Array(rng.pick(offices).utf8)
    }

    // MARK: ENGINE

    /// Writes `rows` ENGINE rows: `00000 NONE` first, `99999 AMA/EXPR UNKNOWN ENG` last (both as in
    /// the real file), and between them manufacturers 001-998 with up to 20 models each.
    mutating func writeEngines(rows: Int, to file: inout FixedWidthFile) throws(GeneratorError) {
        precondition(rows >= 2, "ENGINE needs its NONE and AMA/EXPR rows")
        rng = SplitMix64(seed: seed ^ 0x454E_4749_4E45_0000)  // "ENGINE"
        try writeEngineRow(code: decimal(0, width: 5), manufacturer: Array("NONE".utf8), model: Array("NONE".utf8),
                           type: 0, horsepower: 0, thrust: 0, to: &file)
        let middle = rows - 2
        let manufacturerCount = (middle + 19) / 20
        for m in 0..<manufacturerCount {
            let code = 1 + m * 997 / manufacturerCount
            let models = middle / manufacturerCount + (m < middle % manufacturerCount ? 1 : 0)
            let name = WordLists.engineManufacturers[m % WordLists.engineManufacturers.count]
            let type = engineTypes.draw(&rng)
            var modelNumber = rng.within(0...4)
            for _ in 0..<models {
                let (horsepower, thrust) = enginePower(type)
                try writeEngineRow(code: decimal(code, width: 3) + decimal(modelNumber, width: 2), manufacturer: name,
                                   model: engineModel(type), type: type, horsepower: horsepower, thrust: thrust, to: &file)
                modelNumber += rng.within(1...4)
            }
        }
        try writeEngineRow(code: decimal(99_999, width: 5), manufacturer: Array("AMA/EXPR".utf8),
                           model: Array("UNKNOWN ENG".utf8), type: nil, horsepower: 0, thrust: 0, to: &file)
    }

    private let engineTypes = Weighted<Int>([(1, 100), (2, 32), (5, 30), (3, 16), (4, 8), (8, 8), (7, 4), (10, 2), (11, 1)])

    private mutating func engineModel(_ type: Int) -> [UInt8] {
        let family = Array(rng.pick(WordLists.engineFamilies[type] ?? ["X-"]).utf8)
        guard family.last == 0x2D || family.last == 0x20 else {
            return rng.chance(perMille: 500) ? family : family + [0x41 + UInt8(rng.below(8))]
        }
        var suffix = decimal(rng.within(1...60))
        if rng.chance(perMille: 600) { suffix = [0x41 + UInt8(rng.below(6))] + decimal(rng.within(1...9)) + [0x41 + UInt8(rng.below(6))] }
        return family + suffix
    }

    private mutating func enginePower(_ type: Int) -> (horsepower: Int, thrust: Int) {
        switch type {
        case 1: (rng.within(13...90) * 5, 0)
        case 2: (rng.within(40...180) * 10, 0)
        case 3: (rng.within(30...200) * 10, 0)
        case 4, 5: (0, rng.within(15...350) * 100)
        case 7, 8: (rng.within(8...30) * 5, 0)
        case 10: (rng.within(2...40) * 10, 0)
        default: (rng.within(20...60) * 5, 0)
        }
    }

    private mutating func writeEngineRow(code: [UInt8], manufacturer: [UInt8], model: [UInt8], type: Int?, horsepower: Int,
                                         thrust: Int, to file: inout FixedWidthFile) throws(GeneratorError) {
        file.text(code, width: 5)
        file.text(manufacturer, width: 10)
        file.text(model, width: 13)
        if let type {
            file.beginField(); file.append(number: type); file.endField(width: 2)
            data.enginesByType[type, default: []].append(code)
        } else {
            file.blank(width: 2)
        }
        file.digits(horsepower, width: 5)
        file.digits(thrust, width: 6)
        try file.endLine()
        data.engines.append(code)
    }
}

/// The numbers of one ACFTREF model, drawn to fit its aircraft type.
struct ModelProfile {
    var aircraftType: UInt8
    var engineType: Int
    var category: Int
    var builderCertification: Int
    var engineCount: Int
    var seatCount: Int
    var weightClass: Int
    var speed: Int

    /// Draws engine type, counts, weight class and speed for a model of `aircraftType`.
    static func draw(aircraftType: UInt8, amateur: Bool, _ rng: inout SplitMix64) -> ModelProfile {
        var p = ModelProfile(aircraftType: aircraftType, engineType: 1, category: 1,
                             builderCertification: amateur ? (rng.chance(perMille: 880) ? 1 : 2) : (rng.chance(perMille: 30) ? 2 : 0),
                             engineCount: 1, seatCount: rng.within(1...4), weightClass: 1, speed: 0)
        switch aircraftType {
        case 0x31:  // glider
            p.engineType = rng.chance(perMille: 850) ? 0 : 1
            p.engineCount = p.engineType
            p.seatCount = rng.within(1...2)
        case 0x32:  // balloon
            p.engineType = 0; p.engineCount = 0; p.seatCount = rng.within(1...10)
        case 0x33:  // blimp
            p.engineCount = 2; p.seatCount = rng.within(2...12)
        case 0x34:  // fixed wing single engine
            p.engineType = amateur ? rng.pick([1, 1, 1, 1, 8, 7, 10]) : rng.pick([1, 1, 1, 1, 1, 1, 2, 2, 5, 10])
            p.seatCount = amateur ? rng.within(1...4) : rng.within(2...6)
            if rng.chance(perMille: 60) { p.category = 3 } else if rng.chance(perMille: 20) { p.category = 2 }
        case 0x35:  // fixed wing multi engine
            p.engineType = rng.pick([1, 1, 2, 2, 5, 5, 5, 4])
            p.engineCount = rng.pick([2, 2, 2, 2, 3, 4])
            p.seatCount = p.engineType >= 4 ? rng.within(6...189) : rng.within(4...19)
            p.weightClass = p.engineType >= 4 ? (p.seatCount > 19 ? 3 : 2) : (p.engineType == 2 ? rng.within(1...3) : 1)
        case 0x36:  // rotorcraft
            p.engineType = rng.chance(perMille: 450) ? 1 : 3
            p.engineCount = p.engineType == 3 && rng.chance(perMille: 400) ? 2 : 1
            p.seatCount = rng.within(1...15)
            p.weightClass = p.seatCount > 9 ? 2 : 1
        case 0x37, 0x38:  // weight-shift, powered parachute
            p.engineType = rng.chance(perMille: 600) ? 7 : 8
            p.seatCount = rng.within(1...2)
        case 0x39:  // gyroplane
            p.engineType = rng.chance(perMille: 700) ? 1 : 8
            p.seatCount = rng.within(1...2)
        case 0x48:  // hybrid lift
            p.engineType = 10; p.engineCount = rng.within(4...12); p.seatCount = rng.within(0...4)
            p.weightClass = rng.chance(perMille: 500) ? 4 : 1
        default:  // other
            p.engineType = rng.pick([9, 10, 1])
            p.seatCount = rng.within(0...2)
            p.weightClass = rng.chance(perMille: 600) ? 4 : 1
        }
        if rng.chance(perMille: 350) && p.engineType != 0 {
            p.speed = p.engineType >= 4 && p.engineType <= 5 ? rng.within(300...560) : rng.within(60...240)
        }
        return p
    }
}

/// `value` in decimal ASCII, zero-padded to `width` digits (no padding for width 0).
func decimal(_ value: Int, width: Int = 0) -> [UInt8] {
    var bytes = Array(String(value).utf8)
    if bytes.count < width { bytes.insert(contentsOf: repeatElement(0x30, count: width - bytes.count), at: 0) }
    return bytes
}
