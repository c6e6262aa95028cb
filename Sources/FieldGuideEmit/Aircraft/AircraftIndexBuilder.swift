import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideFAA

/// Builds the manufacturer index (`aircraft-index.fgb`, `AircraftIndexSchema`) from the FAA
/// reference data, the ICAO type designators and, for the crosswalk, registrations with the
/// designator of their Mode S address.
///
/// Models keep ACFTREF's code order; manufacturers are sorted by folded name; types by
/// designator. Text goes into fixed-width columns, codes into rows of the code tables, and the
/// search dictionary with its postings is made here once, so a query only reads it. The bytes
/// depend only on the inputs, never on the order registrations arrive in.
///
/// ```swift
/// var builder = AircraftIndexBuilder(reference: try .init(modelsFile: models, enginesFile: engines),
///                                    types: try ICAOTypeTable(path: "icao-types.json").all)
/// builder.addRegistration(modelCode: code, designator: "C172")   // for each registration with a designator
/// let (artifact, counts) = try builder.build()
/// try artifact.write(to: "output/aircraft-index.fgb")
/// ```
public struct AircraftIndexBuilder {
    typealias S = AircraftIndexSchema
    typealias ModelText = AircraftArtifactBuilder.ReferenceData.ModelText
    typealias EngineText = AircraftArtifactBuilder.ReferenceData.EngineText

    /// The code tables models and engines use.
    static let codeTables = [FAACodeTables.aircraftType, FAACodeTables.engineType, FAACodeTables.aircraftCategory,
                             FAACodeTables.builderCertification, FAACodeTables.weightClass]

    let reference: AircraftArtifactBuilder.ReferenceData
    let types: [ICAOTypeTable.Entry]
    /// Where `build()` stores the large sections as they are made (`SectionSpool`); nil keeps
    /// them in memory until the artifact is written.
    public var spool: SectionSpool?
    /// Designators seen in registrations, by first appearance.
    private var designators: [String] = []
    private var designatorIDs: [String: UInt32] = [:]
    /// (model row << 32 | designator id) → registrations.
    private var votes: [UInt64: UInt32] = [:]

    /// `types` need not be sorted; a designator listed twice keeps its first entry.
    public init(reference: AircraftArtifactBuilder.ReferenceData, types: [ICAOTypeTable.Entry]) {
        self.reference = reference
        var seen = Set<String>()
        self.types = types.filter { seen.insert($0.designator).inserted }.sorted { $0.designator.utf8.lexicographicallyPrecedes($1.designator.utf8) }
    }

    public var modelCount: Int { reference.modelCount }

    /// Counts one registration of the model with ACFTREF code `modelCode` whose Mode S address
    /// has `designator`. Returns false (and counts nothing) when ACFTREF has no such model.
    @discardableResult
    public mutating func addRegistration(modelCode: UnsafeRawBufferPointer, designator: String) -> Bool {
        guard let row = modelRow(code: modelCode) else { return false }
        var id = designatorIDs[designator]
        if id == nil {
            id = UInt32(designators.count)
            designatorIDs[designator] = id
            designators.append(designator)
        }
        votes[UInt64(row) << 32 | UInt64(id!), default: 0] += 1
        return true
    }

    /// The model row with this code (binary search on the packed codes, then the bytes).
    func modelRow(code: UnsafeRawBufferPointer) -> Int? {
        let keys = reference.modelKeys, packed = PackedKey.pack(code)
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < packed { low = mid + 1 } else { high = mid }
        }
        let fields = ModelText.allCases.count
        while low < keys.count && keys[low] == packed {
            if reference.modelText.withString(low * fields + ModelText.code.rawValue, { compare($0, code) == 0 }) { return low }
            low += 1
        }
        return nil
    }

    /// The artifact's sections, and counts for the manifest.
    public func build() throws(LocatedError) -> (artifact: ArtifactBuilder, counts: [String: Int]) {
        var artifact = ArtifactBuilder(kind: S.kind, spool: spool)
        func add(_ tag: FourCC, _ values: [[UInt8]]) throws(LocatedError) {
            let text = try Self.textColumn(tag, values)
            artifact.addSection(tag, rows: text.rows, bytes: text.bytes)
        }
        func add(_ tag: FourCC, _ values: [String]) throws(LocatedError) { try add(tag, values.map { Array($0.utf8) }) }
        func add<C>(_ tag: FourCC, _ table: RowTableBuilder<C>) { artifact.addSection(tag, rows: table.count, bytes: table.serialize()) }

        var codes = CodeMemo(try CodeRows(tables: Self.codeTables, values: codedValues()))
        let models = reference.modelCount, modelFields = ModelText.allCases.count
        for (tag, field) in [(S.Section.modelCodes, ModelText.code), (S.Section.modelNames, .model),
                             (S.Section.modelDataSheets, .typeCertificateDataSheet), (S.Section.modelDataHolders, .typeCertificateHolder)] {
            let text = try Self.textColumn(tag, reference.modelText, field: field.rawValue, fieldsPerRow: modelFields, rows: models)
            artifact.addSection(tag, rows: text.rows, bytes: text.bytes)
        }
        let manufacturers = manufacturerOrder()
        add(S.Section.modelManufacturers, Self.u32Table(reference.manufacturerOfModel.map { manufacturers.rank[$0] }))
        try add(S.Section.manufacturerNames, manufacturers.names)
        add(S.Section.manufacturerModelCounts, Self.u32Table(manufacturers.modelCounts))
        add(S.Section.modelAttributes, modelAttributes(&codes))
        try addEngines(to: &artifact, codes: &codes)
        let (tables, values, names) = codes.rows.columns()
        try add(S.Section.codeTables, tables)
        try add(S.Section.codeValues, values)
        try add(S.Section.codeNames, names)

        let types = allTypes()
        try add(S.Section.typeDesignators, types.map(\.designator))
        try add(S.Section.typeNames, types.map(\.name))
        try add(S.Section.typeDescriptions, types.map(\.description))
        try add(S.Section.typeWakeClasses, types.map(\.wakeClass))
        let crosswalk = crosswalkTables(types: types)
        add(S.Section.crosswalk, crosswalk.rows)
        add(S.Section.crosswalkByModel, crosswalk.byModel)

        var search = SearchIndexBuilder(expectedTexts: models + manufacturers.names.count)
        for (row, type) in types.enumerated() { search.add(type.name, .init(kind: .type, row: row)) }
        for row in 0..<models {
            reference.modelText.withString(row * modelFields + ModelText.model.rawValue) { search.add($0, .init(kind: .model, row: row)) }
        }
        for (row, name) in manufacturers.names.enumerated() { name.withUnsafeBytes { search.add($0, .init(kind: .manufacturer, row: row)) } }
        let searchCounts = search.addSections(to: &artifact)

        let counts: [String: Int] = [
            "models": models, "engines": reference.engineCount, "manufacturers": manufacturers.names.count,
            "types": types.count, "typesFromICAOList": self.types.count, "codes": values.count,
            "crosswalkModels": crosswalk.rows.count, "crosswalkRegistrations": votes.values.reduce(0) { $0 + Int($1) },
            "searchAtoms": searchCounts.atoms, "searchPostings": searchCounts.postings,
        ]
        return (artifact, counts)
    }

    /// The distinct manufacturer names sorted by folded name, then name; the rank of each of
    /// `reference.manufacturers` in that order; and each one's model count.
    private func manufacturerOrder() -> (names: [[UInt8]], rank: [Int], modelCounts: [Int]) {
        // Compared where they are (byte order, a prefix first), no array made per name to sort.
        let batch = reference.manufacturers, count = batch.count / 2
        func compareStrings(_ i: Int, _ j: Int) -> Int {
            batch.withString(i) { x in batch.withString(j) { y in compare(x, y) } }
        }
        let order = (0..<count).sorted { a, b in
            let byFolded = compareStrings(2 * a + 1, 2 * b + 1)
            return byFolded != 0 ? byFolded < 0 : compareStrings(2 * a, 2 * b) < 0
        }
        var rank = [Int](repeating: 0, count: count)
        for (position, index) in order.enumerated() { rank[index] = position }
        var counts = [Int](repeating: 0, count: count)
        for manufacturer in reference.manufacturerOfModel { counts[rank[manufacturer]] += 1 }
        return (order.map { batch.withString(2 * $0) { Array($0) } }, rank, counts)
    }

    /// A model's coded fields: where its text is, its column, and its code table's place in
    /// `codeTables`.
    ///
    /// Why the place and not the table: a `FAACodeTable` holds five references, and these
    /// tuples are walked for each of the 94,000 models twice, so each turn of the loops copied
    /// a table, five retains, and dropped it, five releases (about 10% of the stage's samples;
    /// callgrind at full size 3,003 → 2,764 M instructions without them).
    private static let codedModelFields: [(field: Int, column: S.ModelColumn, table: Int)] = [
        (ModelText.aircraftType.rawValue, .aircraftType, CodeMemo.index(of: FAACodeTables.aircraftType)),
        (ModelText.engineType.rawValue, .engineType, CodeMemo.index(of: FAACodeTables.engineType)),
        (ModelText.category.rawValue, .category, CodeMemo.index(of: FAACodeTables.aircraftCategory)),
        (ModelText.builderCertification.rawValue, .builderCertification, CodeMemo.index(of: FAACodeTables.builderCertification)),
        (ModelText.weightClass.rawValue, .weightClass, CodeMemo.index(of: FAACodeTables.weightClass)),
    ]

    /// Every distinct coded value of the models and engines, with its table (`CodeRows` needs
    /// each once; the same few codes fill 94K rows, so a value is made a `String` only the
    /// first time its bytes are seen).
    private func codedValues() -> [(table: String, code: String)] {
        var values: [(String, String)] = []
        var seen = Set<UInt64>()
        func add(_ index: Int, _ bytes: UnsafeRawBufferPointer) {
            if let key = CodeMemo.key(index, bytes), !seen.insert(key).inserted { return }
            values.append((Self.codeTables[index].id, String(decoding: bytes, as: UTF8.self)))
        }
        let modelFields = ModelText.allCases.count, engineFields = EngineText.allCases.count
        let coded = Self.codedModelFields, engineTable = CodeMemo.index(of: FAACodeTables.engineType)
        for row in 0..<reference.modelCount {
            for (field, _, table) in coded {
                reference.modelText.withString(row * modelFields + field) { add(table, $0) }
            }
        }
        for row in 0..<reference.engineCount {
            reference.engineText.withString(row * engineFields + EngineText.engineType.rawValue) { add(engineTable, $0) }
        }
        return values
    }

    private func modelAttributes(_ codes: inout CodeMemo) -> RowTableBuilder<S.ModelColumn> {
        var table = RowTableBuilder<S.ModelColumn>()
        table.reserve(reference.modelCount)
        let fields = ModelText.allCases.count, coded = Self.codedModelFields
        for (row, numbers) in reference.modelNumbers.enumerated() {
            _ = table.appendRow()
            for (field, column, index) in coded {
                let id = reference.modelText.withString(row * fields + field) { codes.row(index, $0) }
                if let id { table[row, column] = UInt32(id) }
            }
            if let n = numbers.engineCount, n >= 0 { table[row, .engineCount] = UInt32(min(n, 254)) }
            if let n = numbers.seatCount, n >= 0 { table[row, .seatCount] = UInt32(min(n, 65_534)) }
            if let n = numbers.cruiseSpeed, n >= 0 { table[row, .cruiseSpeed] = UInt32(min(n, 65_534)) }
        }
        return table
    }

    private func addEngines(to artifact: inout ArtifactBuilder, codes: inout CodeMemo) throws(LocatedError) {
        let fields = EngineText.allCases.count, count = reference.engineCount
        var table = RowTableBuilder<S.EngineColumn>()
        let engineTable = CodeMemo.index(of: FAACodeTables.engineType)
        for (row, numbers) in reference.engineNumbers.enumerated() {
            _ = table.appendRow()
            let id = reference.engineText.withString(row * fields + EngineText.engineType.rawValue) {
                codes.row(engineTable, $0)
            }
            if let id { table[row, .engineType] = UInt32(id) }
            if let n = numbers.horsepower, n >= 0 { table[row, .horsepower] = UInt32(clamping: n) }
            if let n = numbers.thrust, n >= 0 { table[row, .thrust] = UInt32(clamping: n) }
        }
        for (tag, field) in [(S.Section.engineCodes, EngineText.code), (S.Section.engineManufacturers, .manufacturer), (S.Section.engineModels, .model)] {
            let column = try Self.textColumn(tag, reference.engineText, field: field.rawValue, fieldsPerRow: fields, rows: count)
            artifact.addSection(tag, rows: column.rows, bytes: column.bytes)
        }
        artifact.addSection(S.Section.engineAttributes, rows: table.count, bytes: table.serialize())
    }

    /// The ICAO list's types, and the designators only registrations name (with empty text),
    /// sorted by designator.
    private func allTypes() -> [ICAOTypeTable.Entry] {
        let listed = Set(types.map(\.designator))
        let extra = designators.filter { !listed.contains($0) }.map(ICAOTypeTable.Entry.unlisted)
        return (types + extra).sorted { $0.designator.utf8.lexicographicallyPrecedes($1.designator.utf8) }
    }

    /// Each model's majority designator (most registrations; a tie goes to the designator that
    /// sorts first) with its count and the model's total, sorted by type row, count (most
    /// first), model row; and those rows' numbers sorted by model row.
    private func crosswalkTables(types: [ICAOTypeTable.Entry]) -> (rows: RowTableBuilder<S.CrosswalkColumn>, byModel: RowTableBuilder<S.U32Column>) {
        let typeRow = Dictionary(uniqueKeysWithValues: types.enumerated().map { ($1.designator, $0) })
        // Per model: (best type row, its votes, total votes).
        var best: [Int: (type: Int, votes: UInt32, total: UInt32)] = [:]
        for (key, count) in votes {
            let model = Int(key >> 32), type = typeRow[designators[Int(key & 0xFFFF_FFFF)]]!
            var entry = best[model] ?? (type, 0, 0)
            if count > entry.votes || (count == entry.votes && type < entry.type) { entry.type = type; entry.votes = count }
            entry.total += count
            best[model] = entry
        }
        let ordered = best.sorted { a, b in
            if a.value.type != b.value.type { return a.value.type < b.value.type }
            if a.value.votes != b.value.votes { return a.value.votes > b.value.votes }
            return a.key < b.key
        }
        var rows = RowTableBuilder<S.CrosswalkColumn>()
        for (model, entry) in ordered {
            let row = rows.appendRow()
            rows[row, .typeRow] = UInt32(entry.type)
            rows[row, .modelRow] = UInt32(model)
            rows[row, .registrations] = entry.votes
            rows[row, .modelRegistrations] = entry.total
        }
        let byModel = ordered.indices.sorted { ordered[$0].key < ordered[$1].key }
        return (rows, Self.u32Table(byModel))
    }

    /// A text column's section, refused past `TextColumn.maximumWidth` bytes a value (a documented
    /// bound far above any FAA field or ICAO name, checked before the column is made).
    static func textColumn(_ tag: FourCC, _ values: [[UInt8]]) throws(LocatedError) -> (bytes: [UInt8], rows: Int) {
        if let long = values.first(where: { $0.count > TextColumn.maximumWidth }) {
            throw LocatedError(.tooLarge, file: "", field: tag.description, expected: "at most \(TextColumn.maximumWidth) bytes",
                               found: "\(long.count) bytes", message: "a value too long for the index's text column")
        }
        return TextColumn.serialize(values)
    }

    /// `textColumn` of field `field` of each of `rows` rows of `batch` (`fieldsPerRow` strings a
    /// row), the same bytes and the same error, without an array made per value.
    static func textColumn(_ tag: FourCC, _ batch: AircraftArtifactBuilder.TextBatch, field: Int, fieldsPerRow: Int,
                           rows: Int) throws(LocatedError) -> (bytes: [UInt8], rows: Int) {
        func trimmedCount(_ value: UnsafeRawBufferPointer) -> Int {
            var end = value.count
            while end > 0 && value[end - 1] == 0x20 { end -= 1 }
            return end
        }
        var width = 1
        for row in 0..<rows {
            let (count, trimmed) = batch.withString(row * fieldsPerRow + field) { ($0.count, trimmedCount($0)) }
            if count > TextColumn.maximumWidth {
                throw LocatedError(.tooLarge, file: "", field: tag.description, expected: "at most \(TextColumn.maximumWidth) bytes",
                                   found: "\(count) bytes", message: "a value too long for the index's text column")
            }
            width = max(width, trimmed)
        }
        // Spaces first, each value copied over its row's start (`TextColumn.serialize`).
        var bytes = [UInt8](repeating: 0x20, count: width * rows)
        bytes.withUnsafeMutableBytes { out in
            for row in 0..<rows {
                batch.withString(row * fieldsPerRow + field) { value in
                    let trimmed = trimmedCount(value)
                    if trimmed > 0 { (out.baseAddress! + row * width).copyMemory(from: value.baseAddress!, byteCount: trimmed) }
                }
            }
        }
        return (bytes, rows)
    }

    static func u32Table(_ values: [Int]) -> RowTableBuilder<S.U32Column> {
        var table = RowTableBuilder<S.U32Column>()
        table.reserve(values.count)
        for value in values { table[table.appendRow(), .value] = UInt32(value) }
        return table
    }
}

/// `CodeRows` looked up by a value's bytes, each distinct short value once: the models' and
/// engines' coded fields hold a few values over 94K rows, and a `String` made per row for the
/// lookup cost more than the rest of the index's attributes.
struct CodeMemo {
    let rows: CodeRows
    /// `key(table, bytes)` → the value's row, -1 for none.
    private var known: [UInt64: Int] = [:]

    init(_ rows: CodeRows) { self.rows = rows }

    /// The row of the code `bytes` in the table at `index` in `AircraftIndexBuilder.codeTables`;
    /// nil for a blank code or one the tables lack.
    mutating func row(_ index: Int, _ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let key = Self.key(index, bytes) else { return rows.row(AircraftIndexBuilder.codeTables[index].id, String(decoding: bytes, as: UTF8.self)) }
        if let row = known[key] { return row < 0 ? nil : row }
        let row = rows.row(AircraftIndexBuilder.codeTables[index].id, String(decoding: bytes, as: UTF8.self))
        known[key] = row ?? -1
        return row
    }

    /// The place of `table` in `AircraftIndexBuilder.codeTables` (one of them).
    static func index(of table: FAACodeTable) -> Int {
        AircraftIndexBuilder.codeTables.firstIndex { $0.id == table.id }!
    }

    /// A key unique to (table, bytes) for values of at most 7 bytes: the bytes, their count
    /// and `index`, the table's place in `AircraftIndexBuilder.codeTables`; nil for a longer value.
    static func key(_ index: Int, _ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard bytes.count <= 7 else { return nil }
        var key: UInt64 = 0
        for byte in bytes { key = key << 8 | UInt64(byte) }
        return key << (8 * UInt64(8 - bytes.count)) | UInt64(bytes.count) << 4 | UInt64(index)
    }
}

/// The code tables' rows: every listed code, and any other value the models and engines hold
/// (with no name), sorted by table then code (bytes).
///
/// ```swift
/// let codes = try CodeRows(tables: [FAACodeTables.aircraftType], values: [("aircraft-type", "4")])
/// codes.row("aircraft-type", "4")   // its row; nil for a blank code
/// ```
struct CodeRows {
    private let rows: [(table: String, code: String, name: String)]
    private let index: [String: Int]

    init(tables: [FAACodeTable], values: [(table: String, code: String)]) throws(LocatedError) {
        var entries: [String: [String: String]] = [:]
        for table in tables {
            for entry in table.entries { entries[table.id, default: [:]][entry.code] = entry.name }
        }
        for (table, code) in values where !code.isEmpty && entries[table]?[code] == nil { entries[table, default: [:]][code] = "" }
        rows = entries.flatMap { table, codes in codes.map { (table, $0.key, $0.value) } }.sorted { a, b in
            a.table != b.table ? a.table.utf8.lexicographicallyPrecedes(b.table.utf8) : a.code.utf8.lexicographicallyPrecedes(b.code.utf8)
        }
        guard rows.count <= AircraftIndexSchema.maximumCodes else {
            throw LocatedError(.tooLarge, file: "", message: "more than \(AircraftIndexSchema.maximumCodes) distinct codes in the models and engines")
        }
        index = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.table + "\u{0}" + $1.code, $0) })
    }

    /// The row of `code` in `table`; nil for a blank code.
    func row(_ table: String, _ code: String) -> Int? { code.isEmpty ? nil : index[table + "\u{0}" + code] }

    /// The three text columns: table, code, name.
    func columns() -> (tables: [String], values: [String], names: [String]) {
        (rows.map(\.table), rows.map(\.code), rows.map(\.name))
    }
}
