/// Reads a bird database in any of the three schema generations into the current model,
/// reporting schema problems (missing or mistyped fields) to the sink as it goes.
///
/// The generation comes from `metadata.version`, checked against the document's shape:
/// snake_case birds (`common_name`) are 1.2, camelCase ones 2.1 or 3.0. A 1.2 file is
/// migrated: `attributes{shape_id, size_category, rarity}` move onto the bird, rarity is
/// lower-cased, and its field marks (area + variant name) get the ids `1.2:Area` and
/// `1.2:Area:Variant` in a catalog built from `reference_data.field_marks`.
///
/// ```swift
/// let sink = FindingSink(file: "bird_database.json", document: document)
/// if let database = BirdDatabaseDecoder.decode(document, sink: sink) {
///     print(database.generation, database.birds.count)    // v3_0 46
/// }
/// ```
public enum BirdDatabaseDecoder {
    /// Whether a parsed document looks like a bird database (an object with `birds`).
    public static func isDatabase(_ root: JSONValue) -> Bool { root["birds"] != nil }

    public static func decode(_ document: JSONDocument, sink: FindingSink) -> BirdDatabase? {
        guard let root = FieldReader(document.root, pointer: "", sink: sink, what: "a bird database") else { return nil }
        let metadata = root.value("metadata", required: true).flatMap { FieldReader($0, pointer: "/metadata", sink: sink, what: "metadata") }
        let version = versionString(metadata)
        let totalSpecies = metadata?.int("total_species")
        let description = metadata?.string("description", required: false)

        let birdItems = root.array("birds") ?? []
        let snakeCase = birdItems.contains { $0.value["common_name"] != nil || $0.value["attributes"] != nil }
        let generation = detectGeneration(version: version, snakeCase: snakeCase, sink: sink)

        let reference = root.value("reference_data", required: true).flatMap {
            FieldReader($0, pointer: "/reference_data", sink: sink, what: "reference_data")
        }
        var database = BirdDatabase(generation: generation, version: version, totalSpecies: totalSpecies, description: description,
                                    shapes: [], fieldMarks: [], variants: [], birds: [])
        if let reference {
            database.shapes = shapes(reference)
            if generation == .v1_2 {
                database.declaredLocations = reference.strings("locations") ?? []
                database.declaredColors = reference.strings("colors") ?? []
                (database.fieldMarks, database.variants) = legacyCatalog(reference)
            } else {
                (database.fieldMarks, database.variants) = catalog(reference)
            }
        }
        database.birds.reserveCapacity(birdItems.count)
        for (item, pointer) in birdItems {
            guard let reader = FieldReader(item, pointer: pointer, sink: sink, what: "a bird") else { continue }
            let bird = generation == .v1_2 ? legacyBird(reader) : bird(reader)
            if let bird { database.birds.append(bird) }
        }
        return database
    }

    private static func versionString(_ metadata: FieldReader?) -> String? {
        guard let metadata, let found = metadata.value("version", required: true) else { return nil }
        if let string = found.string { return string }
        if let number = found.double { return String(number) }
        metadata.mistyped("version", found, expected: "a string")
        return nil
    }

    private static func detectGeneration(version: String?, snakeCase: Bool, sink: FindingSink) -> SchemaGeneration {
        let inferred: SchemaGeneration = snakeCase ? .v1_2 : .current
        guard let version else { return inferred }
        guard let declared = SchemaGeneration(version: version) else {
            sink.add(.warning, .schema, at: "/metadata/version",
                     "metadata.version \"\(version)\" is not a known schema generation (3.0, 2.1, 1.2); read as \(inferred.rawValue)")
            return inferred
        }
        if (declared == .v1_2) != snakeCase {
            sink.add(.error, .schema, at: "/metadata/version",
                     "metadata.version \"\(version)\" does not match the birds' layout (\(snakeCase ? "snake_case, as 1.2" : "camelCase, as 2.1/3.0")); read as \(inferred.rawValue)")
            return inferred
        }
        return declared
    }

    private static func shapes(_ reference: FieldReader) -> [BirdShape] {
        (reference.objects("shapes", what: "a shape") ?? []).compactMap { shape in
            let id = shape.string("id"), name = shape.string("name")
            guard let id, let name else { return nil }
            return BirdShape(id: id, name: name, icon: shape.string("icon", required: false), source: SourceRef(shape.pointer))
        }
    }

    private static func catalog(_ reference: FieldReader) -> ([FieldMark], [FieldMarkVariant]) {
        let marks: [FieldMark] = (reference.objects("fieldMarks", what: "a field mark") ?? []).compactMap { mark in
            let id = mark.string("id"), shapeID = mark.string("shapeId"), area = mark.string("area")
            guard let id, let area else { return nil }
            return FieldMark(id: id, shapeID: shapeID, area: area, source: SourceRef(mark.pointer))
        }
        let variants: [FieldMarkVariant] = (reference.objects("variants", what: "a variant") ?? []).compactMap { variant in
            let id = variant.string("id"), fieldMarkID = variant.string("fieldMarkId"), name = variant.string("name")
            guard let id, let fieldMarkID, let name else { return nil }
            return FieldMarkVariant(id: id, fieldMarkID: fieldMarkID, name: name, source: SourceRef(variant.pointer))
        }
        return (marks, variants)
    }

    /// The id migration gives a 1.2 field mark and variant.
    public static func legacyFieldMarkID(area: String) -> String { "1.2:\(area)" }
    public static func legacyVariantID(area: String, name: String) -> String { "1.2:\(area):\(name)" }

    private static func legacyCatalog(_ reference: FieldReader) -> ([FieldMark], [FieldMarkVariant]) {
        var marks: [FieldMark] = [], variants: [FieldMarkVariant] = []
        for mark in reference.objects("field_marks", what: "a field mark") ?? [] {
            guard let area = mark.string("area") else { continue }
            let id = legacyFieldMarkID(area: area)
            marks.append(FieldMark(id: id, shapeID: nil, area: area, source: SourceRef(mark.pointer)))
            for (index, name) in (mark.strings("variants", required: true) ?? []).enumerated() {
                variants.append(FieldMarkVariant(id: legacyVariantID(area: area, name: name), fieldMarkID: id, name: name,
                                                 source: SourceRef(JSONPointer.appending(mark.fieldPointer("variants"), index))))
            }
        }
        return (marks, variants)
    }

    private static func bird(_ reader: FieldReader) -> Bird? {
        let marksKey = reader.has("fieldMarkData") || !reader.has("fieldMarks") ? "fieldMarkData" : "fieldMarks"
        let layout = BirdLayout.camelCase(fieldMarks: marksKey)
        let id = reader.string("id"), common = reader.string("commonName"), scientific = reader.string("scientificName")
        let shape = reader.string("shape_id"), size = reader.int("size_category")
        var missing: [String] = []
        for key in [layout.locations, layout.months, layout.fieldMarks] where !reader.has(key) { missing.append(key) }
        let marks: [BirdFieldMark] = (reader.objects(marksKey, required: false, what: "a field mark entry") ?? []).compactMap { mark in
            let area = mark.string("area"), variant = mark.string("variantId")
            guard let area, let variant else { return nil }
            return BirdFieldMark(area: area, variantID: variant, source: SourceRef(mark.pointer))
        }
        let locations = reader.strings(layout.locations) ?? []
        let months = reader.ints(layout.months) ?? []
        let image = reader.string("staticImageName", required: false)
        let family = reader.string("family", required: false), order = reader.string("order_name", required: false)
        let rarity = reader.string("rarityLevel", required: false)
        let text = reader.string("descriptionText", required: false), status = reader.string("conservation_status", required: false)
        guard let id, let common, let scientific, let shape, let size else { return nil }
        return Bird(id: id, commonName: common, scientificName: scientific, imageName: image, family: family, order: order,
                    rarity: rarity, shapeID: shape, sizeCategory: size, locations: locations, months: months, fieldMarks: marks,
                    descriptionText: text, conservationStatus: status, missingOptionalKeys: missing,
                    source: SourceRef(reader.pointer), layout: layout)
    }

    private static func legacyBird(_ reader: FieldReader) -> Bird? {
        let layout = BirdLayout.snakeCase
        let id = reader.string("id"), common = reader.string("common_name"), scientific = reader.string("scientific_name")
        let attributes = reader.value("attributes", required: true).flatMap {
            FieldReader($0, pointer: reader.fieldPointer("attributes"), sink: reader.sink, what: "attributes")
        }
        let shape = attributes?.string("shape_id"), size = attributes?.int("size_category")
        let rarity = attributes?.string("rarity", required: false)
        var missing: [String] = []
        for key in [layout.locations, layout.months, layout.fieldMarks] where !reader.has(key) { missing.append(key) }
        let marks: [BirdFieldMark] = (reader.objects("field_marks", required: false, what: "a field mark entry") ?? []).compactMap { mark in
            let area = mark.string("area"), variant = mark.string("variant")
            let colors = mark.strings("colors") ?? []
            guard let area, let variant else { return nil }
            return BirdFieldMark(area: area, variantID: legacyVariantID(area: area, name: variant), variantName: variant,
                                 colors: colors, source: SourceRef(mark.pointer))
        }
        let locations = reader.strings(layout.locations) ?? []
        let months = reader.ints(layout.months) ?? []
        let image = reader.string("image_name", required: false)
        guard let id, let common, let scientific, let shape, let size else { return nil }
        return Bird(id: id, commonName: common, scientificName: scientific, imageName: image, rarity: rarity?.lowercased(),
                    shapeID: shape, sizeCategory: size, locations: locations, months: months, fieldMarks: marks,
                    missingOptionalKeys: missing, source: SourceRef(reader.pointer), layout: layout)
    }
}
