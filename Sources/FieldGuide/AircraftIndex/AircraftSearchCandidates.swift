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
            // Each list is ascending (as written); several are merged two by two, the best quality kept.
            var lists = dictionaryMatches(word).map { match -> [(entity: UInt32, quality: Float)] in
                var list: [(entity: UInt32, quality: Float)] = []
                decode(match.row, quality: match.quality, into: &list)
                return list
            }
            while lists.count > 1 {
                lists = stride(from: 0, to: lists.count, by: 2).map { i in i + 1 < lists.count ? Self.union(lists[i], lists[i + 1]) : lists[i] }
            }
            let list = lists.first ?? []
            perWord.append(list)
        }
    }

    /// The best `count` entities of `kinds` by estimated score (an exact designator always
    /// among them), in no particular order.
    ///
    /// At most `maximumCandidates` entities are considered: those holding the rarest words (a
    /// common word, such as `A` in six thousand names, then only adds to them). The estimate is
    /// 0.75 × the words' summed quality share + 0.25 × the share of the entity's own words
    /// matched, counted only for entries whose share of quality could still make the cut.
    func best(count: Int, kinds: Set<AircraftSearchResult.Kind>) -> [Entity] {
        var wanted = [Bool](repeating: false, count: 4)
        for kind in kinds { wanted[Int(Self.entityKind(kind).rawValue)] = true }
        var entries = candidates()
        if query.words.count > 1 { creditManufacturers(&entries) }
        entries.removeAll { !wanted[Int($0.entity >> 30)] }
        let words = Float(query.words.count)
        // The quality share alone puts an estimate within 0.25 of its final value: an entry
        // 0.25 below the count-th best share cannot make the cut.
        let floor = Self.kthLargest(entries.map { 0.75 * $0.score / words }, count) - 0.25
        var estimates: [(entity: UInt32, estimate: Float)] = []
        estimates.reserveCapacity(min(entries.count, 4 * count))
        for entry in entries where 0.75 * entry.score / words >= floor {
            guard let own = ownText(Entity(rawValue: entry.entity)) else { continue }
            let coverage = min(1, Float((entry.mask & 0xFFFF).nonzeroBitCount) / Float(max(1, SearchText.atomCount(own))))
            estimates.append((entry.entity, 0.75 * entry.score / words + 0.25 * coverage))
        }
        var chosen = Self.top(estimates, count: count)
        if kinds.contains(.type), let row = exactDesignatorRow() {
            let entity = Entity(kind: .type, row: row)
            if !chosen.contains(entity) { chosen.append(entity) }
        }
        return chosen
    }

    /// At most this many entities are estimated per query (a documented bound on its work).
    static let maximumCandidates = 2_000

    /// The entities holding the rarest words, up to `maximumCandidates`, with every word's
    /// quality added: the rarest word's list always (cut to the bound), the next ones while
    /// the bound allows; the other words are looked up for these entities only.
    private func candidates() -> [Entry] {
        let order = perWord.indices.sorted { perWord[$0].count < perWord[$1].count }
        var generating: [Int] = [], total = 0
        for word in order where generating.isEmpty || total + perWord[word].count <= Self.maximumCandidates {
            generating.append(word)
            total += perWord[word].count
        }
        var entries = merged(generating)
        if entries.count > Self.maximumCandidates { entries.removeLast(entries.count - Self.maximumCandidates) }
        for word in perWord.indices where !generating.contains(word) {
            let list = perWord[word], bit = UInt32(1) << UInt32(word)
            var j = 0
            for i in entries.indices {
                while j < list.count && list[j].entity < entries[i].entity { j += 1 }
                if j < list.count && list[j].entity == entries[i].entity {
                    entries[i].score += list[j].quality
                    entries[i].mask |= bit
                }
            }
        }
        return entries
    }

    /// Two ascending lists as one, an entity in both with its better quality.
    static func union(_ a: [(entity: UInt32, quality: Float)], _ b: [(entity: UInt32, quality: Float)]) -> [(entity: UInt32, quality: Float)] {
        mergeAscending(a, b, key: \.entity, key: \.entity, left: { $0 }, right: { $0 }, both: { ($0.entity, max($0.quality, $1.quality)) })
    }

    /// Walks two lists ascending by entity into one: `left` and `right` make the output of an
    /// element only one list has, `both` of an entity both have.
    static func mergeAscending<A, B, R>(_ a: [A], _ b: [B], key keyA: (A) -> UInt32, key keyB: (B) -> UInt32,
                                        left: (A) -> R, right: (B) -> R, both: (A, B) -> R) -> [R] {
        var out: [R] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && keyA(a[i]) < keyB(b[j])) {
                out.append(left(a[i])); i += 1
            } else if i == a.count || keyB(b[j]) < keyA(a[i]) {
                out.append(right(b[j])); j += 1
            } else {
                out.append(both(a[i], b[j])); i += 1; j += 1
            }
        }
        return out
    }

    /// About the `k`-th largest of `values` in 0…1 (the lower edge of its histogram bucket).
    static func kthLargest(_ values: [Float], _ k: Int) -> Float {
        guard values.count > k else { return 0 }
        var histogram = [Int](repeating: 0, count: 256)
        for value in values { histogram[min(255, max(0, Int(value * 255)))] += 1 }
        var seen = 0
        for bucket in stride(from: 255, through: 0, by: -1) {
            seen += histogram[bucket]
            if seen >= k { return Float(bucket) / 255 }
        }
        return 0
    }

    /// The type row whose designator is the query, if any.
    func exactDesignatorRow() -> Int? {
        guard (2...4).contains(query.compact.count) else { return nil }
        return query.compact.withUnsafeBytes { index.typeDesignators.find($0) }
    }

    /// The text an entity's own words come from, with its padding (nil for a row outside its table).
    func ownText(_ entity: Entity) -> UnsafeRawBufferPointer? {
        switch entity.kind {
        case .type?: return entity.row < index.typeCount ? index.typeNames.paddedBytes(entity.row) : nil
        case .model?: return entity.row < index.modelCount ? index.modelNames.paddedBytes(entity.row) : nil
        case .manufacturer?: return entity.row < index.manufacturerCount ? index.manufacturerNames.paddedBytes(entity.row) : nil
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
            // Numbers as long, with the stem: `823`, `890` for `800`. (`8H4` is found by its
            // other words and scored in full: the stem alone, `8`, is in too many names.)
            let rows = Array(stem).withUnsafeBytes { stemBytes -> [Int] in
                var rows: [Int] = []
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
        list.reserveCapacity(list.count + min(count, budget, postings.count - min(position, postings.count)))
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

    /// Every entity holding a match of any of `words`: its summed quality and which words (bit per word).
    private func merged(_ words: [Int]) -> [Entry] {
        var entries: [Entry] = []
        for word in words {
            let bit = UInt32(1) << UInt32(word)
            entries = Self.mergeAscending(entries, perWord[word], key: \.entity, key: \.entity, left: { $0 },
                                          right: { Entry(entity: $0.entity, score: $0.quality, mask: bit) },
                                          both: { Entry(entity: $0.entity, score: $0.score + $1.quality, mask: $0.mask | bit) })
        }
        return entries
    }

    /// Adds to each model the words its manufacturer holds and the model does not (looked up in
    /// each word's list, whose manufacturers come last); marks them in the high half of the mask.
    private func creditManufacturers(_ entries: inout [Entry]) {
        let manufacturers = perWord.map { list in list[(list.firstIndex { $0.entity >> 30 == 2 } ?? list.count)...] }
        guard manufacturers.contains(where: { !$0.isEmpty }) else { return }
        for i in entries.indices where entries[i].entity >> 30 == 1 {
            let row = Int(entries[i].entity & 0x3FFF_FFFF)
            let manufacturer = Entity(kind: .manufacturer, row: Int(index.modelManufacturers.value(row, .value) & 0x3FFF_FFFF)).rawValue
            for (word, list) in manufacturers.enumerated() where !list.isEmpty && entries[i].mask & (1 << UInt32(word)) == 0 {
                let quality = Self.quality(of: manufacturer, in: list)
                if quality > 0 {
                    entries[i].score += quality
                    entries[i].mask |= 1 << UInt32(16 + word)
                }
            }
        }
    }

    private static func quality(of entity: UInt32, in list: ArraySlice<(entity: UInt32, quality: Float)>) -> Float {
        var low = list.startIndex, high = list.endIndex
        while low < high {
            let mid = (low + high) / 2
            if list[mid].entity < entity { low = mid + 1 } else { high = mid }
        }
        return low < list.endIndex && list[low].entity == entity ? list[low].quality : 0
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
