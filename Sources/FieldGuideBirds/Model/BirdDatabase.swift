/// The schema generation a bird database was written in; older ones are migrated on read.
///
/// ```swift
/// SchemaGeneration(version: "1.2")   // .v1_2 (snake_case: common_name, attributes, field_marks)
/// ```
public enum SchemaGeneration: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// snake_case birds (`common_name`, `attributes{shape_id, size_category, rarity}`,
    /// `field_marks[{area, variant, colors}]`), vocabularies in `reference_data`.
    case v1_2 = "1.2"
    /// camelCase birds with `shape_id`, `size_category`, `fieldMarkData` (or `fieldMarks`)
    /// pointing at variant ids in `reference_data{shapes, fieldMarks, variants}`.
    case v2_1 = "2.1"
    /// As 2.1; the current generation.
    case v3_0 = "3.0"

    public static let current = SchemaGeneration.v3_0

    /// The generation `metadata.version` names, or nil for an unknown version.
    public init?(version: String) { self.init(rawValue: version) }

    public static func < (a: SchemaGeneration, b: SchemaGeneration) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Where a record came from: its JSON pointer in the source file.
public struct SourceRef: Sendable, Hashable, Codable {
    public var pointer: String
    public init(_ pointer: String) { self.pointer = pointer }

    /// The pointer of a field of this record (`path` may hold several tokens, `attributes/shape_id`).
    public func field(_ path: String) -> String { path.isEmpty ? pointer : JSONPointer.joining(pointer, path) }
}

/// A body shape the identifier filters by (`Anatidae (Ducks)`).
public struct BirdShape: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var icon: String?
    public var source: SourceRef
}

/// A field mark: a body area (`Crown`, `Back`) of a shape, with its variants.
public struct FieldMark: Sendable, Hashable, Codable {
    public var id: String
    /// The shape it belongs to; nil in 1.2, where field marks are shared by every shape.
    public var shapeID: String?
    public var area: String
    public var source: SourceRef
}

/// One look of a field mark (`Streaked` back, `Hooked` beak).
public struct FieldMarkVariant: Sendable, Hashable, Codable {
    public var id: String
    public var fieldMarkID: String
    public var name: String
    public var source: SourceRef
}

/// A bird's field mark: the area and the variant it shows there.
public struct BirdFieldMark: Sendable, Hashable, Codable {
    public var area: String
    /// The variant's id (3.0/2.1), or the id migration gives a 1.2 variant name.
    public var variantID: String
    /// The variant's name as written in 1.2 (nil in 3.0/2.1, where the id says it).
    public var variantName: String?
    public var colors: [String] = []
    public var source: SourceRef
}

/// One species of the seed database, in the current model whatever generation it was read from.
///
/// ```swift
/// let database = try BirdDatabaseDecoder.decode(document, file: "bird_database.json").database
/// database.birds[1].commonName     // "House Sparrow"
/// database.birds[1].sizeCategory   // 1
/// ```
public struct Bird: Sendable, Hashable, Codable {
    public var id: String
    public var commonName: String
    public var scientificName: String
    public var imageName: String?
    public var family: String?
    public var order: String?
    public var rarity: String?
    public var shapeID: String
    /// 0 (tiny) … 4 (very large).
    public var sizeCategory: Int
    public var locations: [String] = []
    public var months: [Int] = []
    public var fieldMarks: [BirdFieldMark] = []
    public var descriptionText: String?
    public var conservationStatus: String?
    /// Keys the record lacks that birds are expected to have (`validMonths` …), in file order.
    public var missingOptionalKeys: [String] = []
    public var source: SourceRef
    /// Field name → path relative to the record in the file it was read from.
    public var layout: BirdLayout
}

/// Where each field of a bird record lives in its generation's layout.
public struct BirdLayout: Sendable, Hashable, Codable {
    public var id = "id"
    public var commonName: String
    public var scientificName: String
    public var family = "family"
    public var shapeID: String
    public var sizeCategory: String
    public var locations: String
    public var months: String
    public var fieldMarks: String

    /// 3.0 and 2.1 (`fieldMarks` says which key a 2.1 file used for field mark data).
    public static func camelCase(fieldMarks: String = "fieldMarkData") -> BirdLayout {
        BirdLayout(commonName: "commonName", scientificName: "scientificName", shapeID: "shape_id", sizeCategory: "size_category",
                   locations: "validLocations", months: "validMonths", fieldMarks: fieldMarks)
    }

    /// 1.2: snake_case, shape and size under `attributes`.
    public static let snakeCase = BirdLayout(commonName: "common_name", scientificName: "scientific_name",
                                             shapeID: "attributes/shape_id", sizeCategory: "attributes/size_category",
                                             locations: "valid_locations", months: "valid_months", fieldMarks: "field_marks")
}

/// A bird database in the current model: metadata, reference data and birds.
///
/// ```swift
/// let decoded = BirdDatabaseDecoder.decode(document, sink: sink)
/// decoded?.generation        // .v1_2 for a snake_case file, migrated to the current model
/// decoded?.birds.count
/// ```
public struct BirdDatabase: Sendable, Hashable, Codable {
    /// The generation the file was written in (the model is always the current one).
    public var generation: SchemaGeneration
    /// `metadata.version` as written.
    public var version: String?
    public var totalSpecies: Int?
    public var description: String?
    public var shapes: [BirdShape]
    public var fieldMarks: [FieldMark]
    public var variants: [FieldMarkVariant]
    /// Declared vocabularies (1.2: `reference_data.locations`, `reference_data.colors`).
    public var declaredLocations: [String] = []
    public var declaredColors: [String] = []
    public var birds: [Bird]
}
