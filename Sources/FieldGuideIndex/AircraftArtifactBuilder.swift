import FieldGuideArtifact
import FieldGuideFAA

/// Builds the aircraft artifact's sections from normalized FAA records.
///
/// Models are sorted by code, manufacturers by folded name, registrations by N-number and the
/// Mode S index by address; strings are pooled once. The bytes depend only on the records,
/// never on their arrival order, so identical inputs give identical artifacts.
///
/// ```swift
/// var builder = AircraftArtifactBuilder(models: models, engines: engines)
/// try NormalizedFAA.readRegistrations(path) { builder.add($0) }
/// let bytes = builder.build().bytes
/// ```
public struct AircraftArtifactBuilder {
    private typealias S = AircraftSchema
    private var pool = StringPoolBuilder()
    private var modelTable = RowTableBuilder<S.ModelColumn>()
    private var engineTable = RowTableBuilder<S.EngineColumn>()
    private var registrationTable = RowTableBuilder<S.RegistrationColumn>()
    private let modelRowByCode: [String: UInt32]
    private let engineRowByCode: [String: UInt32]
    private let sortedModels: [AircraftModel]

    /// Statistics of the build, for the manifest.
    public private(set) var counts: [String: Int] = [:]

    public init(models: [AircraftModel], engines: [EngineModel]) {
        let models = models.sorted { $0.code.utf8.lexicographicallyPrecedes($1.code.utf8) }
        let engines = engines.sorted { $0.code.utf8.lexicographicallyPrecedes($1.code.utf8) }
        sortedModels = models
        var modelRows: [String: UInt32] = [:]
        for (row, model) in models.enumerated() { modelRows[model.code] = UInt32(row) }
        var engineRows: [String: UInt32] = [:]
        for (row, engine) in engines.enumerated() { engineRows[engine.code] = UInt32(row) }
        modelRowByCode = modelRows
        engineRowByCode = engineRows

        for m in models {
            var row = modelTable.newRow()
            row[.code] = pool.intern(m.code)
            row[.manufacturer] = pool.intern(m.manufacturer)
            row[.model] = pool.intern(m.model)
            row[.aircraftType] = intern(m.aircraftType)
            row[.engineType] = intern(m.engineType)
            row[.category] = intern(m.category)
            row[.builderCertification] = intern(m.builderCertification)
            if let n = m.engineCount { row[.engineCount] = UInt32(min(n, 254)) }
            if let n = m.seatCount { row[.seatCount] = UInt32(min(n, 65_534)) }
            row[.weightClass] = intern(m.weightClass)
            if let n = m.cruiseSpeedMPH { row[.cruiseSpeed] = UInt32(min(n, 65_534)) }
            row[.typeCertificateDataSheet] = pool.intern(m.typeCertificateDataSheet)
            row[.typeCertificateHolder] = pool.intern(m.typeCertificateHolder)
            modelTable.append(row)
        }
        for e in engines {
            var row = engineTable.newRow()
            row[.code] = pool.intern(e.code)
            row[.manufacturer] = pool.intern(e.manufacturer)
            row[.model] = pool.intern(e.model)
            row[.engineType] = intern(e.engineType)
            if let n = e.horsepower { row[.horsepower] = UInt32(n) }
            if let n = e.thrustPounds { row[.thrust] = UInt32(n) }
            engineTable.append(row)
        }
        counts["models"] = models.count
        counts["engines"] = engines.count
    }

    /// Adds one registration.
    public mutating func add(_ r: Registration) {
        let modelRow = modelRowByCode[r.modelCode]
        let engineRow = r.engineCode.isEmpty ? nil : engineRowByCode[r.engineCode]
        if modelRow == nil { counts["registrationsWithoutModel", default: 0] += 1 }
        if engineRow == nil && !r.engineCode.isEmpty { counts["registrationsWithoutEngine", default: 0] += 1 }
        let operations = r.airworthiness.operations.map { $0.name ?? $0.raw }.joined(separator: String(S.listSeparator))
        var row = registrationTable.newRow()
        row[.nNumber] = pool.intern(r.nNumber)
        row[.serialNumber] = pool.intern(r.serialNumber)
        row[.modelCode] = pool.intern(r.modelCode)
        row[.engineCode] = pool.intern(r.engineCode)
        if let modelRow { row[.modelRow] = modelRow }
        if let engineRow { row[.engineRow] = engineRow }
        if let year = r.yearManufactured { row[.yearManufactured] = UInt32(min(year, 65_534)) }
        row[.registrantType] = intern(r.registrantType)
        row[.name] = pool.intern(r.name)
        row[.street] = pool.intern(r.street)
        row[.street2] = pool.intern(r.street2)
        row[.city] = pool.intern(r.city)
        row[.state] = pool.intern(r.state)
        row[.zip] = pool.intern(r.zip)
        row[.region] = intern(r.region)
        row[.county] = pool.intern(r.county)
        row[.country] = pool.intern(r.country)
        if let d = r.lastActionDate { row[.lastActionDate] = UInt32(d.yyyymmdd) }
        if let d = r.certificateIssueDate { row[.certificateIssueDate] = UInt32(d.yyyymmdd) }
        row[.certification] = pool.intern(r.airworthiness.certification)
        row[.airworthinessClass] = intern(r.airworthiness.classification)
        row[.approvedOperations] = pool.intern(operations)
        row[.aircraftType] = intern(r.aircraftType)
        row[.engineType] = intern(r.engineType)
        row[.status] = intern(r.status)
        if let address = r.modeS { row[.modeSHex] = address }
        row[.fractionalOwner] = r.fractionalOwner ? 1 : 0
        if let d = r.airworthinessDate { row[.airworthinessDate] = UInt32(d.yyyymmdd) }
        row[.otherNames] = pool.intern(r.otherNames.joined(separator: String(S.listSeparator)))
        if let d = r.expirationDate { row[.expirationDate] = UInt32(d.yyyymmdd) }
        row[.uniqueID] = pool.intern(r.uniqueID)
        row[.kitManufacturer] = pool.intern(r.kitManufacturer)
        row[.kitModel] = pool.intern(r.kitModel)
        registrationTable.append(row)
    }

    /// Sorts, pools and serializes everything into the artifact's bytes.
    public consuming func build() -> (bytes: [UInt8], counts: [String: Int]) {
        // Manufacturers: group model rows by manufacturer name, sorted by folded name.
        var byManufacturer: [String: [Int]] = [:]
        for (row, model) in sortedModels.enumerated() { byManufacturer[model.manufacturer, default: []].append(row) }
        let manufacturerNames = byManufacturer.keys.sorted {
            let a = NameFolding.fold($0), b = NameFolding.fold($1)
            return a == b ? $0.utf8.lexicographicallyPrecedes($1.utf8) : a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        var manufacturerTable = RowTableBuilder<S.ManufacturerColumn>()
        var manufacturerModels = RowTableBuilder<S.ManufacturerModelColumn>()
        for name in manufacturerNames {
            let rows = byManufacturer[name]!.sorted {
                let a = sortedModels[$0], b = sortedModels[$1]
                return a.model == b.model ? $0 < $1 : a.model.utf8.lexicographicallyPrecedes(b.model.utf8)
            }
            let first = UInt32(manufacturerModels.count)
            for modelRow in rows {
                var entry = manufacturerModels.newRow()
                entry[.modelRow] = UInt32(modelRow)
                manufacturerModels.append(entry)
            }
            var row = manufacturerTable.newRow()
            row[.foldedName] = pool.intern(NameFolding.fold(name))
            row[.name] = pool.intern(name)
            row[.firstModel] = first
            row[.modelCount] = UInt32(rows.count)
            manufacturerTable.append(row)
        }

        var codeTable = RowTableBuilder<S.CodeColumn>()
        for table in FAACodeTables.all {
            for entry in table.entries {
                var row = codeTable.newRow()
                row[.table] = pool.intern(table.id)
                row[.code] = pool.intern(entry.code)
                row[.name] = pool.intern(entry.name)
                codeTable.append(row)
            }
        }

        let (poolBytes, remap) = pool.finish()
        modelTable.remapStrings(remap)
        engineTable.remapStrings(remap)
        registrationTable.remapStrings(remap)
        manufacturerTable.remapStrings(remap)
        codeTable.remapStrings(remap)
        registrationTable.sort(by: [.nNumber])
        codeTable.sort(by: [.table, .code])

        var modeS = RowTableBuilder<S.ModeSColumn>()
        for (row, values) in registrationTable.rows.enumerated() {
            let address = values[S.RegistrationColumn.modeSHex.rawValue]
            if address != S.RegistrationColumn.modeSHex.kind.absent {
                var entry = modeS.newRow()
                entry[.address] = address
                entry[.registrationRow] = UInt32(row)
                modeS.append(entry)
            }
        }
        modeS.sort(by: [.address, .registrationRow])

        var artifact = ArtifactBuilder(kind: S.kind)
        artifact.addSection(S.Section.strings, rows: remap.count, bytes: poolBytes)
        artifact.addSection(S.Section.models, rows: modelTable.count, bytes: modelTable.serialize())
        artifact.addSection(S.Section.manufacturers, rows: manufacturerTable.count, bytes: manufacturerTable.serialize())
        artifact.addSection(S.Section.manufacturerModels, rows: manufacturerModels.count, bytes: manufacturerModels.serialize())
        artifact.addSection(S.Section.engines, rows: engineTable.count, bytes: engineTable.serialize())
        artifact.addSection(S.Section.registrations, rows: registrationTable.count, bytes: registrationTable.serialize())
        artifact.addSection(S.Section.modeS, rows: modeS.count, bytes: modeS.serialize())
        artifact.addSection(S.Section.codes, rows: codeTable.count, bytes: codeTable.serialize())

        var counts = self.counts
        counts["registrations"] = registrationTable.count
        counts["manufacturers"] = manufacturerTable.count
        counts["modeSAddresses"] = modeS.count
        counts["strings"] = remap.count
        counts["registrationsWithoutModel"] = counts["registrationsWithoutModel"] ?? 0
        counts["registrationsWithoutEngine"] = counts["registrationsWithoutEngine"] ?? 0
        return (artifact.serialize(), counts)
    }

    private mutating func intern(_ code: FAACode?) -> UInt32 {
        code.map { pool.intern($0.raw) } ?? 0
    }
}
