import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideCSV
import FieldGuideDiagnostics
import FieldGuideFAA
import FieldGuideWorkers

// A part of `AircraftArtifactBuilder`: one thread's stretch of the registrations, or the
// reference data, interned into a pool of its own.
extension AircraftArtifactBuilder {
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
        var pool: StringPoolBuilder
        /// The pool sorted, once it is (`sortStrings()`).
        private var sortedPool: (bytes: [UInt8], remap: [UInt32])?
        var registrations = RowTableBuilder<S.RegistrationColumn>()
        /// The packed N-number of every registration.
        var keys: [UInt64] = []
        /// (class id << 32 | operation codes id) → id of the decoded operation names.
        private var operationNames: [UInt64: UInt32] = [:]
        var reference: InternedReference?
        /// Whose owner name and street this part leaves out, and how many it left out.
        let redaction: OwnerRedaction
        private(set) var withheld = 0

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
        mutating func takeSortedStrings() -> (bytes: [UInt8], remap: [UInt32]) {
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
                // Summed in 64 bits, where a 32-bit value times at most 16 plus a digit cannot
                // overflow: the 32-bit bound is then one compare a digit, not a division.
                var n: UInt64 = 0
                for byte in bytes {
                    if let digit = hexDigit(byte), digit < radix {
                        n = n * UInt64(radix) + UInt64(digit)
                        if n <= UInt64(UInt32.max) { continue }
                    }
                    throw LocatedError(.badHandOff, file: NormalizedFAA.registrationsFile, line: record.line,
                                       message: "expected a number in column \(field), found \(record[field.rawValue])")
                }
                return UInt32(n)
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
        mutating func link(remap: [UInt32], models: RowsByCode, engines: RowsByCode) -> (withoutModel: Int, withoutEngine: Int) {
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

    /// The fields interned as they are, with their columns, in `registrations.csv` order; the
    /// approved operations come last (their column gets the decoded names instead).
    fileprivate static let internedFields: [(field: Int, column: S.RegistrationColumn)] = [
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
    fileprivate static func withhold(_ strings: UnsafeMutableBufferPointer<UnsafeRawBufferPointer>) {
        for index in withheldFields { strings[index] = UnsafeRawBufferPointer(start: nil, count: 0) }
        let zip = strings[zipField]
        let digits = zip.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        strings[zipField] = digits >= 5 ? UnsafeRawBufferPointer(rebasing: zip[0..<5]) : UnsafeRawBufferPointer(start: nil, count: 0)
    }

    fileprivate static let withheldFields = internedFields.indices.filter {
        [S.RegistrationColumn.name, .street, .street2, .otherNames].contains(internedFields[$0].column)
    }
    fileprivate static let zipField = internedFields.firstIndex { $0.column == .zip }!

    fileprivate static let dateColumns: [(field: Int, column: S.RegistrationColumn)] = [
        (F.lastActionDate.rawValue, .lastActionDate), (F.certificateIssueDate.rawValue, .certificateIssueDate),
        (F.airworthinessDate.rawValue, .airworthinessDate), (F.expirationDate.rawValue, .expirationDate),
    ]
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
