import FieldGuideArtifact

/// An ACFTREF model in the manufacturer index, read from the file on access.
///
/// ```swift
/// let model = index.model(code: "2075816")!
/// model.manufacturer          // "CESSNA"
/// model.designator?.type.designator   // "C182", when the crosswalk has it
/// ```
public struct IndexModel: Sendable {
    package let index: AircraftIndex
    /// The model's row (code order).
    public let row: Int

    package init(index: AircraftIndex, row: Int) { self.index = index; self.row = row }

    private typealias C = AircraftIndexSchema.ModelColumn
    private func code(_ column: C) -> CodeValue? { index.code(row: index.modelAttributes.value(row, column)) }

    public var code: String { index.modelCodes.string(row) }
    public var model: String { index.modelNames.string(row) }
    public var manufacturer: String { index.manufacturerNames.string(manufacturerRow) }
    /// The manufacturer with all its models.
    public var manufacturerRecord: IndexManufacturer { IndexManufacturer(index: index, row: manufacturerRow) }
    public var aircraftType: CodeValue? { code(.aircraftType) }
    public var engineType: CodeValue? { code(.engineType) }
    /// AC-CAT: Land, Sea or Amphibian.
    public var category: CodeValue? { code(.category) }
    public var builderCertification: CodeValue? { code(.builderCertification) }
    public var weightClass: CodeValue? { code(.weightClass) }
    public var engineCount: Int? { index.modelAttributes.number(row, .engineCount) }
    public var seatCount: Int? { index.modelAttributes.number(row, .seatCount) }
    public var cruiseSpeedMPH: Int? { index.modelAttributes.number(row, .cruiseSpeed) }
    public var typeCertificateDataSheet: String { index.modelDataSheets.string(row) }
    public var typeCertificateHolder: String { index.modelDataHolders.string(row) }

    var manufacturerRow: Int { Int(index.modelManufacturers.value(row, .value)) }

    /// The model's designator by the crosswalk (the majority of its registrations' Mode S
    /// addresses), with the counts; nil when the crosswalk has none.
    public var designator: CrosswalkEntry? { index.crosswalkEntry(modelRow: row) }

    /// Every field, decoded (for JSON output).
    public var info: ModelInfo {
        ModelInfo(code: code, manufacturer: manufacturer, model: model, aircraftType: aircraftType, engineType: engineType,
                  category: category, builderCertification: builderCertification, engineCount: engineCount,
                  seatCount: seatCount, weightClass: weightClass, cruiseSpeedMPH: cruiseSpeedMPH,
                  typeCertificateDataSheet: typeCertificateDataSheet, typeCertificateHolder: typeCertificateHolder)
    }
}

/// A manufacturer of the index and its models.
public struct IndexManufacturer: Sendable {
    package let index: AircraftIndex
    public let row: Int

    public var name: String { index.manufacturerNames.string(row) }
    public var modelCount: Int { Int(index.manufacturerModelCounts.value(row, .value)) }

    /// The manufacturer's models in code order (one pass over a 4-byte column: about 20 µs at
    /// full size, the price of an index that ships small).
    public var models: [IndexModel] {
        var out: [IndexModel] = []
        let target = UInt32(row), table = index.modelManufacturers
        for model in 0..<table.count where table.value(model, .value) == target {
            out.append(IndexModel(index: index, row: model))
            if out.count == modelCount { break }
        }
        return out
    }
}

/// An ENGINE model of the index.
public struct IndexEngine: Sendable {
    package let index: AircraftIndex
    public let row: Int

    public var code: String { index.engineCodes.string(row) }
    public var manufacturer: String { index.engineManufacturers.string(row) }
    public var model: String { index.engineModels.string(row) }
    public var engineType: CodeValue? { index.code(row: index.engineAttributes.value(row, .engineType)) }
    public var horsepower: Int? { index.engineAttributes.number(row, .horsepower) }
    public var thrustPounds: Int? { index.engineAttributes.number(row, .thrust) }

    public var info: EngineInfo {
        EngineInfo(code: code, manufacturer: manufacturer, model: model, engineType: engineType, horsepower: horsepower, thrustPounds: thrustPounds)
    }
}

/// An ICAO aircraft type designator (`B738`) with its name, description and wake class, and
/// the ACFTREF models the crosswalk gives it.
///
/// ```swift
/// let type = index.type(designator: "C182")!
/// type.name                                   // "CESSNA 182 Skylane"
/// type.describedAs                            // "landplane, 1 engine, piston"
/// type.models.first?.model.model              // "182P" (2 of 2 registrations, in the real samples)
/// ```
public struct TypeDesignator: Sendable {
    package let index: AircraftIndex
    public let row: Int

    package init(index: AircraftIndex, row: Int) { self.index = index; self.row = row }

    public var designator: String { index.typeDesignators.string(row) }
    /// Empty for a designator only the Mode S table names.
    public var name: String { index.typeNames.string(row) }
    /// Class, engine count, engine type: `L2J`.
    public var description: String { index.typeDescriptions.string(row) }
    public var wakeClass: String { index.typeWakeClasses.string(row) }

    /// The description in words: `L2J` → "landplane, 2 engines, jet".
    public var describedAs: String { ICAODescription(description).words }

    /// The models whose registrations' majority designator this is, most registrations first.
    public var models: [CrosswalkEntry] {
        let table = index.crosswalk, target = UInt32(row)
        var out: [CrosswalkEntry] = []
        var entry = table.lowerBound(.typeRow, target)
        while entry < table.count, table.value(entry, .typeRow) == target {
            if let found = index.crosswalkEntry(row: entry) { out.append(found) }
            entry += 1
        }
        return out
    }

    public var info: TypeDesignatorInfo {
        TypeDesignatorInfo(designator: designator, name: name, description: description, describedAs: describedAs, wakeClass: wakeClass)
    }
}

/// A decoded type designator.
public struct TypeDesignatorInfo: Sendable, Hashable, Codable {
    public let designator: String
    public let name: String
    public let description: String
    public let describedAs: String
    public let wakeClass: String
}

/// One crosswalk link: a model, its majority designator, how many of its registrations have
/// that designator and how many have one at all.
public struct CrosswalkEntry: Sendable {
    public let model: IndexModel
    public let type: TypeDesignator
    public let registrations: Int
    public let modelRegistrations: Int
}

extension AircraftIndex {
    /// The crosswalk row `row`, when its model and type rows lie inside their tables.
    func crosswalkEntry(row: Int) -> CrosswalkEntry? {
        let model = Int(crosswalk.value(row, .modelRow)), type = Int(crosswalk.value(row, .typeRow))
        guard model < modelCount, type < typeCount, row < crosswalk.count else { return nil }
        return CrosswalkEntry(model: IndexModel(index: self, row: model), type: TypeDesignator(index: self, row: type),
                              registrations: Int(crosswalk.value(row, .registrations)),
                              modelRegistrations: Int(crosswalk.value(row, .modelRegistrations)))
    }

    /// The crosswalk entry of model row `modelRow` (binary search over `XMDL`).
    func crosswalkEntry(modelRow: Int) -> CrosswalkEntry? {
        var low = 0, high = crosswalkByModel.count
        func modelOf(_ i: Int) -> Int { Int(crosswalk.value(Int(crosswalkByModel.value(i, .value)), .modelRow)) }
        while low < high {
            let mid = (low + high) / 2
            if modelOf(mid) < modelRow { low = mid + 1 } else { high = mid }
        }
        guard low < crosswalkByModel.count, modelOf(low) == modelRow else { return nil }
        return crosswalkEntry(row: Int(crosswalkByModel.value(low, .value)))
    }
}

/// An ICAO type description (`L2J`: class, engine count, engine type) in words, and checked
/// against an ACFTREF model's coded fields.
struct ICAODescription {
    let aircraftClass: Character?
    let engines: Int?
    let engineType: Character?

    init(_ text: String) {
        let c = Array(text)
        aircraftClass = c.count == 3 && c[0] != "-" ? c[0] : nil
        engines = c.count == 3 ? Int(String(c[1])) : nil
        engineType = c.count == 3 && c[2] != "-" ? c[2] : nil
    }

    var words: String {
        let classes: [Character: String] = ["L": "landplane", "S": "seaplane", "A": "amphibian", "H": "helicopter", "G": "gyrocopter", "T": "tilt-rotor"]
        let types: [Character: String] = ["P": "piston", "T": "turboprop/turboshaft", "J": "jet", "E": "electric", "R": "rocket"]
        var parts: [String] = []
        if let aircraftClass { parts.append(classes[aircraftClass] ?? String(aircraftClass)) }
        if let engines { parts.append(engines == 1 ? "1 engine" : "\(engines) engines") }
        if let engineType { parts.append(types[engineType] ?? String(engineType)) }
        return parts.joined(separator: ", ")
    }

    /// How many of class, engine count and engine type agree with the model's ACFTREF codes,
    /// minus how many disagree (fields either side leaves blank are not counted).
    func agreement(with model: IndexModel) -> Int {
        var score = 0
        func check(_ agrees: Bool?) { if let agrees { score += agrees ? 1 : -1 } }
        let type = model.aircraftType?.code, engine = model.engineType?.code
        if let aircraftClass, let type {
            switch aircraftClass {
            case "L", "S", "A": check(type == "4" || type == "5")
            case "H": check(type == "6")
            case "G": check(type == "9")
            default: break
            }
        }
        if let engines, engines > 0, let count = model.engineCount, count > 0 { check(engines == count) }
        if let engineType, let engine {
            switch engineType {
            case "P": check(["1", "7", "8", "11"].contains(engine))
            case "T": check(["2", "3"].contains(engine))
            case "J": check(["4", "5"].contains(engine))
            case "E": check(engine == "10")
            default: break
            }
        }
        return score
    }
}
