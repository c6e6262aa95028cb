import FieldGuideArtifact
import FieldGuideArtifactWriter

/// The aircraft artifact's registry search sections, made from the finished registrations
/// (final string ids, rows numbered across the builder's parts in file order) so that a query
/// by owner, model, state or serial number reads a sorted table instead of 316K rows:
///
/// * `XSTR`: the folded owner-name words and model names (`RegistrySearchFolding`), a pool of
///   their own, apart from `STRS`;
/// * `OWRD` + `OWNP`: each owner word with its registrations (rows in N-number order), grouped
///   by word; a word prefix is a stretch of `OWRD`;
/// * `MNAM`: each model row under its folded name;
/// * `RBMD`, `RBST`, `RBSN`: the registrations ordered by model code, state and serial number
///   (string ids compare as their strings), then N-number.
///
/// A registration whose owner is withheld has an empty name and so no owner words. Every sort
/// is on integer keys (`RadixSort`); the bytes depend only on the registrations.
///
/// ```swift
/// let sections = RegistrySearchSections(pool: poolBytes, registrations: parts, sortedRow: sortedRow, models: models).sections
/// ```
struct RegistrySearchSections {
    typealias S = AircraftSchema
    let sections: [(tag: FourCC, rows: Int, bytes: [UInt8])]

    /// `pool` is the final `STRS` section; `sortedRow[i]` is the `REGS` row of the `i`th
    /// registration across `registrations`.
    init(pool: [UInt8], registrations: [RowTableBuilder<S.RegistrationColumn>], sortedRow: [UInt32], models: RowTableBuilder<S.ModelColumn>) {
        sections = pool.withUnsafeBytes { raw in
            guard let pool = try? StringPool(raw, path: S.Section.strings.description) else {
                preconditionFailure("the builder's own string pool does not read back")
            }
            var search = StringPoolBuilder(expectedStrings: sortedRow.count / 2 + models.count, expectedBytes: sortedRow.count * 4)
            var owners = Self.ownerWordPostings(pool, registrations, sortedRow, into: &search)
            var names = Self.modelNames(pool, models, into: &search)
            let (searchBytes, remap) = search.finish()
            owners.sort(remapping: remap)
            names.sort(remapping: remap)

            var words = RowTableBuilder<S.OwnerWordColumn>()
            var start = 0
            while start < owners.keys.count {
                let word = owners.keys[start] >> 32
                var end = start + 1
                while end < owners.keys.count && owners.keys[end] >> 32 == word { end += 1 }
                let row = words.appendRow()
                words[row, .word] = UInt32(word)
                words[row, .firstPosting] = UInt32(start)
                words[row, .postingCount] = UInt32(end - start)
                start = end
            }
            var modelNames = RowTableBuilder<S.ModelNameColumn>()
            for (key, row) in zip(names.keys, names.rows) {
                let entry = modelNames.appendRow()
                modelNames[entry, .name] = UInt32(key >> 32)
                modelNames[entry, .modelRow] = row
            }
            let searchCount = searchBytes.withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self).littleEndian) }
            var sections: [(tag: FourCC, rows: Int, bytes: [UInt8])] = [
                (S.Section.searchStrings, searchCount, searchBytes),
                (S.Section.ownerWords, words.count, words.serialize()),
                (S.Section.ownerPostings, owners.rows.count, Self.serialize(owners.rows)),
                (S.Section.modelNames, modelNames.count, modelNames.serialize()),
            ]
            for (tag, column) in [(S.Section.registrationsByModel, S.RegistrationColumn.modelCode),
                                  (S.Section.registrationsByState, .state), (S.Section.registrationsBySerial, .serialNumber)] {
                let rows = Self.rows(registrations, sortedRow: sortedRow, by: column)
                sections.append((tag, rows.count, Self.serialize(rows)))
            }
            return sections
        }
    }

    /// Sort keys (a search string id above a row number) with the rows they belong to.
    struct Postings {
        var keys: [UInt64] = []
        var rows: [UInt32] = []

        mutating func append(_ id: UInt32, _ row: UInt32) {
            keys.append(UInt64(id) << 32 | UInt64(row))
            rows.append(row)
        }

        /// Gives the ids their final values (`remap[provisional]`), then sorts by id and row.
        mutating func sort(remapping remap: [UInt32]) {
            for i in keys.indices { keys[i] = UInt64(remap[Int(keys[i] >> 32)]) << 32 | keys[i] & 0xFFFF_FFFF }
            RadixSort.sort(keys: &keys, values: &rows)
        }
    }

    /// Every (owner word, `REGS` row), with provisional ids of `search`. A name shared by many
    /// registrations is folded once.
    private static func ownerWordPostings(_ pool: StringPool, _ registrations: [RowTableBuilder<S.RegistrationColumn>],
                                          _ sortedRow: [UInt32], into search: inout StringPoolBuilder) -> Postings {
        var postings = Postings()
        postings.keys.reserveCapacity(sortedRow.count * 3)
        postings.rows.reserveCapacity(sortedRow.count * 3)
        // `wordsOf[name]`: where the name's words start in `runs` (a count, then the ids).
        var wordsOf = [UInt32](repeating: .max, count: pool.count)
        var runs: [UInt32] = []
        var first = 0
        for table in registrations {
            for row in 0..<table.count {
                let name = Int(table[row, .name])
                guard name != 0 else { continue }
                if wordsOf[name] == .max {
                    wordsOf[name] = UInt32(runs.count)
                    let countAt = runs.count
                    runs.append(0)
                    RegistrySearchFolding.forEachWord(in: pool.bytes(UInt32(name))) { word in
                        let id = search.intern(word)
                        if !runs[(countAt + 1)...].contains(id) { runs.append(id) }
                    }
                    runs[countAt] = UInt32(runs.count - countAt - 1)
                }
                let at = Int(wordsOf[name]), r = sortedRow[first + row]
                for word in runs[(at + 1)..<(at + 1 + Int(runs[at]))] { postings.append(word, r) }
            }
            first += table.count
        }
        return postings
    }

    /// Every (folded model name, `MODL` row), with provisional ids of `search`.
    private static func modelNames(_ pool: StringPool, _ models: RowTableBuilder<S.ModelColumn>, into search: inout StringPoolBuilder) -> Postings {
        var names = Postings()
        for row in 0..<models.count {
            let key = RegistrySearchFolding.modelKey(pool.bytes(models[row, .model]))
            if key.isEmpty { continue }
            names.append(key.withUnsafeBytes { search.intern($0) }, UInt32(row))
        }
        return names
    }

    /// `REGS` rows with a non-empty `column`, by its string id, then row.
    private static func rows(_ registrations: [RowTableBuilder<S.RegistrationColumn>], sortedRow: [UInt32], by column: S.RegistrationColumn) -> [UInt32] {
        var postings = Postings()
        postings.keys.reserveCapacity(sortedRow.count)
        postings.rows.reserveCapacity(sortedRow.count)
        var first = 0
        for table in registrations {
            for row in 0..<table.count where table[row, column] != 0 { postings.append(table[row, column], sortedRow[first + row]) }
            first += table.count
        }
        RadixSort.sort(keys: &postings.keys, values: &postings.rows)
        return postings.rows
    }

    private static func serialize(_ rows: [UInt32]) -> [UInt8] {
        var out = ByteWriter(capacity: rows.count * 4)
        for row in rows { out.u32(row) }
        return out.bytes
    }
}
