import FieldGuideArtifact

/// One bird of the seed database, read from the mapped artifact field by field.
///
/// ```swift
/// let crow = birds.species(named: "House Crow").first?.taxon.bird
/// crow?.sizeCategory   // 2
/// crow?.months         // [1, 2, …, 12]
/// ```
public struct BirdRecord: Sendable {
    typealias C = BirdsSchema.SpeciesColumn
    let bundle: BirdsBundle
    /// Row in the species table (birds sorted by common name).
    public let row: Int

    private func text(_ column: C) -> String { bundle.string(bundle.speciesRows.value(row, column)) }

    public var id: String { text(.birdID) }
    public var speciesCode: String { text(.speciesCode) }
    public var commonName: String { text(.commonName) }
    public var scientificName: String { text(.scientificName) }
    public var family: String { text(.family) }
    public var order: String { text(.order) }
    public var rarity: String { text(.rarity) }
    public var shapeID: String { text(.shapeID) }
    public var imageName: String { text(.imageName) }
    /// 0 (tiny) … 4 (very large), nil when the bird has no size.
    public var sizeCategory: Int? { bundle.speciesRows.number(row, .sizeCategory) }
    /// The months listed (empty: unknown, not never).
    public var months: [Int] {
        let mask = bundle.speciesRows.value(row, .monthMask)
        return (1...12).filter { mask & (1 << UInt32($0 - 1)) != 0 }
    }
    /// The locations listed (empty: unknown, not never).
    public var locations: [String] {
        let first = Int(bundle.speciesRows.value(row, .locationFirst)), count = Int(bundle.speciesRows.value(row, .locationCount))
        return (first..<first + count).map { bundle.string(bundle.regions.value(Int(bundle.locations.value($0, .regionRow)), .name)) }
    }
    /// The field marks: (area, variant id).
    public var fieldMarks: [(area: String, variantID: String)] {
        let first = Int(bundle.speciesRows.value(row, .markFirst)), count = Int(bundle.speciesRows.value(row, .markCount))
        return (first..<first + count).map { (bundle.string(bundle.marks.value($0, .area)), bundle.string(bundle.marks.value($0, .variantID))) }
    }

    /// Every field as a plain value (for JSON output).
    public var info: BirdInfo {
        BirdInfo(id: id, speciesCode: speciesCode, commonName: commonName, scientificName: scientificName, family: family, order: order,
                 rarity: rarity, shapeID: shapeID, sizeCategory: sizeCategory, months: months, locations: locations,
                 fieldMarks: fieldMarks.map { .init(area: $0.area, variantID: $0.variantID) })
    }
}

/// A bird's fields as plain values.
///
/// ```swift
/// let info = birds.allSpecies[0].info   // Encodable: what `fieldguide --format json` prints
/// ```
public struct BirdInfo: Sendable, Hashable, Codable {
    public struct Mark: Sendable, Hashable, Codable { public let area: String; public let variantID: String }
    public let id, speciesCode, commonName, scientificName, family, order, rarity, shapeID: String
    public let sizeCategory: Int?
    public let months: [Int]
    public let locations: [String]
    public let fieldMarks: [Mark]
}

/// Birds of a region in a period: present ones, and ones whose months or locations are unknown.
///
/// ```swift
/// let july = birds.species(inRegion: "Himalayas", month: 7)
/// july.present.count; july.unknown.map(\.commonName)   // 4, ["Amur Falcon"]
/// ```
public struct RegionalSpecies: Sendable {
    public let present: [BirdRecord]
    public let unknown: [BirdRecord]
}

/// A taxon of the artifact (a seed bird, a bar-chart taxon or a Status & Trends species).
///
/// ```swift
/// birds.taxon(code: "larus")?.category   // "spuh" (the Svalbard bar chart's "gull sp.")
/// ```
public struct TaxonRecord: Sendable {
    typealias C = BirdsSchema.TaxonColumn
    let bundle: BirdsBundle
    public let row: Int

    private func text(_ column: C) -> String { bundle.string(bundle.taxa.value(row, column)) }

    public var speciesCode: String { text(.speciesCode) }
    public var commonName: String { text(.commonName) }
    public var scientificName: String { text(.scientificName) }
    /// `species`, `spuh`, `slash`, `hybrid` … (the taxonomy's category).
    public var category: String { text(.category) }
    public var family: String { text(.family) }
    /// The seed database's bird for this taxon, if it has one.
    public var bird: BirdRecord? {
        guard let species = bundle.taxa.number(row, .speciesRow), species < bundle.speciesRows.count else { return nil }
        return BirdRecord(bundle: bundle, row: species)
    }

    /// Localized and alternative names: (form, name), form `common`, `scientific`, `code` or a language code.
    public var names: [(form: String, name: String)] {
        var out: [(String, String)] = []
        for r in 0..<bundle.names.count where Int(bundle.names.value(r, .taxonRow)) == row {
            out.append((bundle.string(bundle.names.value(r, .form)), bundle.string(bundle.names.value(r, .name))))
        }
        return out.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
    }
}

/// A name lookup's hit: the taxon and the name form that matched.
///
/// ```swift
/// let hit = birds.species(named: "haussperling")[0]
/// (hit.commonName, hit.form)   // ("House Sparrow", "de")
/// ```
public struct NamedTaxon: Sendable {
    public let taxon: TaxonRecord
    public let matchedName: String
    /// `common`, `scientific`, `code`, or a language code (`de`, `ja`).
    public let form: String
    public var commonName: String { taxon.bird?.commonName ?? taxon.commonName }
}

/// A body shape.
///
/// ```swift
/// birds.shapeList.map(\.id)   // ["Accipitridae", "Alcedinidae", …]
/// ```
public struct BirdShapeInfo: Sendable, Hashable, Codable {
    public let id: String
    public let name: String
    public let icon: String
}

/// A field-mark variant (`Streaked` `Back` of a shape).
///
/// ```swift
/// birds.variant(id: "6a1f0000-0000-0000-0000-000000000003")?.area   // "Back"
/// ```
public struct FieldMarkVariantInfo: Sendable, Hashable, Codable {
    public let id, fieldMarkID, shapeID, area, name: String
}

/// eBird Status & Trends seasons of a species.
///
/// ```swift
/// birds.seasons(of: "Snow Bunting")?.breeding   // 31 May – 26 July
/// ```
public struct SpeciesSeasons: Sendable, Hashable, Codable {
    public struct DateRange: Sendable, Hashable, Codable {
        public let startMonth, startDay, endMonth, endDay: Int
        public init(startMonth: Int, startDay: Int, endMonth: Int, endDay: Int) {
            self.startMonth = startMonth; self.startDay = startDay; self.endMonth = endMonth; self.endDay = endDay
        }
    }
    public let speciesCode: String
    public let resident: Bool
    public let breeding, nonbreeding, prebreedingMigration, postbreedingMigration: DateRange?

    public init(speciesCode: String, resident: Bool, breeding: DateRange?, nonbreeding: DateRange?,
                prebreedingMigration: DateRange?, postbreedingMigration: DateRange?) {
        self.speciesCode = speciesCode; self.resident = resident; self.breeding = breeding; self.nonbreeding = nonbreeding
        self.prebreedingMigration = prebreedingMigration; self.postbreedingMigration = postbreedingMigration
    }
}
