import FieldGuideArtifact

/// The second pass of a search: candidates scored in full against the query, then the best
/// made into results.
///
/// Each query word takes its best match among the candidate's words (exact 1, prefix 0.8, one
/// typo 0.7, series 0.6); the score is 0.75 × the query's share matched + 0.25 × the
/// candidate's share of words matched, below 1 unless the query is the candidate's designator
/// or name exactly (then 1). Scoring builds no text: only the results returned get their strings.
///
/// ```swift
/// let scoring = SearchScoring(index: index, query: try SearchQuery("Cirrus SR22"))
/// scoring.evaluate(.init(kind: .type, row: row)).map(scoring.result)?.score   // 1.0
/// ```
struct SearchScoring {
    typealias Entity = AircraftIndexSchema.SearchEntity
    let index: AircraftIndex
    let query: SearchQuery

    /// A candidate field: its name in results and its words.
    struct Field {
        let name: String
        let tokens: SearchText.Tokens
    }

    /// A query word's best match: the field, the candidate's atoms it covers, how.
    struct WordMatch {
        let word: Int
        let field: Int
        let atoms: Range<Int>
        let how: AircraftSearchMatch.How
    }

    /// A candidate scored: enough to rank it and, if it is kept, to make its result.
    struct Evaluation {
        let entity: Entity
        let score: Double
        let exact: AircraftSearchResult.Exact?
        let fields: [Field]
        let matches: [WordMatch]
        /// The bytes its title sorts by (ties of score, exactness and kind).
        let sortKey: [UInt8]
    }

    func evaluate(_ entity: Entity) -> Evaluation? {
        let fields: [Field], exact: AircraftSearchResult.Exact?, sortKey: [UInt8]
        switch entity.kind {
        case .type?:
            guard entity.row < index.typeCount else { return nil }
            let designator = index.typeDesignators.bytes(entity.row)
            fields = [Field(name: "name", tokens: .init(index.typeNames.bytes(entity.row)))]
            exact = designator.elementsEqual(query.compact) ? .designator : fields[0].tokens.compactEquals(query.compact) ? .name : nil
            sortKey = Array(designator)
        case .model?:
            guard entity.row < index.modelCount else { return nil }
            let manufacturer = index.manufacturerNames.bytes(Int(index.modelManufacturers.value(entity.row, .value)))
            let model = index.modelNames.bytes(entity.row)
            fields = [Field(name: "manufacturer", tokens: .init(manufacturer)), Field(name: "model", tokens: .init(model))]
            exact = fields[1].tokens.compactEquals(query.compact) || fields[0].tokens.compactEquals(query.compact, followedBy: fields[1].tokens)
                ? .name : nil
            sortKey = Array(manufacturer) + [0x20] + Array(model) + [0x20] + Array(index.modelCodes.bytes(entity.row))
        case .manufacturer?:
            guard entity.row < index.manufacturerCount else { return nil }
            let name = index.manufacturerNames.bytes(entity.row)
            fields = [Field(name: "name", tokens: .init(name))]
            exact = fields[0].tokens.compactEquals(query.compact) ? .name : nil
            sortKey = Array(name)
        case nil:
            return nil
        }
        var matched = fields.map { [Bool](repeating: false, count: $0.tokens.atoms.count) }
        var total: Float = 0
        var matches: [WordMatch] = []
        for word in query.words.indices {
            guard let best = bestMatch(word, in: fields) else { continue }
            total += MatchQuality.of(best.how)
            for atom in best.atoms { matched[best.field][atom] = true }
            matches.append(best)
        }
        guard total > 0 || exact != nil else { return nil }
        let candidateWords = matched.reduce(0) { $0 + $1.count }
        let covered = matched.reduce(0) { $0 + $1.filter { $0 }.count }
        let share = candidateWords == 0 ? 0 : Float(covered) / Float(candidateWords)
        let score = Double(0.75 * total / Float(query.words.count) + 0.25 * share)
        return Evaluation(entity: entity, score: exact != nil ? 1 : min(0.99, (score * 1000).rounded() / 1000), exact: exact,
                          fields: fields, matches: matches, sortKey: sortKey)
    }

    /// Result order: score, an exact designator before an exact name, types before models before
    /// manufacturers, then by title.
    struct RankKey: Comparable {
        let score: Double
        let designator: Bool
        let kind: UInt32
        let title: [UInt8]

        init(_ e: Evaluation) {
            score = e.score
            designator = e.exact == .designator
            kind = e.entity.rawValue >> 30
            title = e.sortKey
        }

        static func < (a: RankKey, b: RankKey) -> Bool {
            if a.score != b.score { return a.score > b.score }
            if a.designator != b.designator { return a.designator }
            if a.kind != b.kind { return a.kind < b.kind }
            return a.title.lexicographicallyPrecedes(b.title)
        }
    }

    /// The result of an evaluated candidate, its text read now.
    func result(_ e: Evaluation) -> AircraftSearchResult {
        let matches = e.matches.map { m in
            let tokens = e.fields[m.field].tokens
            let found = tokens.bytes[tokens.atoms[m.atoms.lowerBound].start..<tokens.atoms[m.atoms.upperBound - 1].end]
            return AircraftSearchMatch(field: e.fields[m.field].name, word: String(decoding: query.words[m.word], as: UTF8.self),
                                       found: String(decoding: found, as: UTF8.self), how: m.how)
        }
        let row = e.entity.row
        switch e.entity.kind {
        case .type?:
            return AircraftSearchResult(kind: .type, score: e.score, exact: e.exact, designator: index.typeDesignators.string(row),
                                        name: index.typeNames.string(row), code: nil, manufacturer: nil, model: nil, matches: matches)
        case .model?:
            let model = IndexModel(index: index, row: row)
            return AircraftSearchResult(kind: .model, score: e.score, exact: e.exact, designator: nil, name: nil, code: model.code,
                                        manufacturer: model.manufacturer, model: model.model, matches: matches)
        default:
            return AircraftSearchResult(kind: .manufacturer, score: e.score, exact: e.exact, designator: nil,
                                        name: index.manufacturerNames.string(row), code: nil, manufacturer: nil, model: nil, matches: matches)
        }
    }

    /// The best match of query word `i` in the fields.
    private func bestMatch(_ i: Int, in fields: [Field]) -> WordMatch? {
        let word = query.words[i]
        var best: WordMatch?
        func offer(_ field: Int, _ atoms: Range<Int>, _ how: AircraftSearchMatch.How) {
            if best == nil || MatchQuality.of(how) > MatchQuality.of(best!.how) { best = WordMatch(word: i, field: field, atoms: atoms, how: how) }
        }
        let prefix = query.allowsPrefix(i), typo = query.allowsTypo(i)
        for (f, field) in fields.enumerated() {
            let tokens = field.tokens
            for (a, atom) in tokens.atoms.enumerated() {
                let text = tokens[atom]
                if text.elementsEqual(word) {
                    offer(f, a..<a + 1, .exact)
                    if best?.how == .exact { return best }
                } else if prefix && !atom.isDigits && text.count > word.count && text.starts(with: word) {
                    offer(f, a..<a + 1, .prefix)
                } else if typo && !atom.isDigits && abs(text.count - word.count) <= 1 && SearchText.withinOneEdit(word[...], text) {
                    offer(f, a..<a + 1, .typo)
                }
            }
        }
        if let stem = query.seriesStem(i), best.map({ MatchQuality.of($0.how) < MatchQuality.of(.series) }) ?? true {
            // A segment as long as the series number, starting with its stem: `8H4`, `823` for `800`.
            for (f, field) in fields.enumerated() {
                let tokens = field.tokens
                var a = 0
                while a < tokens.atoms.count {
                    var end = a + 1
                    while end < tokens.atoms.count && tokens.atoms[end].segment == tokens.atoms[a].segment { end += 1 }
                    let text = tokens.bytes[tokens.atoms[a].start..<tokens.atoms[end - 1].end]
                    if text.count == word.count && text.starts(with: stem) && !text.elementsEqual(word) { offer(f, a..<end, .series) }
                    a = end
                }
            }
        }
        return best
    }
}
