/// What the other seed files are checked against: a database's birds and vocabularies.
public struct DatabaseIndex: Sendable {
    public let file: String
    public let database: BirdDatabase
    public let birdsByID: [String: Int]
    public let birdsByCommonName: [String: Int]
    public let vocabularies: [String: Vocabulary]

    public func bird(id: String) -> Bird? { birdsByID[id].map { database.birds[$0] } }

    /// An index without checking (for a database already validated).
    public static func make(_ database: BirdDatabase, file: String) -> DatabaseIndex {
        var ids: [String: Int] = [:], names: [String: Int] = [:]
        for (index, bird) in database.birds.enumerated() {
            if ids[bird.id] == nil { ids[bird.id] = index }
            if names[bird.commonName.lowercased()] == nil { names[bird.commonName.lowercased()] = index }
        }
        return DatabaseIndex(file: file, database: database, birdsByID: ids, birdsByCommonName: names, vocabularies: [:])
    }
    public func bird(commonName: String) -> Bird? { birdsByCommonName[commonName.lowercased()].map { database.birds[$0] } }
}

/// The rules for one bird database: references, duplicates, ranges, `total_species`,
/// vocabulary near-duplicates, binomial scientific names.
///
/// ```swift
/// let index = DatabaseRules.check(database, listed: 50, file: "bird_database.json", sink: sink)
/// ```
public enum DatabaseRules {
    /// Checks `database` (whose `birds` array had `listed` elements) and indexes it.
    public static func check(_ database: BirdDatabase, listed: Int, file: String, sink: FindingSink) -> DatabaseIndex {
        if let total = database.totalSpecies, total != listed {
            sink.error(.count, at: "/metadata/total_species", "metadata.total_species is \(total) but the file lists \(listed) \(listed == 1 ? "bird" : "birds")")
        }
        let shapes = unique(database.shapes.map { ($0.id, $0.source.field("id")) }, what: "shape id", sink: sink)
        let marks = unique(database.fieldMarks.map { ($0.id, $0.source.field("id")) }, what: "field mark id", sink: sink)
        _ = unique(database.variants.map { ($0.id, $0.source.field("id")) }, what: "variant id", sink: sink)
        let areas = Set(database.fieldMarks.map(\.area))

        for mark in database.fieldMarks {
            if let shape = mark.shapeID, shapes[shape] == nil {
                sink.error(.reference, at: mark.source.field("shapeId"), "field mark \(mark.area) (\(mark.id)) points at shape \"\(shape)\", which is not in reference_data.shapes")
            }
        }
        var variantNames: [String: String] = [:]
        for variant in database.variants {
            if marks[variant.fieldMarkID] == nil {
                sink.error(.reference, at: variant.source.field("fieldMarkId"), "variant \(variant.name) (\(variant.id)) points at field mark \"\(variant.fieldMarkID)\", which is not in reference_data.fieldMarks")
            }
            let key = variant.fieldMarkID + "\u{0}" + variant.name
            if let first = variantNames[key] {
                sink.error(.duplicate, at: variant.source.pointer, "duplicate variant \"\(variant.name)\" of field mark \(variant.fieldMarkID) (first at \(first))")
            } else { variantNames[key] = variant.source.pointer }
        }

        let ids = unique(database.birds.map { ($0.id, $0.source.field($0.layout.id)) }, what: "bird id", sink: sink)
        let commonNames = unique(database.birds.map { ($0.commonName.lowercased(), $0.source.field($0.layout.commonName)) },
                                 what: "common name", sink: sink)
        _ = unique(database.birds.map { ($0.scientificName.lowercased(), $0.source.field($0.layout.scientificName)) },
                   what: "scientific name", sink: sink)

        let variantsByID = Dictionary(database.variants.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let marksByID = Dictionary(database.fieldMarks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let declaredColors = Set(database.declaredColors)
        let declaredLocations = Set(database.declaredLocations)
        for bird in database.birds {
            checkBird(bird, shapes: shapes, areas: areas, variantsByID: variantsByID, marksByID: marksByID, database: database,
                      declaredLocations: declaredLocations, declaredColors: declaredColors, sink: sink)
        }
        let vocabularies = collectVocabularies(database)
        for name in vocabularies.keys.sorted() { vocabularies[name]!.report(to: sink) }
        return DatabaseIndex(file: file, database: database, birdsByID: ids, birdsByCommonName: commonNames, vocabularies: vocabularies)
    }

    private static func checkBird(_ bird: Bird, shapes: [String: Int], areas: Set<String>, variantsByID: [String: FieldMarkVariant],
                                  marksByID: [String: FieldMark], database: BirdDatabase, declaredLocations: Set<String>,
                                  declaredColors: Set<String>, sink: FindingSink) {
        let layout = bird.layout
        if shapes[bird.shapeID] == nil {
            sink.error(.reference, at: bird.source.field(layout.shapeID), "\(bird.commonName): shape_id \"\(bird.shapeID)\" is not in reference_data.shapes")
        }
        if !(0...4).contains(bird.sizeCategory) {
            sink.error(.range, at: bird.source.field(layout.sizeCategory), "\(bird.commonName): size_category \(bird.sizeCategory) is outside 0–4")
        }
        var seenMonths: UInt16 = 0  // bit m: month m was listed (a Set<Int> hashed every month of every bird)
        for (index, month) in bird.months.enumerated() {
            // The month's pointer is made for a finding only (for every month of every bird it
            // was a fifth of checking a bird).
            func pointer() -> String { JSONPointer.appending(bird.source.field(layout.months), index) }
            if !(1...12).contains(month) {
                sink.error(.range, at: pointer(), "\(bird.commonName): month \(month) is outside 1–12")
            } else if seenMonths & 1 << month != 0 {
                sink.error(.range, at: pointer(), "\(bird.commonName): month \(month) is listed twice")
            } else {
                seenMonths |= 1 << month
            }
        }
        if !bird.missingOptionalKeys.isEmpty {
            sink.warning(.schema, at: bird.source.pointer,
                         "\(bird.commonName): no \(bird.missingOptionalKeys.joined(separator: ", ")): the bird never matches a location, month or field-mark filter")
        }
        if !isBinomial(bird.scientificName) {
            sink.warning(.binomial, at: bird.source.field(layout.scientificName),
                         "\(bird.commonName): scientific name \"\(bird.scientificName)\" is not a binomial (Genus species)")
        }
        if !declaredLocations.isEmpty {
            for (index, location) in bird.locations.enumerated() where !declaredLocations.contains(location) {
                sink.error(.reference, at: JSONPointer.appending(bird.source.field(layout.locations), index),
                           "\(bird.commonName): location \"\(location)\" is not in reference_data.locations")
            }
        }
        for mark in bird.fieldMarks {
            checkFieldMark(mark, bird: bird, areas: areas, variantsByID: variantsByID, marksByID: marksByID, database: database,
                           declaredColors: declaredColors, sink: sink)
        }
    }

    private static func checkFieldMark(_ mark: BirdFieldMark, bird: Bird, areas: Set<String>, variantsByID: [String: FieldMarkVariant],
                                       marksByID: [String: FieldMark], database: BirdDatabase, declaredColors: Set<String>, sink: FindingSink) {
        guard areas.contains(mark.area) else {
            sink.error(.reference, at: mark.source.field("area"), "\(bird.commonName): field mark area \"\(mark.area)\" is not an area of any field mark in reference_data")
            return
        }
        for (index, color) in mark.colors.enumerated() where !declaredColors.isEmpty && !declaredColors.contains(color) {
            sink.error(.reference, at: JSONPointer.appending(mark.source.field("colors"), index),
                       "\(bird.commonName): color \"\(color)\" is not in reference_data.colors")
        }
        guard let variant = variantsByID[mark.variantID] else {
            if let name = mark.variantName {
                let known = database.variants.filter { marksByID[$0.fieldMarkID]?.area == mark.area }.map(\.name)
                sink.error(.reference, at: mark.source.field("variant"),
                           "\(bird.commonName): \"\(name)\" is not a variant of the \(mark.area) field mark (variants: \(known.joined(separator: ", ")))")
            } else {
                sink.error(.reference, at: mark.source.field("variantId"), "\(bird.commonName): variantId \"\(mark.variantID)\" is not in reference_data.variants")
            }
            return
        }
        if let owner = marksByID[variant.fieldMarkID], owner.area != mark.area {
            sink.error(.reference, at: mark.source.field("variantId"),
                       "\(bird.commonName): variant \"\(variant.name)\" (\(variant.id)) belongs to the \(owner.area) field mark, not \(mark.area)")
        }
    }

    /// `Genus species` (an optional hyphenated epithet): capitalised genus, lower-case epithet.
    ///
    /// Read as bytes: every byte it accepts is an ASCII letter, a space or a hyphen, so a
    /// name past ASCII is refused as it was when this split the name by characters (about
    /// 8,000 instructions a bird, `birds-bench`).
    public static func isBinomial(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { return false }
        let genus = bytes[..<space], epithet = bytes[(space + 1)...]
        func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        guard genus.count >= 2, let first = genus.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z"),
              genus.dropFirst().allSatisfy(isLower) else { return false }
        return epithet.count >= 2 && epithet.first != UInt8(ascii: "-") && epithet.last != UInt8(ascii: "-")
            && epithet.allSatisfy { isLower($0) || $0 == UInt8(ascii: "-") }
    }

    /// Reports every repeat of a key; returns key → index of its first occurrence.
    static func unique(_ items: [(key: String, pointer: String)], what: String, sink: FindingSink) -> [String: Int] {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if let first = seen[item.key] {
                sink.error(.duplicate, at: item.pointer, "duplicate \(what) \"\(item.key)\" (first at \(items[first].pointer))")
            } else {
                seen[item.key] = index
            }
        }
        return seen
    }

    static func collectVocabularies(_ database: BirdDatabase) -> [String: Vocabulary] {
        // Families and orders are not here: real ones differ by two letters (Picidae, Pittidae);
        // the taxonomy check covers them.
        var locations = Vocabulary(name: "location"), rarity = Vocabulary(name: "rarity")
        var areas = Vocabulary(name: "field mark area"), variants = Vocabulary(name: "variant")
        var colors = Vocabulary(name: "color")
        for (index, value) in database.declaredLocations.enumerated() { locations.declare(value, at: "/reference_data/locations/\(index)") }
        for (index, value) in database.declaredColors.enumerated() { colors.declare(value, at: "/reference_data/colors/\(index)") }
        for mark in database.fieldMarks { areas.declare(mark.area, at: mark.source.field("area")) }
        for variant in database.variants {
            variants.add(variant.name, at: database.generation == .v1_2 ? variant.source.pointer : variant.source.field("name"))
        }
        for bird in database.birds {
            let layout = bird.layout
            for (index, value) in bird.locations.enumerated() { locations.add(value, at: JSONPointer.appending(bird.source.field(layout.locations), index)) }
            if let value = bird.rarity {
                rarity.add(value, at: bird.source.field(database.generation == .v1_2 ? "attributes/rarity" : "rarityLevel"))
            }
            for mark in bird.fieldMarks {
                areas.add(mark.area, at: mark.source.field("area"))
                for (index, color) in mark.colors.enumerated() { colors.add(color, at: JSONPointer.appending(mark.source.field("colors"), index)) }
            }
        }
        return [locations.name: locations, rarity.name: rarity, areas.name: areas, variants.name: variants, colors.name: colors]
    }
}
