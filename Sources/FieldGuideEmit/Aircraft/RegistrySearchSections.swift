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
///   (string ids compare as their strings), then N-number; `MREG`: each model's stretch of `RBMD`.
///
/// A registration whose owner is withheld has an empty name and so no owner words. Every sort
/// is on integer keys (`RadixSort`); the bytes depend only on the registrations.
///
/// The two halves, the words (`XSTR`, `OWRD`, `OWNP`, `MNAM`) and the orders (`RBMD`, `RBST`,
/// `RBSN`, `MREG`), are made apart, so that a builder can pair each with other work on a thread
/// (full size: about 0.17 and 0.06 s of a core).
///
/// ```swift
/// let words = RegistrySearchSections.words(pool: poolBytes, registrations: parts, sortedRow: sortedRow, models: models)
/// let orders = RegistrySearchSections.orders(registrations: parts, sortedRow: sortedRow, models: models)
/// ```
enum RegistrySearchSections {
    typealias S = AircraftSchema
    typealias Sections = [(tag: FourCC, rows: Int, bytes: [UInt8])]

    /// `XSTR`, `OWRD`, `OWNP` and `MNAM`. `pool` is the final `STRS` section; `sortedRow[i]` is
    /// the `REGS` row of the `i`th registration across `registrations`.
    static func words(pool: [UInt8], registrations: [RowTableBuilder<S.RegistrationColumn>], sortedRow: [UInt32],
                      models: RowTableBuilder<S.ModelColumn>) -> Sections {
        pool.withUnsafeBytes { raw in
            guard let pool = try? StringPool(raw, path: S.Section.strings.description) else {
                preconditionFailure("the builder's own string pool does not read back")
            }
            var search = StringPoolBuilder(expectedStrings: sortedRow.count / 2 + models.count, expectedBytes: sortedRow.count * 4)
            var owners = ownerWordPostings(pool, names: column(.name, of: registrations), sortedRow, into: &search)
            var names = modelNames(pool, models.values(of: .model), into: &search)
            let (searchBytes, remap) = search.finish()
            sort(&owners, remapping: remap)
            sort(&names, remapping: remap)

            var words = RowTableBuilder<S.OwnerWordColumn>()
            var start = 0
            while start < owners.count {
                let word = owners[start] >> 32
                var end = start + 1
                while end < owners.count && owners[end] >> 32 == word { end += 1 }
                let row = words.appendRow()
                words[row, .word] = UInt32(word)
                words[row, .firstPosting] = UInt32(start)
                words[row, .postingCount] = UInt32(end - start)
                start = end
            }
            var modelNames = RowTableBuilder<S.ModelNameColumn>()
            for key in names {
                let entry = modelNames.appendRow()
                modelNames[entry, .name] = UInt32(key >> 32)
                modelNames[entry, .modelRow] = UInt32(truncatingIfNeeded: key)
            }
            let searchCount = searchBytes.withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self).littleEndian) }
            return [
                (S.Section.searchStrings, searchCount, searchBytes),
                (S.Section.ownerWords, words.count, words.serialize()),
                (S.Section.ownerPostings, owners.count, serializeRows(owners)),
                (S.Section.modelNames, modelNames.count, modelNames.serialize()),
            ]
        }
    }

    /// `RBMD`, `RBST`, `RBSN` and `MREG`, from the registrations' final string ids.
    static func orders(registrations: [RowTableBuilder<S.RegistrationColumn>], sortedRow: [UInt32],
                       models: RowTableBuilder<S.ModelColumn>) -> Sections {
        var sections: Sections = []
        for (tag, key) in [(S.Section.registrationsByModel, S.RegistrationColumn.modelCode),
                           (S.Section.registrationsByState, .state), (S.Section.registrationsBySerial, .serialNumber)] {
            var keys: [UInt64] = []
            keys.reserveCapacity(sortedRow.count)
            for (index, id) in column(key, of: registrations).enumerated() where id != 0 { keys.append(UInt64(id) << 32 | UInt64(sortedRow[index])) }
            RadixSort.sort(keys: &keys)
            sections.append((tag, keys.count, serializeRows(keys)))
            if key == .modelCode {
                let ranges = modelRegistrations(codes: models.values(of: .code), byCode: keys)
                sections.append((S.Section.modelRegistrations, ranges.count, ranges.serialize()))
            }
        }
        return sections
    }

    /// A column read once, across the parts, in file order (`sortedRow`'s order).
    private static func column(_ column: S.RegistrationColumn, of registrations: [RowTableBuilder<S.RegistrationColumn>]) -> [UInt32] {
        registrations.count == 1 ? registrations[0].values(of: column) : Array(registrations.map { $0.values(of: column) }.joined())
    }

    /// Every (owner word, `REGS` row) as `word << 32 | row`, with provisional ids of `search`.
    /// A name shared by many registrations is folded once.
    private static func ownerWordPostings(_ pool: StringPool, names: [UInt32], _ sortedRow: [UInt32],
                                          into search: inout StringPoolBuilder) -> [UInt64] {
        // Room past the words an owner name has (about 3.05 on full-size data): a reserve one
        // short copies the whole array once it fills (at full size 7.6 MB into 15 MB of fresh
        // pages), while room never written costs no memory (only the pages written become it).
        var postings: [UInt64] = []
        postings.reserveCapacity(names.count * 4)
        // `wordsOf[name]`: where the name's words start in `runs` (a count, then the ids).
        var wordsOf = [UInt32](repeating: .max, count: pool.count)
        var runs: [UInt32] = []
        runs.reserveCapacity(names.count * 5)
        for (index, name) in names.enumerated() where name != 0 {
            var at = Int(wordsOf[Int(name)])
            if at == Int(UInt32.max) {
                at = runs.count
                wordsOf[Int(name)] = UInt32(at)
                runs.append(0)
                RegistrySearchFolding.forEachWord(in: pool.bytes(name)) { word in
                    let id = search.intern(word)
                    if !runs[(at + 1)...].contains(id) { runs.append(id) }
                }
                runs[at] = UInt32(runs.count - at - 1)
            }
            let row = UInt64(sortedRow[index])
            for word in runs[(at + 1)..<(at + 1 + Int(runs[at]))] { postings.append(UInt64(word) << 32 | row) }
        }
        return postings
    }

    /// Every (folded model name, `MODL` row) as `name << 32 | row`, with provisional ids of `search`.
    private static func modelNames(_ pool: StringPool, _ models: [UInt32], into search: inout StringPoolBuilder) -> [UInt64] {
        var names: [UInt64] = []
        for (row, model) in models.enumerated() {
            let key = RegistrySearchFolding.modelKey(pool.bytes(model))
            if key.isEmpty { continue }
            names.append(UInt64(key.withUnsafeBytes { search.intern($0) }) << 32 | UInt64(row))
        }
        return names
    }

    /// Each model's stretch of `RBMD` (`byCode`: code id << 32 | row, sorted), found by walking
    /// the models in code order beside it.
    private static func modelRegistrations(codes: [UInt32], byCode: [UInt64]) -> RowTableBuilder<S.ModelRegistrationsColumn> {
        var table = RowTableBuilder<S.ModelRegistrationsColumn>()
        for _ in codes { _ = table.appendRow() }
        var order = [UInt32](0..<UInt32(codes.count)), keys = codes.map { UInt64($0) }
        RadixSort.sort(keys: &keys, values: &order)
        var start = 0
        for (code, model) in zip(keys, order) {
            while start < byCode.count && byCode[start] >> 32 < code { start += 1 }
            var end = start
            while end < byCode.count && byCode[end] >> 32 == code { end += 1 }
            table[Int(model), .first] = UInt32(start)
            table[Int(model), .count] = UInt32(end - start)
        }
        return table
    }

    /// Gives the keys' high halves (provisional string ids) their final values, then sorts them.
    private static func sort(_ keys: inout [UInt64], remapping remap: [UInt32]) {
        for i in keys.indices { keys[i] = UInt64(remap[Int(keys[i] >> 32)]) << 32 | keys[i] & 0xFFFF_FFFF }
        RadixSort.sort(keys: &keys)
    }

    /// The keys' low halves (row numbers) as a section of `UInt32`s, stored in place (2.2M of
    /// them at full size: an append each was most of the time).
    private static func serializeRows(_ keys: [UInt64]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: keys.count * 4) { out, initialized in
            let raw = UnsafeMutableRawBufferPointer(out)
            for (index, key) in keys.enumerated() {
                raw.storeBytes(of: UInt32(truncatingIfNeeded: key).littleEndian, toByteOffset: index * 4, as: UInt32.self)
            }
            initialized = keys.count * 4
        }
    }
}
