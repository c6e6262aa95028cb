import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideFAA

// The reference data as `AircraftArtifactBuilder` keeps it: interned into a part's pool, and
// its rows found by a code's final string id when registrations are linked to them.
extension AircraftArtifactBuilder {
    /// The reference data with its strings in one part's pool: the model, engine and code tables,
    /// and the manufacturers with their folded names.
    struct InternedReference: Sendable {
        let modelKeys: [UInt64]
        let engineKeys: [UInt64]
        /// `manufacturers` index of every model row's manufacturer.
        let manufacturerOfModel: [Int]
        var models = RowTableBuilder<S.ModelColumn>()
        var engines = RowTableBuilder<S.EngineColumn>()
        var codes = RowTableBuilder<S.CodeColumn>()
        /// `ReferenceData.manufacturers` with their string ids and the packed folded name.
        var manufacturers: [(name: UInt32, folded: UInt32, key: UInt64)] = []

        init(_ data: ReferenceData, into pool: inout StringPoolBuilder) {
            typealias M = ReferenceData.ModelText
            typealias E = ReferenceData.EngineText
            modelKeys = data.modelKeys
            engineKeys = data.engineKeys
            manufacturerOfModel = data.manufacturerOfModel
            // Every string interned in batches: on a pool of a million strings each lookup is a
            // cache miss, and a batch lets them overlap.
            let manufacturerIDs = data.manufacturers.intern(into: &pool)
            for m in 0..<manufacturerIDs.count / 2 {
                data.manufacturers.withString(2 * m + 1) { folded in
                    manufacturers.append((manufacturerIDs[2 * m], manufacturerIDs[2 * m + 1], PackedKey.pack(folded)))
                }
            }
            let modelIDs = data.modelText.intern(into: &pool), perModel = M.allCases.count
            let modelColumns: [(M, S.ModelColumn)] = [
                (.code, .code), (.manufacturer, .manufacturer), (.model, .model),
                (.typeCertificateDataSheet, .typeCertificateDataSheet), (.typeCertificateHolder, .typeCertificateHolder),
                (.aircraftType, .aircraftType), (.engineType, .engineType), (.category, .category),
                (.builderCertification, .builderCertification), (.weightClass, .weightClass),
            ]
            models.reserve(data.modelCount)
            for (row, numbers) in data.modelNumbers.enumerated() {
                _ = models.appendRow()
                for (field, column) in modelColumns { models[row, column] = modelIDs[row * perModel + field.rawValue] }
                if let n = numbers.engineCount, n >= 0 { models[row, .engineCount] = UInt32(min(n, 254)) }
                if let n = numbers.seatCount, n >= 0 { models[row, .seatCount] = UInt32(min(n, 65_534)) }
                if let n = numbers.cruiseSpeed, n >= 0 { models[row, .cruiseSpeed] = UInt32(min(n, 65_534)) }
            }
            let engineIDs = data.engineText.intern(into: &pool), perEngine = E.allCases.count
            let engineColumns: [(E, S.EngineColumn)] = [(.code, .code), (.manufacturer, .manufacturer), (.model, .model), (.engineType, .engineType)]
            engines.reserve(data.engineCount)
            for (row, numbers) in data.engineNumbers.enumerated() {
                _ = engines.appendRow()
                for (field, column) in engineColumns { engines[row, column] = engineIDs[row * perEngine + field.rawValue] }
                if let n = numbers.horsepower, n >= 0 { engines[row, .horsepower] = UInt32(clamping: n) }
                if let n = numbers.thrust, n >= 0 { engines[row, .thrust] = UInt32(clamping: n) }
            }
            var codeText = TextBatch()
            for table in FAACodeTables.all {
                for entry in table.entries {
                    for text in [table.id, entry.code, entry.name] { codeText.append(text) }
                }
            }
            let codeIDs = codeText.intern(into: &pool)
            for row in 0..<codeIDs.count / 3 {
                _ = codes.appendRow()
                codes[row, .table] = codeIDs[3 * row]
                codes[row, .code] = codeIDs[3 * row + 1]
                codes[row, .name] = codeIDs[3 * row + 2]
            }
        }

        /// Puts final string ids everywhere (`remap` from the provisional ones).
        mutating func remapStrings(_ remap: [UInt32]) {
            models.remapStrings(remap)
            engines.remapStrings(remap)
            codes.remapStrings(remap)
            manufacturers = manufacturers.map { (remap[Int($0.name)], remap[Int($0.folded)], $0.key) }
        }
    }

    /// The rows of a table in code order, found by a code's final string id. Final ids compare
    /// as their strings, so the codes' ids ascend, and a table indexed from the first to the
    /// last covers them all (FAA codes start with a digit: a small stretch of the pool).
    struct RowsByCode: Sendable {
        private let first: UInt32
        /// `rows[id - first]` is the last row with code `id`, `UInt32.max` for none.
        private let rows: [UInt32]

        init<Column>(_ table: RowTableBuilder<Column>, _ code: Column) {
            let ids = (0..<table.count).map { table[$0, code] }
            first = ids.first ?? 0
            var rows = [UInt32](repeating: UInt32.max, count: ids.isEmpty ? 0 : Int(ids.last! - first) + 1)
            for (row, id) in ids.enumerated() { rows[Int(id - first)] = UInt32(row) }
            self.rows = rows
        }

        func row(_ id: UInt32) -> UInt32? {
            let index = Int(id &- first)
            return id >= first && index < rows.count && rows[index] != UInt32.max ? rows[index] : nil
        }
    }
}
