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
    typealias S = AircraftSchema
    typealias F = NormalizedFAA.RegistrationField

    /// The registry's as-of date written into `ASOF` (`yyyymmdd`, 0: none), once built.
    public private(set) var latestActionDate: UInt32 = 0
    /// Where `build()` stores the large sections as they are made (`SectionSpool`); nil keeps
    /// them in memory until the artifact is written.
    public var spool: SectionSpool?

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

    /// Adds one record of `registrations.csv` (the columns of `NormalizedFAA.RegistrationField`).
    public mutating func addRegistration(_ record: CSVRecord) throws {
        try parts[parts.count - 1].addRegistration(record)
    }

    /// Sorts and pools everything into the artifact's sections (`serialize()` or `write(to:)`
    /// them). Leaves the builder spent: build once.
    ///
    /// Each part's pool is sorted on a thread of its own (unless `Part.sortStrings()` sorted it
    /// already) and the pools are merged; each part's registrations then get their final
    /// string ids and links on a thread of their own. The large sections are then made on two
    /// other threads (the registry search's words; the text records, then the search's orders),
    /// while this one makes the Mode S index and the reference data's sections, then the
    /// summaries. `PRIV` records the redaction.
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

        // The large sections on three threads: the search's words on one, the text records and
        // then the search's orders on another, and the summaries on this one once its own small
        // sections are made. Each section goes into the spool as it is done. The summaries
        // followed the words on one thread until the twenty-seventh session, while this thread
        // waited: that thread then ran alone for the last 0.1-0.35 s (timed at full size), and
        // moving them here took `emit-aircraft` from 1.67 to 1.56 s (medians of 12 alternating
        // runs) for 7 MB more peak (159 → 166 MB). Made on four threads at once, their scratch
        // tables and results were the stage's peak (177-188 MB), for no less wall time.
        let words = BackgroundTask { [sortedRow, models = reference.models, poolBytes, spool] in
            Self.hold(RegistrySearchSections.words(pool: poolBytes, registrations: registrations, sortedRow: sortedRow, models: models), in: spool)
        }
        let textAndOrders = BackgroundTask { [registrationOrder, sortedRow, poolBytes, models = reference.models, engines = reference.engines, spool] in
            let text = TextRecordSections(pool: poolBytes, registrations: registrations, order: registrationOrder, models: models, engines: engines,
                                          spool: spool).sections
            return text + Self.hold(RegistrySearchSections.orders(registrations: registrations, sortedRow: sortedRow, models: models), in: spool)
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
        let (referenceSections, manufacturerCount) = Self.referenceSections(reference)
        for (tag, rows, bytes) in referenceSections { artifact.addSection(tag, rows: rows, bytes: bytes) }
        let summaries = Self.hold(RegistrationSummarySections(pool: poolBytes, registrations: registrations, order: registrationOrder,
                                                              keys: sortedKeys).sections, in: spool)
        for (tag, rows, payload) in textAndOrders.finished() + words.finished() + summaries { artifact.addSection(tag, rows: rows, payload) }
        poolBytes = []  // spooled, or held by the artifact: not by this function too
        // REGS (40 MB at full size) is serialized only now, when the search's scratch tables
        // and the summaries' growing buffer are gone: made beside them, it was part of the
        // stage's peak (massif: 216 MB then, 194 MB after, the peak now in the read phase).
        // The other threads had both cores meanwhile. Built last, it is written from memory: the
        // write follows at once, when the tables it was made from are gone (full size: 40 MB
        // that were stored and read back, and the write's header waited for the store).
        artifact.addSection(S.Section.registrations, rows: registrationOrder.count,
                            bytes: RowTableBuilder.serialize(registrations, order: registrationOrder), spooled: false)

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

    /// Sections built on a worker thread, each stored in `spool` now when it is large (`SectionSpool.hold(_:in:)`).
    private static func hold(_ sections: [(tag: FourCC, rows: Int, bytes: [UInt8])], in spool: SectionSpool?) -> [(tag: FourCC, rows: Int, payload: SectionPayload)] {
        sections.map { ($0.tag, $0.rows, SectionSpool.hold($0.bytes, in: spool)) }
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
        modeS.reserve(registrations.reduce(0) { $0 + $1.count })
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
        manufacturerTable.reserve(manufacturers.count)
        manufacturerModels.reserve(models.count)
        manufacturerKeys.reserveCapacity(manufacturers.count)
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
