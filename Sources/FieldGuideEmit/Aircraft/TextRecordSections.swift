import FieldGuideArtifact
import FieldGuideArtifactWriter

/// The text records of the registrations, models and engines (`RTXR`, `MTXR`, `ETXR`; why they
/// exist: `TextRecordSchema.swift`), made from the finished tables (final string ids) in their
/// rows' order. The bytes depend only on the tables.
///
/// ```swift
/// let sections = TextRecordSections(pool: poolBytes, registrations: parts, order: registrationOrder,
///                                   models: reference.models, engines: reference.engines).sections
/// ```
struct TextRecordSections {
    typealias S = AircraftSchema
    let sections: [(tag: FourCC, rows: Int, bytes: [UInt8])]

    /// `pool` is the final `STRS` section; `order[row]` is the registration (numbered across
    /// `registrations`, in file order) at `REGS` row `row`.
    init(pool: [UInt8], registrations: [RowTableBuilder<S.RegistrationColumn>], order: [UInt32],
         models: RowTableBuilder<S.ModelColumn>, engines: RowTableBuilder<S.EngineColumn>) {
        sections = pool.withUnsafeBytes { raw in
            guard let pool = try? StringPool(raw, path: S.Section.strings.description) else {
                preconditionFailure("the builder's own string pool does not read back")
            }
            let partStarts = registrations.reduce(into: [0]) { starts, table in starts.append(starts.last! + table.count) }
            let registrationColumns = S.RegistrationTextField.allCases.map(\.column)
            // The row being written, found once for its fields (rows come in order; parts are few).
            var current = (row: -1, part: 0, index: 0)
            let registrationText = TextRecords.serialize(rows: order.count, fields: registrationColumns.count) { row, field in
                if row != current.row {
                    let registration = Int(order[row])
                    var part = 0
                    while registration >= partStarts[part + 1] { part += 1 }
                    current = (row, part, registration - partStarts[part])
                }
                return pool.bytes(registrations[current.part][current.index, registrationColumns[field]])
            }
            let modelColumns = S.ModelTextField.allCases.map(\.column), engineColumns = S.EngineTextField.allCases.map(\.column)
            let modelText = TextRecords.serialize(rows: models.count, fields: modelColumns.count) { pool.bytes(models[$0, modelColumns[$1]]) }
            let engineText = TextRecords.serialize(rows: engines.count, fields: engineColumns.count) { pool.bytes(engines[$0, engineColumns[$1]]) }
            // Each registration's links: where its model's and engine's records start.
            let links = Self.links(order: order, modelText: modelText, models: models.count, engineText: engineText, engines: engines.count) { registration, column in
                var part = 0
                while registration >= partStarts[part + 1] { part += 1 }
                return registrations[part][registration - partStarts[part], column]
            }
            return [
                (S.Section.registrationText, order.count, registrationText),
                (S.Section.modelText, models.count, modelText),
                (S.Section.engineText, engines.count, engineText),
                (S.Section.registrationTextLinks, order.count, links),
            ]
        }
    }

    /// `RTXL`: for each `REGS` row, where its model's record starts in `modelText`'s data and
    /// where its engine's starts in `engineText`'s (`UInt32.max` for none). `value` reads a
    /// column of a registration (numbered as `order`'s values).
    private static func links(order: [UInt32], modelText: [UInt8], models: Int, engineText: [UInt8], engines: Int,
                              value: (Int, S.RegistrationColumn) -> UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: order.count * 8)
        modelText.withUnsafeBytes { modelStarts in
            engineText.withUnsafeBytes { engineStarts in
                bytes.withUnsafeMutableBytes { out in
                    // A record's start is the `row`-th word of its section (`TextRecords`).
                    func link(_ row: UInt32, _ rows: Int, _ starts: UnsafeRawBufferPointer) -> UInt32 {
                        Int(row) < rows ? starts.loadUnaligned(fromByteOffset: Int(row) * 4, as: UInt32.self) : UInt32.max.littleEndian
                    }
                    for (row, registration) in order.enumerated() {
                        out.storeBytes(of: link(value(Int(registration), .modelRow), models, modelStarts), toByteOffset: row * 8, as: UInt32.self)
                        out.storeBytes(of: link(value(Int(registration), .engineRow), engines, engineStarts), toByteOffset: row * 8 + 4, as: UInt32.self)
                    }
                }
            }
        }
        return bytes
    }
}
