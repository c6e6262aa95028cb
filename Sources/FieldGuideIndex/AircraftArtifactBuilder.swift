import FieldGuideArtifact
import FieldGuideCSV
import FieldGuideFAA

/// Builds the aircraft artifact's sections from normalized FAA records.
///
/// Models are sorted by code, manufacturers by folded name, registrations by N-number and the
/// Mode S index by address; strings are pooled once; each keyed table gets a parallel section
/// of packed keys. The bytes depend only on the records, never on their arrival order, nor on
/// whether the reference data comes before or after the registrations.
///
/// Registrations are taken as `registrations.csv` records and interned from their bytes: the
/// 316K-row MASTER never becomes Swift strings here. Their links to model and engine rows are
/// resolved in `build()`, so the reference files can be read on another thread meanwhile.
///
/// ```swift
/// var builder = AircraftArtifactBuilder(expectedRegistrations: 316_000)
/// try NormalizedFAA.readRegistrationRecords(path) { try builder.addRegistration($0) }
/// builder.add(AircraftArtifactBuilder.ReferenceData(models: models, engines: engines))
/// try builder.build().artifact.write(to: "output/aircraft.fgb")
/// ```
public struct AircraftArtifactBuilder {
    private typealias S = AircraftSchema
    private typealias F = NormalizedFAA.RegistrationField

    /// Models and engines in code order with their packed keys: the reference data as the
    /// builder takes it, prepared apart (on another thread while registrations are read).
    public struct ReferenceData: Sendable {
        let models: [AircraftModel]
        let engines: [EngineModel]
        let modelKeys: [UInt64]
        let engineKeys: [UInt64]

        public init(models: [AircraftModel], engines: [EngineModel]) {
            self.models = AircraftArtifactBuilder.sortedByCode(models, \.code)
            self.engines = AircraftArtifactBuilder.sortedByCode(engines, \.code)
            modelKeys = self.models.map { PackedKey.pack($0.code) }
            engineKeys = self.engines.map { PackedKey.pack($0.code) }
        }
    }

    private var pool: StringPoolBuilder
    private var modelTable = RowTableBuilder<S.ModelColumn>()
    private var engineTable = RowTableBuilder<S.EngineColumn>()
    private var registrationTable = RowTableBuilder<S.RegistrationColumn>()
    private var reference: ReferenceData?
    /// Provisional string id of a code → row in the (already sorted) model / engine table,
    /// `UInt32.max` for none.
    private var modelRowByCode: [UInt32] = []
    private var engineRowByCode: [UInt32] = []
    /// (class id << 32 | operation codes id) → id of the decoded operation names.
    private var operationNames: [UInt64: UInt32] = [:]
    private var registrationKeys: [UInt64] = []

    /// `expectedRegistrations` and `expectedModels` pre-size the tables (the hand-off's row
    /// counts, or estimates).
    public init(expectedRegistrations: Int = 0, expectedModels: Int = 0) {
        // About six distinct strings and 60 bytes of text per registration, measured on full-size data.
        pool = StringPoolBuilder(expectedStrings: expectedModels * 3 + expectedRegistrations * 6,
                                 expectedBytes: expectedModels * 40 + expectedRegistrations * 64)
        registrationTable.reserve(expectedRegistrations)
        registrationKeys.reserveCapacity(expectedRegistrations)
    }

    /// A builder that has its reference data from the start.
    public init(models: [AircraftModel], engines: [EngineModel], expectedRegistrations: Int = 0) {
        self.init(expectedRegistrations: expectedRegistrations, expectedModels: models.count)
        add(ReferenceData(models: models, engines: engines))
    }

    /// Adds the models and engines, once; before, between or after the registrations.
    public mutating func add(_ reference: ReferenceData) {
        precondition(self.reference == nil, "reference data added twice")
        self.reference = reference
        for m in reference.models {
            let row = modelTable.appendRow()
            let code = pool.intern(m.code)
            Self.set(&modelRowByCode, code, UInt32(row))
            modelTable[row, .code] = code
            modelTable[row, .manufacturer] = pool.intern(m.manufacturer)
            modelTable[row, .model] = pool.intern(m.model)
            modelTable[row, .aircraftType] = intern(m.aircraftType)
            modelTable[row, .engineType] = intern(m.engineType)
            modelTable[row, .category] = intern(m.category)
            modelTable[row, .builderCertification] = intern(m.builderCertification)
            if let n = m.engineCount { modelTable[row, .engineCount] = UInt32(min(n, 254)) }
            if let n = m.seatCount { modelTable[row, .seatCount] = UInt32(min(n, 65_534)) }
            modelTable[row, .weightClass] = intern(m.weightClass)
            if let n = m.cruiseSpeedMPH { modelTable[row, .cruiseSpeed] = UInt32(min(n, 65_534)) }
            modelTable[row, .typeCertificateDataSheet] = pool.intern(m.typeCertificateDataSheet)
            modelTable[row, .typeCertificateHolder] = pool.intern(m.typeCertificateHolder)
        }
        for e in reference.engines {
            let row = engineTable.appendRow()
            let code = pool.intern(e.code)
            Self.set(&engineRowByCode, code, UInt32(row))
            engineTable[row, .code] = code
            engineTable[row, .manufacturer] = pool.intern(e.manufacturer)
            engineTable[row, .model] = pool.intern(e.model)
            engineTable[row, .engineType] = intern(e.engineType)
            if let n = e.horsepower { engineTable[row, .horsepower] = UInt32(n) }
            if let n = e.thrustPounds { engineTable[row, .thrust] = UInt32(n) }
        }
    }

    /// `values` in byte order of their codes, equal codes in input order: packed 8-byte
    /// prefixes are compared first, whole codes only on a tie.
    fileprivate static func sortedByCode<T>(_ values: [T], _ code: KeyPath<T, String>) -> [T] {
        let packed = values.map { PackedKey.pack($0[keyPath: code]) }
        let order = values.indices.sorted { a, b in
            if packed[a] != packed[b] { return packed[a] < packed[b] }
            let x = values[a][keyPath: code].utf8, y = values[b][keyPath: code].utf8
            if x.elementsEqual(y) { return a < b }
            return x.lexicographicallyPrecedes(y)
        }
        return order.map { values[$0] }
    }

    private static func set(_ table: inout [UInt32], _ id: UInt32, _ row: UInt32) {
        if Int(id) >= table.count { table.append(contentsOf: repeatElement(UInt32.max, count: Int(id) + 1 - table.count)) }
        table[Int(id)] = row
    }

    /// The fields interned as they are, with their columns, in `registrations.csv` order; the
    /// approved operations come last (their column gets the decoded names instead).
    private static let internedFields: [(field: Int, column: S.RegistrationColumn)] = [
        (F.nNumber.rawValue, .nNumber), (F.serialNumber.rawValue, .serialNumber), (F.modelCode.rawValue, .modelCode),
        (F.engineCode.rawValue, .engineCode), (F.registrantType.rawValue, .registrantType), (F.name.rawValue, .name),
        (F.street.rawValue, .street), (F.street2.rawValue, .street2), (F.city.rawValue, .city), (F.state.rawValue, .state),
        (F.zip.rawValue, .zip), (F.region.rawValue, .region), (F.county.rawValue, .county), (F.country.rawValue, .country),
        (F.certification.rawValue, .certification), (F.airworthinessClass.rawValue, .airworthinessClass),
        (F.aircraftType.rawValue, .aircraftType), (F.engineType.rawValue, .engineType), (F.status.rawValue, .status),
        (F.otherNames.rawValue, .otherNames), (F.uniqueID.rawValue, .uniqueID), (F.kitManufacturer.rawValue, .kitManufacturer),
        (F.kitModel.rawValue, .kitModel), (F.approvedOperations.rawValue, .approvedOperations),
    ]
    private static let dateColumns: [(field: Int, column: S.RegistrationColumn)] = [
        (F.lastActionDate.rawValue, .lastActionDate), (F.certificateIssueDate.rawValue, .certificateIssueDate),
        (F.airworthinessDate.rawValue, .airworthinessDate), (F.expirationDate.rawValue, .expirationDate),
    ]

    /// Adds one record of `registrations.csv` (the columns of `NormalizedFAA.RegistrationField`).
    public mutating func addRegistration(_ record: CSVRecord) throws {
        let width = registrationTable.rowWidth
        try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: width) { memory in
            let row = registrationTable.rowBuffer(in: memory)
            try record.withUnsafeFields { fields in try fill(row, fields, record) }
            registrationTable.append(row)
        }
    }

    private mutating func fill(_ row: RowBuffer<S.RegistrationColumn>, _ fields: UnsafeCSVFields, _ record: CSVRecord) throws {
        func number(_ field: F, radix: UInt32 = 10) throws -> UInt32? {
            let bytes = fields[field.rawValue]
            if bytes.isEmpty { return nil }
            var n: UInt32 = 0
            for byte in bytes {
                guard let digit = hexDigit(byte), digit < radix, n <= (UInt32.max - digit) / radix else {
                    throw FAAError(.badHandOff, file: NormalizedFAA.registrationsFile, line: record.line,
                                   "expected a number in column \(field), found \(record[field.rawValue])")
                }
                n = n * radix + digit
            }
            return n
        }

        // All text fields in one batch: on a pool of millions of strings their lookups are cache
        // misses, and the batch lets them overlap.
        let interned = Self.internedFields
        let ids = withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: interned.count) { strings in
            for (i, entry) in interned.enumerated() { strings[i] = fields[entry.field] }
            return [UInt32](unsafeUninitializedCapacity: interned.count) { ids, initialized in
                pool.intern(UnsafeBufferPointer(strings), into: ids)
                initialized = interned.count
            }
        }
        for (i, entry) in interned.enumerated().dropLast() { row[entry.column] = ids[i] }
        registrationKeys.append(PackedKey.pack(fields[F.nNumber.rawValue]))
        if let year = try number(.yearManufactured) { row[.yearManufactured] = min(year, 65_534) }
        for (field, column) in Self.dateColumns {
            let bytes = fields[field]
            if bytes.isEmpty { continue }
            var n: UInt32 = 0, digits = 0
            for byte in bytes where byte != UInt8(ascii: "-") {
                guard byte >= 0x30, byte <= 0x39 else { digits = -1; break }
                n = n &* 10 &+ UInt32(byte - 0x30)
                digits += 1
            }
            guard digits == 8 else {
                throw FAAError(.badHandOff, file: NormalizedFAA.registrationsFile, line: record.line,
                               "expected a date YYYY-MM-DD in column \(F(rawValue: field)!), found \(record[field])")
            }
            row[column] = n
        }
        let classCode = row[.airworthinessClass]
        let operations = ids[interned.count - 1]
        if operations != 0 {
            let key = UInt64(classCode) << 32 | UInt64(operations)
            if let names = operationNames[key] {
                row[.approvedOperations] = names
            } else {
                let classText = record[F.airworthinessClass.rawValue]
                let names = record[F.approvedOperations.rawValue].split(separator: "|").enumerated().map { position, code in
                    FAACodeTables.operationName(classCode: classText, code: String(code), position: position) ?? String(code)
                }.joined(separator: String(S.listSeparator))
                let id = pool.intern(names)
                operationNames[key] = id
                row[.approvedOperations] = id
            }
        }
        if let address = try number(.modeSHex, radix: 16) { row[.modeSHex] = address }
        row[.fractionalOwner] = fields[F.fractionalOwner.rawValue].first == UInt8(ascii: "Y") ? 1 : 0
    }

    /// Sorts and pools everything into the artifact's sections (`serialize()` or `write(to:)`
    /// them). Leaves the builder spent: build once.
    ///
    /// The string pool is sorted on a second thread while this one orders the registrations.
    public mutating func build() -> (artifact: ArtifactBuilder, counts: [String: Int]) {
        if reference == nil { add(ReferenceData(models: [], engines: [])) }
        let reference = self.reference!
        let (withoutModel, withoutEngine) = linkRegistrations()

        // Manufacturers: one per distinct name, with its folded name. They are ordered once the
        // pool is sorted, when comparing two final string ids compares the strings.
        var manufacturerIndex: [UInt32: Int] = [:]
        var manufacturers: [(name: UInt32, folded: UInt32, key: UInt64)] = []
        var manufacturerOfModel = [Int](repeating: 0, count: reference.models.count)
        for (row, model) in reference.models.enumerated() {
            let name = modelTable[row, .manufacturer]
            if let index = manufacturerIndex[name] {
                manufacturerOfModel[row] = index
            } else {
                let folded = NameFolding.fold(model.manufacturer)
                manufacturerIndex[name] = manufacturers.count
                manufacturerOfModel[row] = manufacturers.count
                manufacturers.append((name, pool.intern(folded), PackedKey.pack(folded)))
            }
        }

        var codeTable = RowTableBuilder<S.CodeColumn>()
        for table in FAACodeTables.all {
            for entry in table.entries {
                let row = codeTable.appendRow()
                codeTable[row, .table] = pool.intern(table.id)
                codeTable[row, .code] = pool.intern(entry.code)
                codeTable[row, .name] = pool.intern(entry.name)
            }
        }

        let sortedPool = Self.sortInBackground(&pool)

        // Registrations by N-number, stably. The packed 8-byte prefixes order them up to ties
        // between N-numbers that share those bytes, settled by final ids below.
        var registrationOrder = [UInt32](0..<UInt32(registrationKeys.count))
        var sortedKeys = registrationKeys
        registrationKeys = []
        RadixSort.sort(keys: &sortedKeys, values: &registrationOrder)

        let (poolBytes, remap) = sortedPool.finished()
        breakTies(in: &registrationOrder, keys: sortedKeys, remap: remap)

        // Manufacturers by folded name, then name; each one's models by model name, then row.
        var manufacturerOrder = [UInt32](0..<UInt32(manufacturers.count))
        var manufacturerSortKeys = manufacturers.map { UInt64(remap[Int($0.folded)]) << 32 | UInt64(remap[Int($0.name)]) }
        RadixSort.sort(keys: &manufacturerSortKeys, values: &manufacturerOrder)
        var rank = [UInt32](repeating: 0, count: manufacturers.count)
        for (position, index) in manufacturerOrder.enumerated() { rank[Int(index)] = UInt32(position) }
        var modelOrder = [UInt32](0..<UInt32(reference.models.count))
        var modelSortKeys = (0..<reference.models.count).map { row in
            UInt64(rank[manufacturerOfModel[row]]) << 32 | UInt64(remap[Int(modelTable[row, .model])])
        }
        RadixSort.sort(keys: &modelSortKeys, values: &modelOrder)
        var manufacturerTable = RowTableBuilder<S.ManufacturerColumn>()
        var manufacturerModels = RowTableBuilder<S.ManufacturerModelColumn>()
        var manufacturerKeys: [UInt64] = []
        var next = 0
        for (position, index) in manufacturerOrder.enumerated() {
            let first = next
            while next < modelOrder.count && modelSortKeys[next] >> 32 == UInt64(position) {
                let entry = manufacturerModels.appendRow()
                manufacturerModels[entry, .modelRow] = modelOrder[next]
                next += 1
            }
            let manufacturer = manufacturers[Int(index)]
            let row = manufacturerTable.appendRow()
            manufacturerTable[row, .foldedName] = remap[Int(manufacturer.folded)]  // final ids: not remapped again
            manufacturerTable[row, .name] = remap[Int(manufacturer.name)]
            manufacturerTable[row, .firstModel] = UInt32(first)
            manufacturerTable[row, .modelCount] = UInt32(next - first)
            manufacturerKeys.append(manufacturer.key)
        }
        modelTable.remapStrings(remap)
        engineTable.remapStrings(remap)
        codeTable.remapStrings(remap)
        codeTable.sort(by: [.table, .code])

        // Mode S addresses, each with the row its registration has in the sorted table.
        var modeS = RowTableBuilder<S.ModeSColumn>()
        let noAddress = S.RegistrationColumn.modeSHex.kind.absent
        for row in 0..<registrationOrder.count {
            let address = registrationTable[Int(registrationOrder[row]), .modeSHex]
            if address == noAddress { continue }
            let entry = modeS.appendRow()
            modeS[entry, .address] = address
            modeS[entry, .registrationRow] = UInt32(row)
        }
        modeS.sort(by: [.address, .registrationRow])

        var artifact = ArtifactBuilder(kind: S.kind)
        artifact.addSection(S.Section.strings, rows: remap.count, bytes: poolBytes)
        artifact.addSection(S.Section.models, rows: modelTable.count, bytes: modelTable.serialize())
        artifact.addSection(S.Section.modelKeys, rows: reference.modelKeys.count, bytes: KeyTable.serialize(reference.modelKeys))
        artifact.addSection(S.Section.manufacturers, rows: manufacturerTable.count, bytes: manufacturerTable.serialize())
        artifact.addSection(S.Section.manufacturerKeys, rows: manufacturerKeys.count, bytes: KeyTable.serialize(manufacturerKeys))
        artifact.addSection(S.Section.manufacturerModels, rows: manufacturerModels.count, bytes: manufacturerModels.serialize())
        artifact.addSection(S.Section.engines, rows: engineTable.count, bytes: engineTable.serialize())
        artifact.addSection(S.Section.engineKeys, rows: reference.engineKeys.count, bytes: KeyTable.serialize(reference.engineKeys))
        let registrationCount = registrationTable.count
        artifact.addSection(S.Section.registrations, rows: registrationCount,
                            bytes: registrationTable.serialize(order: registrationOrder, remap: remap))
        registrationTable = RowTableBuilder()
        artifact.addSection(S.Section.registrationKeys, rows: sortedKeys.count, bytes: KeyTable.serialize(sortedKeys))
        artifact.addSection(S.Section.modeS, rows: modeS.count, bytes: modeS.serialize())
        artifact.addSection(S.Section.codes, rows: codeTable.count, bytes: codeTable.serialize())

        let counts: [String: Int] = [
            "models": reference.models.count,
            "engines": reference.engines.count,
            "registrationsWithoutModel": withoutModel,
            "registrationsWithoutEngine": withoutEngine,
            "registrations": registrationCount,
            "manufacturers": manufacturerTable.count,
            "modeSAddresses": modeS.count,
            "strings": remap.count,
        ]
        return (artifact, counts)
    }

    /// Every string is in: sorts the pool on another thread, which gets its only copy (this
    /// one is left empty).
    private static func sortInBackground(_ pool: inout StringPoolBuilder) -> BackgroundTask<(bytes: [UInt8], remap: [UInt32])> {
        pool.dropLookupTable()
        let taken = pool
        pool = StringPoolBuilder(expectedStrings: 0)
        return BackgroundTask { taken.finish() }
    }

    /// Points every registration at its model and engine rows (by code); returns how many
    /// name a model code, and a non-empty engine code, that the reference data lacks.
    private mutating func linkRegistrations() -> (withoutModel: Int, withoutEngine: Int) {
        var withoutModel = 0, withoutEngine = 0
        for row in 0..<registrationTable.count {
            let modelCode = Int(registrationTable[row, .modelCode]), engineCode = Int(registrationTable[row, .engineCode])
            if modelCode < modelRowByCode.count, modelRowByCode[modelCode] != UInt32.max {
                registrationTable[row, .modelRow] = modelRowByCode[modelCode]
            } else {
                withoutModel += 1
            }
            if engineCode != 0 {
                if engineCode < engineRowByCode.count, engineRowByCode[engineCode] != UInt32.max {
                    registrationTable[row, .engineRow] = engineRowByCode[engineCode]
                } else {
                    withoutEngine += 1
                }
            }
        }
        return (withoutModel, withoutEngine)
    }

    /// `order` is sorted by packed N-number prefix; within each run of equal prefixes, orders
    /// the rows by their N-number's final string id, stably (equal N-numbers stay in row order).
    /// The result is the stable sort of the rows by N-number.
    private func breakTies(in order: inout [UInt32], keys: [UInt64], remap: [UInt32]) {
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] == keys[start] { end += 1 }
            if end - start > 1 {
                order[start..<end].sort { a, b in
                    let x = remap[Int(registrationTable[Int(a), .nNumber])], y = remap[Int(registrationTable[Int(b), .nNumber])]
                    return x != y ? x < y : a < b
                }
            }
            start = end
        }
    }

    private mutating func intern(_ code: FAACode?) -> UInt32 {
        code.map { pool.intern($0.raw) } ?? 0
    }
}

@inline(__always)
private func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 0x30...0x39: return UInt32(byte - 0x30)
    case 0x41...0x46: return UInt32(byte - 0x41 + 10)
    case 0x61...0x66: return UInt32(byte - 0x61 + 10)
    default: return nil
    }
}
