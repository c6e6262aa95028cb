import FieldGuideArtifact
import FieldGuideDiagnostics

/// A `RegistrationQuery` resolved against the artifact's search sections: for each filter, the
/// stretches of a sorted index that hold its registrations (with their number) and the test a
/// registration must pass. The filter with the fewest rows drives; the others test its rows.
struct RegistrySearchPlan {
    typealias S = AircraftSchema

    struct Filter {
        /// The index whose `ranges` hold the filter's `REGS` rows.
        let table: RowTable<S.RegistrationRowColumn>
        let ranges: [Range<Int>]
        /// Rows in `ranges`, repeats included.
        let estimate: Int
        /// True when the rows of `ranges` are exactly the filter's matches (no test needed when it drives).
        let exact: Bool
        let test: (Int) -> Bool
    }

    private let registrations: RowTable<S.RegistrationColumn>
    private(set) var filters: [Filter] = []
    /// `MODL` rows the model filter matched.
    private(set) var models: [Int] = []
    /// Set when a filter can match nothing (a state or serial number the artifact never holds).
    private var matchesNothing = false

    /// The filter with the fewest rows, or nil when nothing can match.
    var driver: Int? {
        matchesNothing ? nil : filters.indices.min { filters[$0].estimate < filters[$1].estimate }
    }

    init(query: RegistrationQuery, bundle: AircraftBundle, search: RegistrySearchTables) throws(LocatedError) {
        registrations = bundle.registrations
        let given = [("owner", query.owner), ("model", query.model), ("state", query.state), ("serial", query.serialNumber)]
        guard given.contains(where: { $0.1 != nil }) else {
            throw AircraftBundle.usage("query", "no filter", expected: "at least one of owner, model, state, serial", found: "none")
        }
        for case let (field, text?) in given where text.utf8.count > RegistrationQuery.maxLength {
            throw AircraftBundle.usage(field, "too long", expected: "at most \(RegistrationQuery.maxLength) bytes", found: "\(text.utf8.count) bytes")
        }
        if let owner = query.owner { try addOwner(owner, bundle, search) }
        if let model = query.model { try addModel(model, bundle, search) }
        if let state = query.state { try addState(state, bundle, search) }
        if let serial = query.serialNumber { try addSerial(serial, bundle, search) }
    }

    // MARK: Filters

    private mutating func addOwner(_ text: String, _ bundle: AircraftBundle, _ search: RegistrySearchTables) throws(LocatedError) {
        let words = RegistrySearchFolding.words(text).map { Array($0.utf8) }
        guard !words.isEmpty else { throw AircraftBundle.usage("owner", "nothing to search for", expected: "a word of letters or digits", found: "\"\(text)\"") }
        guard words.count <= RegistrationQuery.maxOwnerWords else {
            throw AircraftBundle.usage("owner", "too many words", expected: "at most \(RegistrationQuery.maxOwnerWords)", found: String(words.count))
        }
        // The word whose prefix has the fewest registrations drives; the name test checks every word.
        var best: (ranges: [Range<Int>], estimate: Int)?
        for word in words {
            var ranges: [Range<Int>] = [], estimate = 0
            for entry in search.prefixRange(search.ownerWords, .word, word) {
                let first = Int(search.ownerWords.value(entry, .firstPosting))
                let upper = min(first + Int(search.ownerWords.value(entry, .postingCount)), search.ownerPostings.count)
                let lower = min(first, upper)
                if lower < upper { ranges.append(lower..<upper); estimate += upper - lower }
            }
            if best == nil || estimate < best!.estimate { best = (ranges, estimate) }
        }
        let strings = bundle.strings, registrations = bundle.registrations
        let all = UInt32(1) << UInt32(words.count) - 1
        filters.append(Filter(table: search.ownerPostings, ranges: best!.ranges, estimate: best!.estimate, exact: words.count == 1) { row in
            var matched: UInt32 = 0
            RegistrySearchFolding.forEachWord(in: strings.bytes(registrations.value(row, .name))) { nameWord in
                for (i, word) in words.enumerated() where matched & (1 << UInt32(i)) == 0 && nameWord.starts(with: word) {
                    matched |= 1 << UInt32(i)
                }
            }
            return matched == all
        })
    }

    private mutating func addModel(_ text: String, _ bundle: AircraftBundle, _ search: RegistrySearchTables) throws(LocatedError) {
        let code = AircraftBundle.trimmedASCII(text, uppercase: true)
        var codes: [UInt32] = []
        if let model = bundle.model(code: text) {
            models = [model.row]
            codes = [bundle.models.value(model.row, .code)]
        } else if let id = bundle.strings.id(of: String(decoding: code, as: UTF8.self)), id != 0,
                  !RegistrySearchTables.equalRange(search.byModel, in: registrations, .modelCode, id).isEmpty {
            codes = [id]  // a code registrations name that ACFTREF lacks
        } else {
            let key = Array(RegistrySearchFolding.modelKey(text).utf8)
            guard !key.isEmpty else {
                throw AircraftBundle.usage("model", "nothing to search for", expected: "an ACFTREF code or a model name", found: "\"\(text)\"")
            }
            models = search.prefixRange(search.modelNames, .name, key).map { Int(search.modelNames.value($0, .modelRow)) }
                .filter { $0 < bundle.models.count }
            codes = Set(models.map { bundle.models.value($0, .code) }).filter { $0 != 0 }.sorted()
        }
        let ranges = codes.map { RegistrySearchTables.equalRange(search.byModel, in: registrations, .modelCode, $0) }.filter { !$0.isEmpty }
        let wanted = Set(codes), table = registrations
        add(Filter(table: search.byModel, ranges: ranges, estimate: ranges.map(\.count).reduce(0, +), exact: true) {
            wanted.contains(table.value($0, .modelCode))
        })
    }

    private mutating func addState(_ text: String, _ bundle: AircraftBundle, _ search: RegistrySearchTables) throws(LocatedError) {
        let code = AircraftBundle.trimmedASCII(text, uppercase: true)
        guard code.count == 2, code.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw AircraftBundle.usage("state", "not a state code", expected: "two letters (GA)", found: "\"\(text)\"")
        }
        addEqual(bundle.strings.id(of: String(decoding: code, as: UTF8.self)).map { [$0] } ?? [], .state, search.byState)
    }

    private mutating func addSerial(_ text: String, _ bundle: AircraftBundle, _ search: RegistrySearchTables) throws(LocatedError) {
        let asWritten = AircraftBundle.trimmedASCII(text, uppercase: false)
        guard !asWritten.isEmpty else { throw AircraftBundle.usage("serial", "nothing to search for", expected: "a serial number", found: "\"\(text)\"") }
        let forms = [asWritten, AircraftBundle.trimmedASCII(text, uppercase: true)]
        let ids = Set(forms.compactMap { bundle.strings.id(of: String(decoding: $0, as: UTF8.self)) }).filter { $0 != 0 }.sorted()
        addEqual(ids, .serialNumber, search.bySerial)
    }

    /// A filter of the registrations whose `column` is one of `ids` (string ids), through `index`.
    private mutating func addEqual(_ ids: [UInt32], _ column: S.RegistrationColumn, _ index: RowTable<S.RegistrationRowColumn>) {
        let ranges = ids.map { RegistrySearchTables.equalRange(index, in: registrations, column, $0) }.filter { !$0.isEmpty }
        let table = registrations
        add(Filter(table: index, ranges: ranges, estimate: ranges.map(\.count).reduce(0, +), exact: true) {
            ids.contains(table.value($0, column))
        })
    }

    private mutating func add(_ filter: Filter) {
        if filter.ranges.isEmpty { matchesNothing = true }
        filters.append(filter)
    }

    // MARK: Running

    /// Calls `body` with every `REGS` row that passes every filter, in ascending order, once.
    func forEachMatch(driving driver: Int, _ body: (Int) -> Void) {
        let tests = filters.indices.filter { $0 != driver || !filters[driver].exact }.map { filters[$0].test }
        forEachCandidate(filters[driver]) { row in
            if tests.allSatisfy({ $0(row) }) { body(row) }
        }
    }

    /// The rows of `filter`'s ranges in ascending order, each once, skipping any past `REGS`.
    /// One range is in order already; a few rows are sorted, many are marked in a bitmap.
    private func forEachCandidate(_ filter: Filter, _ body: (Int) -> Void) {
        let rowCount = registrations.count
        func forEachRow(_ visit: (Int) -> Void) {
            for range in filter.ranges {
                for index in range {
                    let row = Int(filter.table.value(index, .registrationRow))
                    if row < rowCount { visit(row) }
                }
            }
        }
        if filter.ranges.count == 1 {
            forEachRow(body)
        } else if filter.estimate <= max(64, rowCount / 32) {
            var rows: [Int] = []
            rows.reserveCapacity(filter.estimate)
            forEachRow { rows.append($0) }
            rows.sort()
            var previous = -1
            for row in rows where row != previous {
                body(row)
                previous = row
            }
        } else {
            var bits = [UInt64](repeating: 0, count: (rowCount + 63) / 64)
            forEachRow { bits[$0 >> 6] |= 1 << UInt64($0 & 63) }
            for (index, word) in bits.enumerated() {
                var word = word
                while word != 0 {
                    body(index << 6 | word.trailingZeroBitCount)
                    word &= word - 1
                }
            }
        }
    }
}
