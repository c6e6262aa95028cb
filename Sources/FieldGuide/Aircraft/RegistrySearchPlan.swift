import FieldGuideArtifact
import FieldGuideDiagnostics

/// A `RegistrationQuery` resolved against the artifact's search sections: each filter (each
/// word of an owner filter) is a set of registrations held in stretches of a sorted index. The
/// smallest set drives; a registration it yields is checked against each other set where that
/// is cheapest: a cursor walking the set's one stretch, a bitmap of its rows, or a test of the
/// registration's own field when the set is far larger than the driver.
struct RegistrySearchPlan {
    typealias S = AircraftSchema

    struct RowSet {
        /// The index whose `ranges` hold the set's `REGS` rows (ascending within a range).
        let table: RowTable<S.RegistrationRowColumn>
        let ranges: [Range<Int>]
        /// Rows in `ranges`, repeats included.
        let estimate: Int
        /// The same membership, decided from the registration itself.
        let test: (Int) -> Bool
    }

    private let registrations: RowTable<S.RegistrationColumn>
    private(set) var sets: [RowSet] = []
    /// `MODL` rows the model filter matched.
    private(set) var models: [Int] = []

    /// The set with the fewest rows, or nil when one set is empty (nothing can match).
    var driver: Int? {
        sets.contains { $0.ranges.isEmpty } ? nil : sets.indices.min { sets[$0].estimate < sets[$1].estimate }
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
        let strings = bundle.strings, registrations = bundle.registrations
        for word in Set(words).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            var ranges: [Range<Int>] = [], estimate = 0
            for entry in search.prefixRange(search.ownerWords, .word, word) {
                let first = Int(search.ownerWords.value(entry, .firstPosting))
                let upper = min(first + Int(search.ownerWords.value(entry, .postingCount)), search.ownerPostings.count)
                let lower = min(first, upper)
                if lower < upper { ranges.append(lower..<upper); estimate += upper - lower }
            }
            let test = OwnerTest([word])
            sets.append(RowSet(table: search.ownerPostings, ranges: ranges, estimate: estimate) { row in
                test.matches(strings.bytes(registrations.value(row, .name)))
            })
        }
    }

    private mutating func addModel(_ text: String, _ bundle: AircraftBundle, _ search: RegistrySearchTables) throws(LocatedError) {
        let code = AircraftBundle.trimmedASCII(text, uppercase: true)
        let table = registrations, models = bundle.models, strings = bundle.strings
        if let model = bundle.model(code: text) {
            self.models = [model.row]
            addEqual([models.value(model.row, .code)], .modelCode, search.byModel, ranges: [search.registrations(ofModel: model.row)])
        } else if let id = bundle.strings.id(of: String(decoding: code, as: UTF8.self)), id != 0,
                  !RegistrySearchTables.equalRanges(search.byModel, in: registrations, .modelCode, [id]).isEmpty {
            addEqual([id], .modelCode, search.byModel)  // a code registrations name that ACFTREF lacks
        } else {
            let key = Array(RegistrySearchFolding.modelKey(text).utf8)
            guard !key.isEmpty else {
                throw AircraftBundle.usage("model", "nothing to search for", expected: "an ACFTREF code or a model name", found: "\"\(text)\"")
            }
            self.models = search.prefixRange(search.modelNames, .name, key).map { Int(search.modelNames.value($0, .modelRow)) }
                .filter { $0 < models.count }
            // Each model's registrations are a stretch of RBMD (MREG); a registration tested
            // alone matches through the model its code links to.
            let ranges = self.models.map { search.registrations(ofModel: $0) }.filter { !$0.isEmpty }
            sets.append(RowSet(table: search.byModel, ranges: ranges, estimate: ranges.reduce(0) { $0 + $1.count }) { row in
                guard let model = table.number(row, .modelRow) else { return false }
                return RegistrySearchFolding.modelKey(strings.bytes(models.value(model, .model))).starts(with: key)
            })
        }
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
        let ids = Self.sortedUnique(forms.compactMap { bundle.strings.id(of: String(decoding: $0, as: UTF8.self)) }.filter { $0 != 0 })
        addEqual(ids, .serialNumber, search.bySerial)
    }

    /// A filter of the registrations whose `column` is one of `ids` (string ids, ascending),
    /// through `index` (its `ranges` there, when already known).
    private mutating func addEqual(_ ids: [UInt32], _ column: S.RegistrationColumn, _ index: RowTable<S.RegistrationRowColumn>,
                                   ranges known: [Range<Int>]? = nil) {
        let ranges = (known ?? RegistrySearchTables.equalRanges(index, in: registrations, column, ids)).filter { !$0.isEmpty }
        let table = registrations
        sets.append(RowSet(table: index, ranges: ranges, estimate: ranges.reduce(0) { $0 + $1.count }) {
            ids.contains(table.value($0, column))
        })
    }

    private static func sortedUnique(_ ids: [UInt32]) -> [UInt32] {
        ids.sorted().reduce(into: []) { unique, id in if unique.last != id { unique.append(id) } }
    }

    // MARK: Running

    /// The page and total read straight from the index when one set of one stretch is the
    /// whole query (a state, a model code, one owner word); nil otherwise.
    func directPage(driving driver: Int, offset: Int, limit: Int) -> (total: Int, rows: [Int])? {
        guard sets.count == 1, sets[driver].ranges.count == 1 else { return nil }
        let set = sets[driver], range = set.ranges[0]
        // Offsets past the end (up to Int.max) give an empty page, never an overflow.
        let start = range.lowerBound + min(offset, range.count)
        let page = start..<(start + min(limit, range.upperBound - start))
        return (range.count, page.map { Int(set.table.value($0, .registrationRow)) }.filter { $0 < registrations.count })
    }

    /// Calls `body` with every `REGS` row in every set, in ascending order, once.
    func forEachMatch(driving driver: Int, checking: RegistrySearchChecking = .byCost, _ body: (Int) -> Void) {
        let rowCount = registrations.count
        var others = sets.indices.filter { $0 != driver }.map { index -> Membership in
            let set = sets[index]
            if set.ranges.count == 1 && checking != .testing { return .cursor(set.table, set.ranges[0], set.ranges[0].lowerBound) }
            // Marking costs a set's size; testing a registration costs a random read of it.
            if checking == .marking || (checking == .byCost && set.estimate <= 32 * sets[driver].estimate + 4_096) {
                return .bitmap(Self.bitmap(of: set, rowCount: rowCount))
            }
            return .test(set.test)
        }
        forEachCandidate(sets[driver]) { row in
            for index in others.indices where !others[index].contains(row) { return }
            body(row)
        }
    }

    /// How a row's membership of a set is decided.
    private enum Membership {
        /// The set's one stretch, walked forward as the rows ascend.
        case cursor(RowTable<S.RegistrationRowColumn>, Range<Int>, Int)
        case bitmap([UInt64])
        case test((Int) -> Bool)

        mutating func contains(_ row: Int) -> Bool {
            switch self {
            case let .cursor(table, range, position):
                let next = RegistrySearchTables.partition(from: position, range.upperBound) { Int(table.value($0, .registrationRow)) < row }
                self = .cursor(table, range, next)
                return next < range.upperBound && Int(table.value(next, .registrationRow)) == row
            case let .bitmap(bits):
                return bits[row >> 6] & (1 << UInt64(row & 63)) != 0
            case let .test(test):
                return test(row)
            }
        }
    }

    /// Every row of `set`'s ranges below `rowCount` (a crafted index may point past `REGS`).
    private static func forEachRow(of set: RowSet, below rowCount: Int, _ visit: (Int) -> Void) {
        for range in set.ranges {
            for index in range {
                let row = Int(set.table.value(index, .registrationRow))
                if row < rowCount { visit(row) }
            }
        }
    }

    /// A bit for each row below `rowCount`, set for the rows of `set`.
    private static func bitmap(of set: RowSet, rowCount: Int) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: (rowCount + 63) / 64)
        bits.withUnsafeMutableBufferPointer { bits in
            for range in set.ranges {
                for index in range {
                    let row = Int(set.table.value(index, .registrationRow))
                    if row < rowCount { bits[row >> 6] |= 1 << UInt64(row & 63) }
                }
            }
        }
        return bits
    }

    /// The rows of `set` in ascending order, each once. One range is in order already; a few
    /// rows are sorted, more are marked in a bitmap.
    private func forEachCandidate(_ set: RowSet, _ body: (Int) -> Void) {
        let rowCount = registrations.count
        if set.ranges.count == 1 {
            Self.forEachRow(of: set, below: rowCount, body)
        } else if set.estimate <= 256 {
            var rows: [Int] = []
            rows.reserveCapacity(set.estimate)
            Self.forEachRow(of: set, below: rowCount) { rows.append($0) }
            rows.sort()
            var previous = -1
            for row in rows where row != previous {
                body(row)
                previous = row
            }
        } else {
            for (index, word) in Self.bitmap(of: set, rowCount: rowCount).enumerated() {
                var word = word
                while word != 0 {
                    body(index << 6 | word.trailingZeroBitCount)
                    word &= word - 1
                }
            }
        }
    }
}

/// Whether every query word starts some word of an owner's name: the words held in one
/// buffer, so testing thousands of names touches no reference counts.
private final class OwnerTest: @unchecked Sendable {
    private let bytes: UnsafeMutableRawBufferPointer
    private let ranges: UnsafeMutableBufferPointer<Range<Int>>
    private let all: UInt32

    init(_ words: [[UInt8]]) {
        bytes = .allocate(byteCount: max(1, words.map(\.count).reduce(0, +)), alignment: 1)
        ranges = .allocate(capacity: words.count)
        var offset = 0
        for (i, word) in words.enumerated() {
            bytes.baseAddress!.advanced(by: offset).copyMemory(from: word, byteCount: word.count)
            ranges[i] = offset..<offset + word.count
            offset += word.count
        }
        all = UInt32(1) << UInt32(words.count) - 1
    }

    deinit {
        bytes.deallocate()
        ranges.deallocate()
    }

    func matches(_ name: UnsafeRawBufferPointer) -> Bool {
        var matched: UInt32 = 0
        let bytes = UnsafeRawBufferPointer(self.bytes), ranges = UnsafeBufferPointer(self.ranges)
        RegistrySearchFolding.forEachWord(in: name) { nameWord in
            for i in 0..<ranges.count where matched & (1 << UInt32(i)) == 0 && ranges[i].count <= nameWord.count {
                let word = UnsafeRawBufferPointer(rebasing: bytes[ranges[i]])
                if compare(UnsafeRawBufferPointer(rebasing: nameWord[0..<word.count]), word) == 0 { matched |= 1 << UInt32(i) }
            }
        }
        return matched == all
    }
}

/// How a registry search checks the sets that do not drive: by their cost (the default), or
/// always one way (for tests: every way must give the same matches).
package enum RegistrySearchChecking: Sendable, CaseIterable {
    case byCost, marking, testing
}
