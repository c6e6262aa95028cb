import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideCSV
import FieldGuideDiagnostics
import FieldGuideFAA
import FieldGuideWorkers

/// Builds the aircraft artifact's sections from normalized FAA records.
///
/// Models are sorted by code, manufacturers by folded name, registrations by N-number and the
/// Mode S index by address; strings are pooled once; each keyed table gets a parallel section
/// of packed keys; the registry search gets sorted tables of its own (`RegistrySearchSections`).
/// The bytes depend only on the records, never on their arrival order, nor on whether the
/// reference data comes before or after the registrations.
///
/// A builder made with a `redaction` (`OwnerRedaction.individuals`) leaves out the owner name,
/// co-owner names and street lines of the registrant types it names, before they reach the
/// string pool, and cuts their ZIP code to five digits.
///
/// Registrations are taken as `registrations.csv` records and interned from their bytes: the
/// 316K-row MASTER never becomes Swift strings here. Their links to model and engine rows are
/// resolved in `build()`, so the reference files can be read on another thread meanwhile.
///
/// They can also come in `Part`s, stretches of the file each filled on a thread of its own
/// with a string pool of its own; `build()` merges the pools, and the bytes are those of one
/// builder given every record in file order.
///
/// ```swift
/// var builder = AircraftArtifactBuilder(expectedRegistrations: 316_000)
/// try NormalizedFAA.readRegistrationRecords(path) { try builder.addRegistration($0) }
/// builder.add(AircraftArtifactBuilder.ReferenceData(models: models, engines: engines))
/// try builder.build().artifact.write(to: "output/aircraft.fgb")
/// ```
public struct AircraftArtifactBuilder {
    fileprivate typealias S = AircraftSchema
    fileprivate typealias F = NormalizedFAA.RegistrationField

    /// The registry's as-of date written into `ASOF` (`yyyymmdd`, 0: none), once built.
    public private(set) var latestActionDate: UInt32 = 0
    /// Where `build()` stores the large sections as they are made (`SectionSpool`); nil keeps
    /// them in memory until the artifact is written.
    public var spool: SectionSpool?

    /// A stretch of `registrations.csv`, or the reference data, or both, with the strings they
    /// intern in a pool of their own: what one thread fills while others fill the other parts.
    ///
    /// ```swift
    /// var halves = [AircraftArtifactBuilder.Part(expectedRegistrations: 158_000),
    ///               AircraftArtifactBuilder.Part(expectedRegistrations: 158_000)]
    /// try halves[0].addRegistration(record)    // the first half's records, on one thread
    /// try halves[1].addRegistration(record)    // the second half's, on another
    /// var reference = AircraftArtifactBuilder.Part(expectedModels: 94_000)
    /// reference.add(referenceData)             // on a third
    /// var builder = AircraftArtifactBuilder(parts: halves + [reference])
    /// ```
    public struct Part: Sendable {
        fileprivate var pool: StringPoolBuilder
        /// The pool sorted, once it is (`sortStrings()`).
        private var sortedPool: (bytes: [UInt8], remap: [UInt32])?
        fileprivate var registrations = RowTableBuilder<S.RegistrationColumn>()
        /// The packed N-number of every registration.
        fileprivate var keys: [UInt64] = []
        /// (class id << 32 | operation codes id) → id of the decoded operation names.
        private var operationNames: [UInt64: UInt32] = [:]
        fileprivate var reference: InternedReference?
        /// Whose owner name and street this part leaves out, and how many it left out.
        fileprivate let redaction: OwnerRedaction
        fileprivate private(set) var withheld = 0

        /// `expectedRegistrations` and `expectedModels` (for a part that takes the reference data)
        /// pre-size the tables: the hand-off's row counts, or estimates. `redaction` withholds
        /// the owners of some registrant types (every part of a builder takes the same).
        public init(expectedRegistrations: Int = 0, expectedModels: Int = 0, redaction: OwnerRedaction = .none) {
            self.redaction = redaction
            // About six distinct strings and 60 bytes of text per registration, two strings per
            // model, measured on full-size data.
            pool = StringPoolBuilder(expectedStrings: expectedModels * 2 + expectedRegistrations * 6,
                                     expectedBytes: expectedModels * 40 + expectedRegistrations * 64)
            registrations.reserve(expectedRegistrations)
            keys.reserveCapacity(expectedRegistrations)
        }

        /// Adds the models and engines: to one part, once, before, between or after its
        /// registrations.
        public mutating func add(_ reference: ReferenceData) {
            precondition(self.reference == nil, "reference data added twice")
            precondition(sortedPool == nil, "reference data added to a part whose strings are sorted")
            self.reference = InternedReference(reference, into: &pool)
        }

        /// Sorts the part's strings now, on the calling thread: a thread done with its part can
        /// sort it while others still fill theirs. Nothing can be added to the part afterwards;
        /// `build()` sorts the strings of the parts that were not.
        public mutating func sortStrings() {
            if sortedPool == nil { sortedPool = pool.finishReleasingTables() }
        }

        /// The sorted pool, which the part gives up (its only copy, so that it can be rewritten in place).
        fileprivate mutating func takeSortedStrings() -> (bytes: [UInt8], remap: [UInt32]) {
            sortStrings()
            let sorted = sortedPool!
            sortedPool = nil
            return sorted
        }

        /// Adds one record of `registrations.csv` (the columns of `NormalizedFAA.RegistrationField`).
        public mutating func addRegistration(_ record: CSVRecord) throws {
            precondition(sortedPool == nil, "a registration added to a part whose strings are sorted")
            let width = registrations.rowWidth
            try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: width) { memory in
                let row = registrations.rowBuffer(in: memory)
                try record.withUnsafeFields { fields in try fill(row, fields, record) }
                registrations.append(row)
            }
        }

        private mutating func fill(_ row: RowBuffer<S.RegistrationColumn>, _ fields: UnsafeCSVFields, _ record: CSVRecord) throws {
            func number(_ field: F, radix: UInt32 = 10) throws -> UInt32? {
                let bytes = fields[field.rawValue]
                if bytes.isEmpty { return nil }
                var n: UInt32 = 0
                for byte in bytes {
                    guard let digit = hexDigit(byte), digit < radix, n <= (UInt32.max - digit) / radix else {
                        throw LocatedError(.badHandOff, file: NormalizedFAA.registrationsFile, line: record.line,
                                           message: "expected a number in column \(field), found \(record[field.rawValue])")
                    }
                    n = n * radix + digit
                }
                return n
            }

            // All text fields in one batch: on a pool of millions of strings their lookups are cache
            // misses, and the batch lets them overlap.
            let interned = AircraftArtifactBuilder.internedFields
            // On the stack: this runs once a registration.
            let operations = withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: interned.count) { strings in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: interned.count) { ids in
                    for (i, entry) in interned.enumerated() { strings[i] = fields[entry.field] }
                    if let type = fields[F.registrantType.rawValue].first, fields[F.registrantType.rawValue].count == 1,
                       redaction.withholds(registrantTypeDigit: type) {
                        AircraftArtifactBuilder.withhold(strings)
                        withheld += 1
                    }
                    pool.intern(UnsafeBufferPointer(strings), into: ids)
                    for (i, entry) in interned.enumerated().dropLast() { row[entry.column] = ids[i] }
                    return ids[interned.count - 1]
                }
            }
            keys.append(PackedKey.pack(fields[F.nNumber.rawValue]))
            if let year = try number(.yearManufactured) { row[.yearManufactured] = min(year, 65_534) }
            for (field, column) in AircraftArtifactBuilder.dateColumns {
                let bytes = fields[field]
                if bytes.isEmpty { continue }
                var n: UInt32 = 0, digits = 0
                for byte in bytes where byte != UInt8(ascii: "-") {
                    guard byte >= 0x30, byte <= 0x39 else { digits = -1; break }
                    n = n &* 10 &+ UInt32(byte - 0x30)
                    digits += 1
                }
                guard digits == 8 else {
                    throw LocatedError(.badHandOff, file: NormalizedFAA.registrationsFile, line: record.line,
                                       message: "expected a date YYYY-MM-DD in column \(F(rawValue: field)!), found \(record[field])")
                }
                row[column] = n
            }
            let classCode = row[.airworthinessClass]
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

        /// Puts final string ids in the registrations (`remap` from this part's provisional ones)
        /// and points each at its model and engine rows; returns how many name a model code, and
        /// a non-empty engine code, that has none.
        fileprivate mutating func link(remap: [UInt32], models: RowsByCode, engines: RowsByCode) -> (withoutModel: Int, withoutEngine: Int) {
            registrations.remapStrings(remap)
            var withoutModel = 0, withoutEngine = 0
            for row in 0..<registrations.count {
                if let model = models.row(registrations[row, .modelCode]) {
                    registrations[row, .modelRow] = model
                } else {
                    withoutModel += 1
                }
                let engineCode = registrations[row, .engineCode]
                if engineCode != 0 {
                    if let engine = engines.row(engineCode) {
                        registrations[row, .engineRow] = engine
                    } else {
                        withoutEngine += 1
                    }
                }
            }
            return (withoutModel, withoutEngine)
        }
    }

    /// The reference data with its strings in one part's pool: the model, engine and code tables,
    /// and the manufacturers with their folded names.
    fileprivate struct InternedReference: Sendable {
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
    fileprivate struct RowsByCode: Sendable {
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

    /// The parts, in file order: registrations are added to the last one.
    private var parts: [Part]

    /// `expectedRegistrations` and `expectedModels` pre-size the tables (the hand-off's row
    /// counts, or estimates); `redaction` withholds the owners of some registrant types.
    public init(expectedRegistrations: Int = 0, expectedModels: Int = 0, redaction: OwnerRedaction = .none) {
        parts = [Part(expectedRegistrations: expectedRegistrations, expectedModels: expectedModels, redaction: redaction)]
    }

    /// A builder that has its reference data from the start, from typed records (the tests'
    /// way in; the emit stage reads the hand-off's bytes).
    package init(models: [AircraftModel], engines: [EngineModel], expectedRegistrations: Int = 0, redaction: OwnerRedaction = .none) {
        self.init(expectedRegistrations: expectedRegistrations, expectedModels: models.count, redaction: redaction)
        add(ReferenceData(models: models, engines: engines))
    }

    /// A builder of parts filled apart: their registrations in file order, the reference data
    /// in one of them at most (else it comes with `add(_:)`).
    public init(parts: [Part]) {
        precondition(!parts.isEmpty, "a builder needs a part")
        precondition(parts.filter { $0.reference != nil }.count <= 1, "reference data added twice")
        precondition(Set(parts.map(\.redaction)).count == 1, "parts of one builder withhold the same owners")
        self.parts = parts
    }

    /// Adds the models and engines, once; before, between or after the registrations.
    public mutating func add(_ reference: ReferenceData) {
        precondition(!parts.contains { $0.reference != nil }, "reference data added twice")
        parts[parts.count - 1].add(reference)
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
    /// Leaves out an owner's name, co-owner names and street lines, and cuts the ZIP code to
    /// its first five digits (a ZIP+4, or a postcode that is not five digits, identifies a few
    /// addresses): `strings` are a registration's `internedFields`.
    private static func withhold(_ strings: UnsafeMutableBufferPointer<UnsafeRawBufferPointer>) {
        for index in withheldFields { strings[index] = UnsafeRawBufferPointer(start: nil, count: 0) }
        let zip = strings[zipField]
        let digits = zip.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        strings[zipField] = digits >= 5 ? UnsafeRawBufferPointer(rebasing: zip[0..<5]) : UnsafeRawBufferPointer(start: nil, count: 0)
    }

    private static let withheldFields = internedFields.indices.filter {
        [S.RegistrationColumn.name, .street, .street2, .otherNames].contains(internedFields[$0].column)
    }
    private static let zipField = internedFields.firstIndex { $0.column == .zip }!

    private static let dateColumns: [(field: Int, column: S.RegistrationColumn)] = [
        (F.lastActionDate.rawValue, .lastActionDate), (F.certificateIssueDate.rawValue, .certificateIssueDate),
        (F.airworthinessDate.rawValue, .airworthinessDate), (F.expirationDate.rawValue, .expirationDate),
    ]

    /// Adds one record of `registrations.csv` (the columns of `NormalizedFAA.RegistrationField`).
    public mutating func addRegistration(_ record: CSVRecord) throws {
        try parts[parts.count - 1].addRegistration(record)
    }

    /// Sorts and pools everything into the artifact's sections (`serialize()` or `write(to:)`
    /// them). Leaves the builder spent: build once.
    ///
    /// Each part's pool is sorted on a thread of its own (unless `Part.sortStrings()` sorted it
    /// already) and the pools are merged; each part's registrations then get their final
    /// string ids and links on a thread of their own, and the reference data's sections and the
    /// registry search's (`RegistrySearchSections`) are made on two other threads while this
    /// one writes the registrations and the Mode S index. `PRIV` records the redaction.
    public mutating func build() -> (artifact: ArtifactBuilder, counts: [String: Int]) {
        if !parts.contains(where: { $0.reference != nil }) { add(ReferenceData(models: [], engines: [])) }
        var parts = self.parts
        self.parts = []
        let redaction = parts[0].redaction, withheld = parts.map(\.withheld).reduce(0, +)

        // Final string ids from here on: comparing two compares their strings.
        let sortedPools = Concurrently.update(&parts) { _, part in part.takeSortedStrings() }.map { $0.get() }
        let (merged, remaps) = StringPoolBuilder.merge(consume sortedPools)
        var poolBytes = consume merged
        let strings = poolBytes.withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self).littleEndian) }
        // The pool is final: its checksum runs meanwhile (`ArtifactBuilder` starts it).
        var artifact = ArtifactBuilder(kind: S.kind, spool: spool)
        artifact.addSection(S.Section.strings, rows: strings, bytes: poolBytes)
        let referencePart = parts.firstIndex { $0.reference != nil }!
        var reference = parts[referencePart].reference!
        parts[referencePart].reference = nil
        reference.remapStrings(remaps[referencePart])
        let models = RowsByCode(reference.models, .code), engines = RowsByCode(reference.engines, .code)
        let unlinked = Concurrently.update(&parts) { index, part in
            part.link(remap: remaps[index], models: models, engines: engines)
        }.map { $0.get() }
        let withoutModel = unlinked.map(\.withoutModel).reduce(0, +), withoutEngine = unlinked.map(\.withoutEngine).reduce(0, +)

        // Registrations by N-number, stably. The packed 8-byte prefixes order them up to ties
        // between N-numbers that share those bytes, settled by final ids below. Rows are numbered
        // across the parts, in file order.
        let registrations = parts.map(\.registrations)
        var sortedKeys = parts.count == 1 ? parts[0].keys : Array(parts.map(\.keys).joined())
        parts = []
        let firstRows = registrations.reduce(into: [0]) { starts, table in starts.append(starts.last! + table.count) }
        func registration(_ row: Int, _ column: S.RegistrationColumn) -> UInt32 {
            var part = 0
            while row >= firstRows[part + 1] { part += 1 }
            return registrations[part][row - firstRows[part], column]
        }
        var registrationOrder = [UInt32](0..<UInt32(sortedKeys.count))
        RadixSort.sort(keys: &sortedKeys, values: &registrationOrder)
        Self.breakTies(in: &registrationOrder, keys: sortedKeys) { registration(Int($0), .nNumber) }
        // The row each registration has in the sorted table.
        var sortedRow = [UInt32](repeating: 0, count: registrationOrder.count)
        for (row, old) in registrationOrder.enumerated() { sortedRow[Int(old)] = UInt32(row) }

        // The reference data's sections, the registry search's and the registration summaries
        // (`RegistrationSummarySections`) on other threads meanwhile.
        let referenceSections = BackgroundTask { [reference] in Self.referenceSections(reference) }
        let searchSections = BackgroundTask { [sortedRow, models = reference.models, poolBytes] in
            RegistrySearchSections(pool: poolBytes, registrations: registrations, sortedRow: sortedRow, models: models).sections
        }
        let summarySections = BackgroundTask { [registrationOrder, sortedKeys, poolBytes] in
            RegistrationSummarySections(pool: poolBytes, registrations: registrations, order: registrationOrder, keys: sortedKeys).sections
        }
        let modeS = Self.modeSIndex(registrations, sortedRow: sortedRow)
        artifact.addSection(S.Section.registrationKeys, rows: sortedKeys.count, bytes: KeyTable.serialize(sortedKeys))
        artifact.addSection(S.Section.modeS, rows: modeS.count, bytes: modeS.serialize())
        var privacy = RowTableBuilder<S.PrivacyColumn>()
        privacy[privacy.appendRow(), .withheldRegistrantTypes] = redaction.withheldRegistrantTypes
        artifact.addSection(S.Section.privacy, rows: 1, bytes: privacy.serialize())
        var asOf = RowTableBuilder<S.AsOfColumn>()
        latestActionDate = Self.latestActionDate(registrations)
        asOf[asOf.appendRow(), .date] = latestActionDate
        artifact.addSection(S.Section.asOf, rows: 1, bytes: asOf.serialize())
        let (sections, manufacturerCount) = referenceSections.finished()
        for section in sections + searchSections.finished() + summarySections.finished() { artifact.addSection(section.tag, rows: section.rows, bytes: section.bytes) }
        poolBytes = []  // spooled, or held by the artifact: not by this function too
        // REGS (40 MB at full size) is serialized only now, when the search's scratch tables
        // and the summaries' growing buffer are gone: made beside them, it was part of the
        // stage's peak (massif: 216 MB then, 194 MB after, the peak now in the read phase).
        // The other threads had both cores meanwhile.
        artifact.addSection(S.Section.registrations, rows: registrationOrder.count,
                            bytes: RowTableBuilder.serialize(registrations, order: registrationOrder))

        var counts: [String: Int] = [
            "models": reference.models.count,
            "engines": reference.engines.count,
            "registrationsWithoutModel": withoutModel,
            "registrationsWithoutEngine": withoutEngine,
            "registrations": registrationOrder.count,
            "manufacturers": manufacturerCount,
            "modeSAddresses": modeS.count,
            "strings": strings,
        ]
        if !redaction.isNone { counts["ownersWithheld"] = withheld }
        return (artifact, counts)
    }

    /// The registry's as-of date: the latest last-action date of any registration
    /// (`yyyymmdd`), 0 when none has one. Read from the data, so identical inputs give
    /// identical artifacts.
    private static func latestActionDate(_ registrations: [RowTableBuilder<S.RegistrationColumn>]) -> UInt32 {
        let absent = S.RegistrationColumn.lastActionDate.kind.absent
        var latest: UInt32 = 0
        for table in registrations {
            for row in 0..<table.count {
                let date = table[row, .lastActionDate]
                if date != absent, date > latest { latest = date }
            }
        }
        return latest
    }

    /// The Mode S index: every registration's address with its row in the sorted table, by
    /// address then row.
    private static func modeSIndex(_ registrations: [RowTableBuilder<S.RegistrationColumn>], sortedRow: [UInt32]) -> RowTableBuilder<S.ModeSColumn> {
        var modeS = RowTableBuilder<S.ModeSColumn>()
        let noAddress = S.RegistrationColumn.modeSHex.kind.absent
        var first = 0
        for table in registrations {
            for row in 0..<table.count where table[row, .modeSHex] != noAddress {
                let entry = modeS.appendRow()
                modeS[entry, .address] = table[row, .modeSHex]
                modeS[entry, .registrationRow] = sortedRow[first + row]
            }
            first += table.count
        }
        modeS.sort(by: [.address, .registrationRow])
        return modeS
    }

    /// The sections of the reference data (final string ids): models, engines and codes, and
    /// the manufacturers by folded name, then name, each one's models by model name, then row.
    /// Returns them with the number of manufacturers.
    private static func referenceSections(_ reference: InternedReference) -> (sections: [(tag: FourCC, rows: Int, bytes: [UInt8])], manufacturers: Int) {
        let manufacturers = reference.manufacturers
        var manufacturerOrder = [UInt32](0..<UInt32(manufacturers.count))
        var manufacturerSortKeys = manufacturers.map { UInt64($0.folded) << 32 | UInt64($0.name) }
        RadixSort.sort(keys: &manufacturerSortKeys, values: &manufacturerOrder)
        var rank = [UInt32](repeating: 0, count: manufacturers.count)
        for (position, index) in manufacturerOrder.enumerated() { rank[Int(index)] = UInt32(position) }
        let models = reference.models
        var modelOrder = [UInt32](0..<UInt32(models.count))
        var modelSortKeys = (0..<models.count).map { row in
            UInt64(rank[reference.manufacturerOfModel[row]]) << 32 | UInt64(models[row, .model])
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
            manufacturerTable[row, .foldedName] = manufacturer.folded
            manufacturerTable[row, .name] = manufacturer.name
            manufacturerTable[row, .firstModel] = UInt32(first)
            manufacturerTable[row, .modelCount] = UInt32(next - first)
            manufacturerKeys.append(manufacturer.key)
        }
        var codes = reference.codes
        codes.sort(by: [.table, .code])
        return ([
            (S.Section.models, models.count, models.serialize()),
            (S.Section.modelKeys, reference.modelKeys.count, KeyTable.serialize(reference.modelKeys)),
            (S.Section.manufacturers, manufacturerTable.count, manufacturerTable.serialize()),
            (S.Section.manufacturerKeys, manufacturerKeys.count, KeyTable.serialize(manufacturerKeys)),
            (S.Section.manufacturerModels, manufacturerModels.count, manufacturerModels.serialize()),
            (S.Section.engines, reference.engines.count, reference.engines.serialize()),
            (S.Section.engineKeys, reference.engineKeys.count, KeyTable.serialize(reference.engineKeys)),
            (S.Section.codes, codes.count, codes.serialize()),
        ], manufacturerTable.count)
    }

    /// `order` is sorted by packed N-number prefix; within each run of equal prefixes, orders
    /// the rows by their N-number's final string id (`nNumber(row)`), stably (equal N-numbers
    /// stay in row order). The result is the stable sort of the rows by N-number.
    private static func breakTies(in order: inout [UInt32], keys: [UInt64], nNumber: (UInt32) -> UInt32) {
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] == keys[start] { end += 1 }
            if end - start > 1 {
                order[start..<end].sort { a, b in
                    let x = nNumber(a), y = nNumber(b)
                    return x != y ? x < y : a < b
                }
            }
            start = end
        }
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
