import FieldGuideArtifact
import FieldGuideArtifactWriter

/// The search dictionary of the manufacturer index: every atom of every type name, model name
/// and manufacturer name (`SearchText`), each with the entities holding it.
///
/// Entities must be added in ascending order (types by row, then models, then manufacturers),
/// so every list comes out ascending; a list is written as LEB128 deltas.
///
/// ```swift
/// var search = SearchIndexBuilder()
/// search.add("BOEING 737-800", .init(kind: .type, row: 0))
/// search.addSections(to: &artifact)
/// ```
struct SearchIndexBuilder {
    typealias S = AircraftIndexSchema
    /// Every distinct atom, by id (in order of first appearance), and the entities holding it.
    private var atoms: [[UInt8]] = []
    private var lists: [[UInt32]] = []
    private var atomIDs: [ByteKey: Int] = [:]
    /// The stored texts seen, by provisional id: model names repeat (42K distinct of 94K on
    /// full-size data), and tokenizing them again cost more than the lookup.
    private var texts: StringPoolBuilder
    /// `atomsOfText[id]`: where text `id`'s atom ids start in `runs` (their count, then the ids);
    /// the pool's id 0, the empty text, has none. A dictionary of arrays, keyed by an array of
    /// each text, held 6-8 MB more at full size.
    private var atomsOfText: [Int32] = [0]
    private var runs: [Int32] = [0]
    private var last: UInt32?

    /// `expectedTexts` pre-sizes the table of texts seen (the names about to be added): grown
    /// from its default by half at a time, it was rehashed a dozen times at full size.
    init(expectedTexts: Int = 0) {
        texts = StringPoolBuilder(expectedStrings: expectedTexts)
    }

    mutating func add(_ text: String, _ entity: S.SearchEntity) {
        add(ids: ids(of: SearchText.indexAtoms(text)), entity)
    }

    mutating func add(_ stored: UnsafeRawBufferPointer, _ entity: S.SearchEntity) {
        let text = Int(texts.intern(stored))
        if text == atomsOfText.count {
            atomsOfText.append(Int32(runs.count))
            let found = ids(of: SearchText.indexAtoms(stored))
            runs.append(Int32(found.count))
            runs.append(contentsOf: found.lazy.map { Int32($0) })
        }
        let start = Int(atomsOfText[text])
        add(ids: runs[(start + 1)..<(start + 1 + Int(runs[start]))].lazy.map { Int($0) }, entity)
    }

    /// The ids of `atoms`, new atoms given the next ones.
    private mutating func ids(of found: [[UInt8]]) -> [Int] {
        found.map { atom in
            if let id = atomIDs[ByteKey(atom)] { return id }
            atomIDs[ByteKey(atom)] = atoms.count
            atoms.append(atom)
            lists.append([])
            return atoms.count - 1
        }
    }

    private mutating func add(ids: some Sequence<Int>, _ entity: S.SearchEntity) {
        precondition(last.map { $0 < entity.rawValue } ?? true, "search entities are added in ascending order")
        precondition(entity.row < S.SearchEntity.rowLimit, "a search entity row past 2^30")
        last = entity.rawValue
        for id in ids { lists[id].append(entity.rawValue) }
    }

    /// Adds the dictionary, its postings table, the reversed order and the postings; returns
    /// how many atoms and postings there are.
    mutating func addSections(to artifact: inout ArtifactBuilder) -> (atoms: Int, postings: Int) {
        let order = self.atoms.indices.sorted { self.atoms[$0].lexicographicallyPrecedes(self.atoms[$1]) }
        let atoms = order.map { self.atoms[$0] }
        var postings: [UInt8] = []
        var table = RowTableBuilder<S.AtomColumn>()
        var total = 0
        for id in order {
            let list = lists[id]
            let row = table.appendRow()
            table[row, .start] = UInt32(postings.count)
            table[row, .count] = UInt32(list.count)
            var previous: UInt32 = 0
            for entity in list {
                var delta = entity - previous
                previous = entity
                while delta >= 0x80 {
                    postings.append(UInt8(delta & 0x7F) | 0x80)
                    delta >>= 7
                }
                postings.append(UInt8(delta))
            }
            total += list.count
        }
        precondition(postings.count < Int(UInt32.max), "postings past 4 GiB")
        let reversed = atoms.indices.sorted { atoms[$0].reversed().lexicographicallyPrecedes(atoms[$1].reversed()) }
        let text = TextColumn.serialize(atoms)
        artifact.addSection(S.Section.searchAtoms, rows: text.rows, bytes: text.bytes)
        artifact.addSection(S.Section.searchAtomPostings, rows: table.count, bytes: table.serialize())
        let reverse = AircraftIndexBuilder.u32Table(reversed)
        artifact.addSection(S.Section.searchAtomsReversed, rows: reverse.count, bytes: reverse.serialize())
        artifact.addSection(S.Section.searchPostings, rows: total, bytes: postings)
        self = SearchIndexBuilder()
        return (atoms.count, total)
    }
}

/// Bytes as a dictionary key, hashed in one call over them: `[UInt8]`'s own hashing feeds the
/// hasher a byte at a time, which with the lookups around it was an eighth of
/// `emit-aircraft-index`'s samples (model names and their atoms, 94,000 of each).
struct ByteKey: Hashable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
