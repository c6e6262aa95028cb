import FieldGuideArtifact

/// The registry search sections of an aircraft artifact, mapped (see `RegistrySearchSections`
/// on the emit side for what each holds).
///
/// Every row number read from them is checked where it is used: a crafted file gives wrong
/// results, never a read outside a section.
package struct RegistrySearchTables: Sendable {
    typealias S = AircraftSchema
    /// `XSTR`: folded owner words and model names.
    let strings: StringPool
    let ownerWords: RowTable<S.OwnerWordColumn>
    let ownerPostings: RowTable<S.RegistrationRowColumn>
    let modelNames: RowTable<S.ModelNameColumn>
    let byModel: RowTable<S.RegistrationRowColumn>
    let modelRegistrations: RowTable<S.ModelRegistrationsColumn>
    let byState: RowTable<S.RegistrationRowColumn>
    let bySerial: RowTable<S.RegistrationRowColumn>

    /// The search sections, or nil when the artifact has no `XSTR` (written before there was a
    /// registry search); with `XSTR` every other search section must be there.
    init?(_ opened: OpenedArtifact) throws(ArtifactError) {
        guard opened.has(S.Section.searchStrings) else { return nil }
        strings = try opened.strings(S.Section.searchStrings)
        ownerWords = try opened.rows(S.Section.ownerWords)
        ownerPostings = try opened.rows(S.Section.ownerPostings)
        modelNames = try opened.rows(S.Section.modelNames)
        byModel = try opened.rows(S.Section.registrationsByModel)
        modelRegistrations = try opened.rows(S.Section.modelRegistrations)
        byState = try opened.rows(S.Section.registrationsByState)
        bySerial = try opened.rows(S.Section.registrationsBySerial)
    }

    /// Model `row`'s stretch of `byModel` (empty for a row outside `MREG`, clamped to `byModel`).
    func registrations(ofModel row: Int) -> Range<Int> {
        guard let first = modelRegistrations.number(row, .first), let count = modelRegistrations.number(row, .count) else { return 0..<0 }
        let upper = min(first + count, byModel.count)
        return min(first, upper)..<upper
    }

    /// The rows of `table` (sorted by `column`, an `XSTR` id) whose string starts with `prefix`.
    func prefixRange<Column: RowColumn>(_ table: RowTable<Column>, _ column: Column, _ prefix: [UInt8]) -> Range<Int> {
        prefix.withUnsafeBytes { key in
            // Sorted strings: those below the prefix, those starting with it, those above it.
            let lower = Self.partition(table.count) { compare(strings.bytes(table.value($0, column)), key) < 0 }
            let upper = Self.partition(table.count) { row in
                let text = strings.bytes(table.value(row, column))
                return compare(text, key) < 0 || (text.count >= key.count && compare(UnsafeRawBufferPointer(rebasing: text[0..<key.count]), key) == 0)
            }
            return lower..<max(lower, upper)
        }
    }

    /// The rows of a `REGS`-row table sorted by `column` of the registrations whose value is
    /// one of `ids` (ascending): a range per id that has rows. Each search starts where the last
    /// ended and gallops, so a thousand model codes cost little more than their ranges.
    static func equalRanges(_ table: RowTable<S.RegistrationRowColumn>, in registrations: RowTable<S.RegistrationColumn>,
                            _ column: S.RegistrationColumn, _ ids: [UInt32]) -> [Range<Int>] {
        func value(_ index: Int) -> UInt32 { registrations.value(Int(table.value(index, .registrationRow)), column) }
        var ranges: [Range<Int>] = []
        var start = 0
        for id in ids {
            let lower = partition(from: start, table.count) { value($0) < id }
            let upper = max(lower, partition(from: lower, table.count) { value($0) <= id })
            if lower < upper { ranges.append(lower..<upper) }
            start = upper
        }
        return ranges
    }

    /// The first index in `start..<count` for which `isBefore` is false (true on a prefix of
    /// them): galloping from `start`, then a binary search.
    static func partition(from start: Int = 0, _ count: Int, _ isBefore: (Int) -> Bool) -> Int {
        var low = start, high = start, step = 1
        while high < count && isBefore(high) {
            low = high + 1
            high = start + step
            step *= 2
        }
        high = min(high, count)
        while low < high {
            let mid = (low + high) / 2
            if isBefore(mid) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
