import FieldGuideArtifact

/// The first pass of a search: each query word's dictionary matches (exact, prefix, one typo,
/// series) and their postings, merged into one sorted list of entities with the quality they
/// reach and which words they hold; models also get the words their manufacturer holds. The
/// best few by an estimate of the final score go on to `SearchScoring`.
///
/// Bound: at most `postingBudget` postings are read per query (documented with the search).
///
/// ```swift
/// var candidates = SearchCandidates(index: index, query: try SearchQuery("Cessna 172S"))
/// candidates.best(count: 64, kinds: [.model])   // entities, best estimate first
/// ```
struct SearchCandidates {
    typealias Entity = AircraftIndexSchema.SearchEntity
    static let postingBudget = 200_000
    /// At most this many dictionary words per query word through a prefix, a typo or a series.
    static let expansionLimit = 64
    /// At most this many dictionary words are looked at for one typo, by prefix and by suffix.
    static let typoScanLimit = 4096

    struct Entry {
        var entity: UInt32
        var score: Float
        var mask: UInt32
    }

    let index: AircraftIndex
    let query: SearchQuery
    /// Per query word: the entities holding a match of it with their best quality, sorted.
    private(set) var perWord: [[(entity: UInt32, quality: Float)]] = []
    private var budget = postingBudget

    init(index: AircraftIndex, query: SearchQuery) {
        self.index = index
        self.query = query
        for word in query.words.indices {
            var list: [(entity: UInt32, quality: Float)] = []
            for match in dictionaryMatches(word) { decode(match.row, quality: match.quality, into: &list) }
            list.sort { $0.entity != $1.entity ? $0.entity < $1.entity : $0.quality > $1.quality }
            var unique: [(entity: UInt32, quality: Float)] = []
            unique.reserveCapacity(list.count)
            for item in list where unique.last?.entity != item.entity { unique.append(item) }
            perWord.append(unique)
        }
    }

    /// The best `count` entities of `kinds` by estimated score (an exact designator always
    /// among them), in no particular order.
    func best(count: Int, kinds: Set<AircraftSearchResult.Kind>) -> [Entity] {
        var entries = merged()
        creditManufacturers(&entries)
        let wanted = Set(kinds.map(Self.entityKind))
        let words = Float(query.words.count)
        var estimates: [(entity: UInt32, estimate: Float)] = []
        estimates.reserveCapacity(entries.count)
        for entry in entries {
            let entity = Entity(rawValue: entry.entity)
            guard let kind = entity.kind, wanted.contains(kind), let own = ownText(entity) else { continue }
            let ownAtoms = max(1, SearchText.atomCount(own))
            let coverage = min(1, Float((entry.mask & 0xFFFF).nonzeroBitCount) / Float(ownAtoms))
            estimates.append((entry.entity, 0.75 * entry.score / words + 0.25 * coverage))
        }
        var chosen = Self.top(estimates, count: count)
        if kinds.contains(.type), let row = exactDesignatorRow() {
            let entity = Entity(kind: .type, row: row)
            if !chosen.contains(entity) { chosen.append(entity) }
        }
        return chosen
    }

    /// The type row whose designator is the query, if any.
    func exactDesignatorRow() -> Int? {
        guard (2...4).contains(query.compact.count) else { return nil }
        return query.compact.withUnsafeBytes { index.typeDesignators.find($0) }
    }

    /// The text an entity's own words come from (nil for a row outside its table).
    func ownText(_ entity: Entity) -> UnsafeRawBufferPointer? {
        switch entity.kind {
        case .type?: return entity.row < index.typeCount ? index.typeNames.bytes(entity.row) : nil
        case .model?: return entity.row < index.modelCount ? index.modelNames.bytes(entity.row) : nil
        case .manufacturer?: return entity.row < index.manufacturerCount ? index.manufacturerNames.bytes(entity.row) : nil
        case nil: return nil
        }
    }

    static func entityKind(_ kind: AircraftSearchResult.Kind) -> Entity.Kind {
        switch kind {
        case .type: return .type
        case .model: return .model
        case .manufacturer: return .manufacturer
        }
    }

    // MARK: Dictionary

    /// The dictionary rows that match query word `i`, with their quality.
    private func dictionaryMatches(_ i: Int) -> [(row: Int, quality: Float)] {
        let word = query.words[i]
        guard word.count <= SearchText.maximumAtomLength else { return [] }
        let atoms = index.atoms
        var out: [(row: Int, quality: Float)] = []
        var seen = Set<Int>()
        func add(_ row: Int, _ how: AircraftSearchMatch.How) {
            if seen.insert(row).inserted { out.append((row, MatchQuality.of(how))) }
        }
        word.withUnsafeBytes { key in
            if let row = atoms.find(key) { add(row, .exact) }
            if query.allowsPrefix(i) {
                for row in atoms.rows(withPrefix: key).prefix(Self.expansionLimit) { add(row, .prefix) }
            }
        }
        if query.allowsTypo(i) {
            for row in typoRows(word).prefix(Self.expansionLimit) { add(row, .typo) }
        }
        if let stem = query.seriesStem(i) {
            let rows = Array(stem).withUnsafeBytes { stemBytes -> [Int] in
                var rows = atoms.find(stemBytes).map { [$0] } ?? []
                for row in atoms.rows(withPrefix: stemBytes).prefix(Self.typoScanLimit) {
                    let atom = atoms.bytes(row)
                    if atom.count == word.count && atom.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { rows.append(row) }
                }
                return rows
            }
            for row in rows.prefix(Self.expansionLimit) { add(row, .series) }
        }
        return out
    }

    /// Dictionary rows one edit from `word` (and not equal): those sharing its first half, then
    /// those sharing the rest after one more byte (an edit lies in one half or the other).
    private func typoRows(_ word: [UInt8]) -> [Int] {
        let atoms = index.atoms
        let half = word.count / 2
        var rows: [Int] = []
        func consider(_ row: Int) {
            let atom = atoms.bytes(row)
            if abs(atom.count - word.count) <= 1, !atom.elementsEqual(word), SearchText.withinOneEdit(word[...], atom) { rows.append(row) }
        }
        word[0..<half].withUnsafeBytes { prefix in
            for row in atoms.rows(withPrefix: prefix).prefix(Self.typoScanLimit) { consider(row) }
        }
        let suffix = Array(word[(half + 1)...].reversed())
        for position in reversedRange(suffix).prefix(Self.typoScanLimit) {
            let row = Int(index.atomsReversed.value(position, .value))
            if row < atoms.count, !rows.contains(row) { consider(row) }
        }
        return rows
    }

    /// The positions in `SREV` of the atoms that end with the reverse of `reversedSuffix`.
    private func reversedRange(_ reversedSuffix: [UInt8]) -> Range<Int> {
        let order = index.atomsReversed, atoms = index.atoms
        /// The atom at `position`, reversed, cut to the suffix's length, compared with it.
        func head(_ position: Int) -> Int {
            let atom = atoms.bytes(Int(order.value(position, .value)))
            let n = min(atom.count, reversedSuffix.count)
            for k in 0..<n where atom[atom.count - 1 - k] != reversedSuffix[k] {
                return atom[atom.count - 1 - k] < reversedSuffix[k] ? -1 : 1
            }
            return atom.count < reversedSuffix.count ? -1 : 0
        }
        var low = 0, high = order.count
        while low < high {
            let mid = (low + high) / 2
            if head(mid) < 0 { low = mid + 1 } else { high = mid }
        }
        var end = low
        high = order.count
        while end < high {
            let mid = (end + high) / 2
            if head(mid) <= 0 { end = mid + 1 } else { high = mid }
        }
        return low..<end
    }

    /// Appends the postings of dictionary row `row` (LEB128 deltas; every read bounds-checked).
    private mutating func decode(_ row: Int, quality: Float, into list: inout [(entity: UInt32, quality: Float)]) {
        let postings = index.postings
        var position = Int(index.atomPostings.value(row, .start))
        let count = Int(index.atomPostings.value(row, .count))
        var previous: UInt32 = 0, read = 0
        while read < count, position < postings.count, budget > 0 {
            var value: UInt32 = 0, shift: UInt32 = 0
            while position < postings.count {
                let byte = postings[position]
                position += 1
                if shift < 32 { value |= UInt32(byte & 0x7F) << shift }
                shift += 7
                if byte < 0x80 { break }
            }
            previous &+= value
            list.append((previous, quality))
            read += 1
            budget -= 1
        }
    }

    // MARK: Merging

    /// Every entity holding a match of any word: its summed quality and which words (bit per word).
    private func merged() -> [Entry] {
        var entries: [Entry] = []
        for (word, list) in perWord.enumerated() {
            let bit = UInt32(1) << UInt32(word)
            var out: [Entry] = []
            out.reserveCapacity(entries.count + list.count)
            var a = 0, b = 0
            while a < entries.count || b < list.count {
                if b == list.count || (a < entries.count && entries[a].entity < list[b].entity) {
                    out.append(entries[a]); a += 1
                } else if a == entries.count || list[b].entity < entries[a].entity {
                    out.append(Entry(entity: list[b].entity, score: list[b].quality, mask: bit)); b += 1
                } else {
                    out.append(Entry(entity: entries[a].entity, score: entries[a].score + list[b].quality, mask: entries[a].mask | bit))
                    a += 1; b += 1
                }
            }
            entries = out
        }
        return entries
    }

    /// Adds to each model the words its manufacturer holds and the model does not; marks them
    /// in the high half of the mask (they are not the model's own words).
    private func creditManufacturers(_ entries: inout [Entry]) {
        var manufacturers: [Int: [Float]] = [:]
        for entry in entries where Entity(rawValue: entry.entity).kind == .manufacturer {
            let entity = entry.entity
            manufacturers[Entity(rawValue: entity).row] = perWord.map { list in Self.quality(of: entity, in: list) }
        }
        guard !manufacturers.isEmpty else { return }
        for i in entries.indices {
            let entity = Entity(rawValue: entries[i].entity)
            guard entity.kind == .model, entity.row < index.modelCount,
                  let qualities = manufacturers[Int(index.modelManufacturers.value(entity.row, .value))] else { continue }
            for (word, quality) in qualities.enumerated() where quality > 0 && entries[i].mask & (1 << UInt32(word)) == 0 {
                entries[i].score += quality
                entries[i].mask |= 1 << UInt32(16 + word)
            }
        }
    }

    private static func quality(of entity: UInt32, in list: [(entity: UInt32, quality: Float)]) -> Float {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid].entity < entity { low = mid + 1 } else { high = mid }
        }
        return low < list.count && list[low].entity == entity ? list[low].quality : 0
    }

    /// The `count` best estimates (ties by entity order), without sorting them all: a histogram
    /// finds the score from which to take.
    static func top(_ estimates: [(entity: UInt32, estimate: Float)], count: Int) -> [Entity] {
        guard estimates.count > count else { return estimates.map { Entity(rawValue: $0.entity) } }
        let buckets = 1024
        func bucket(_ estimate: Float) -> Int { min(buckets - 1, max(0, Int(estimate * Float(buckets - 1)))) }
        var histogram = [Int](repeating: 0, count: buckets)
        for item in estimates { histogram[bucket(item.estimate)] += 1 }
        var threshold = buckets - 1, above = 0
        while threshold > 0 && above + histogram[threshold] < count {
            above += histogram[threshold]
            threshold -= 1
        }
        var chosen: [Entity] = []
        var atThreshold = count - above
        for item in estimates {
            let b = bucket(item.estimate)
            if b > threshold {
                chosen.append(Entity(rawValue: item.entity))
            } else if b == threshold && atThreshold > 0 {
                chosen.append(Entity(rawValue: item.entity))
                atThreshold -= 1
            }
        }
        return chosen
    }
}
