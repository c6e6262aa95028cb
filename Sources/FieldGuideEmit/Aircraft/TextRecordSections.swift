import CPrefetch
import FieldGuideArtifact
import FieldGuideArtifactWriter

/// The text records of the registrations, models and engines (`RTXR`, `MTXR`, `ETXR`; why they
/// exist: `TextRecordSchema.swift`), made from the finished tables (final string ids) in their
/// rows' order. The bytes depend only on the tables.
///
/// ```swift
/// let sections = TextRecordSections(pool: poolBytes, registrations: parts, order: registrationOrder,
///                                   models: reference.models, engines: reference.engines, spool: spool).sections
/// ```
struct TextRecordSections {
    typealias S = AircraftSchema
    typealias Payload = SectionPayload
    let sections: [(tag: FourCC, rows: Int, payload: Payload)]

    /// `pool` is the final `STRS` section; `order[row]` is the registration (numbered across
    /// `registrations`, in file order) at `REGS` row `row`. With a spool, each section is written
    /// into it as it is made (`SectionSpool.stream(count:_:)`), never whole in memory.
    init(pool: [UInt8], registrations: [RowTableBuilder<S.RegistrationColumn>], order: [UInt32],
         models: RowTableBuilder<S.ModelColumn>, engines: RowTableBuilder<S.EngineColumn>, spool: SectionSpool?) {
        // Spooled as the builder spools: a section under the spool's threshold stays in memory.
        func make(rows: Int, fields: Int, starts: [UInt32]? = nil, _ text: (Int, Int) -> UnsafeRawBufferPointer) -> Payload {
            let starts = starts ?? TextRecords.starts(rows: rows, fields: fields, text: text)
            guard let spool, TextRecords.sectionSize(starts) >= SectionSpool.threshold else {
                return .bytes(TextRecords.serialize(rows: rows, fields: fields, starts: starts, text: text))
            }
            return .spooled(TextRecords.spool(rows: rows, fields: fields, starts: starts, into: spool, text: text))
        }
        sections = pool.withUnsafeBytes { raw in
            guard let pool = try? StringPool(raw, path: S.Section.strings.description) else {
                preconditionFailure("the builder's own string pool does not read back")
            }
            let registrationText = Self.registrationText(pool: pool, registrations: registrations, order: order, make: make)
            let modelColumns = S.ModelTextField.allCases.map(\.column), engineColumns = S.EngineTextField.allCases.map(\.column)
            func modelText(_ row: Int, _ field: Int) -> UnsafeRawBufferPointer { pool.bytes(models[row, modelColumns[field]]) }
            func engineText(_ row: Int, _ field: Int) -> UnsafeRawBufferPointer { pool.bytes(engines[row, engineColumns[field]]) }
            let modelStarts = TextRecords.starts(rows: models.count, fields: modelColumns.count, text: modelText)
            let engineStarts = TextRecords.starts(rows: engines.count, fields: engineColumns.count, text: engineText)
            // Each registration's links: where its model's and engine's records start.
            let links = Self.links(order: order, registrations: registrations, modelStarts: modelStarts, engineStarts: engineStarts)
            return [
                (S.Section.registrationText, order.count, registrationText),
                (S.Section.modelText, models.count, make(rows: models.count, fields: modelColumns.count, starts: modelStarts, modelText)),
                (S.Section.engineText, engines.count, make(rows: engines.count, fields: engineColumns.count, starts: engineStarts, engineText)),
                (S.Section.registrationTextLinks, order.count, .bytes(links)),
            ]
        }
    }

    /// `RTXR`, through `make`: each `REGS` row's text columns, read from its registration's row
    /// of `registrations` (numbered across them as `order`'s values) and the pool.
    ///
    /// Rows come in `REGS` order and their registrations in file order, so a row's fields are
    /// three dependent cache misses: the registration's row of string ids, the strings' offsets
    /// in the pool, their bytes. Each is requested `distance` rows before the next one needs it
    /// (full size: the pool's offsets were 5.7% of `emit-aircraft`'s samples, 1.4% requested
    /// ahead), the tables read in place (`RegistrationRows`).
    private static func registrationText(pool: StringPool, registrations: [RowTableBuilder<S.RegistrationColumn>], order: [UInt32],
                                         make: (Int, Int, [UInt32]?, (Int, Int) -> UnsafeRawBufferPointer) -> Payload) -> Payload {
        let columns = S.RegistrationTextField.allCases.map(\.column.rawValue)
        return RegistrationRows.with(registrations) { rows in
            // The registration at `REGS` row `row`: its row of ids.
            func ids(_ row: Int) -> UnsafePointer<UInt32> { rows.values(Int(order[row])) }
            let distance = 8
            func prefetch(aheadOf row: Int) {
                if row + 3 * distance < order.count { fieldguide_prefetch(ids(row + 3 * distance)) }
                if row + 2 * distance < order.count {
                    let next = ids(row + 2 * distance)
                    for column in columns { pool.prefetchOffsets(next[column]) }
                }
                if row + distance < order.count {
                    let next = ids(row + distance)
                    for column in columns { pool.prefetchBytes(next[column]) }
                }
            }
            // The row being read, found once for its fields (rows come in order, each pass).
            var current = (row: -1, ids: UnsafePointer<UInt32>(bitPattern: 0))
            return make(order.count, columns.count, nil) { row, field in
                if row != current.row {
                    current = (row, ids(row))
                    prefetch(aheadOf: row)
                }
                return pool.bytes(current.ids![columns[field]])
            }
        }
    }

    /// `RTXL`: for each `REGS` row, where its model's record starts (`modelStarts[row]`) and where
    /// its engine's does (`UInt32.max` for none), from the row's registration (numbered across
    /// `registrations` as `order`'s values).
    private static func links(order: [UInt32], registrations: [RowTableBuilder<S.RegistrationColumn>],
                              modelStarts: [UInt32], engineStarts: [UInt32]) -> [UInt8] {
        // The last start is the data's end, not a record's.
        func link(_ row: UInt32, _ starts: [UInt32]) -> UInt32 { Int(row) < starts.count - 1 ? starts[Int(row)] : .max }
        var bytes = [UInt8](repeating: 0, count: order.count * 8)
        RegistrationRows.with(registrations) { rows in
            bytes.withUnsafeMutableBytes { out in
                for (row, registration) in order.enumerated() {
                    let values = rows.values(Int(registration))
                    let model = link(values[S.RegistrationColumn.modelRow.rawValue], modelStarts)
                    let engine = link(values[S.RegistrationColumn.engineRow.rawValue], engineStarts)
                    out.storeBytes(of: model.littleEndian, toByteOffset: row * 8, as: UInt32.self)
                    out.storeBytes(of: engine.littleEndian, toByteOffset: row * 8 + 4, as: UInt32.self)
                }
            }
        }
        return bytes
    }
}
