import FieldGuideArtifact

/// The second pass of a search: one candidate scored in full against the query.
///
/// Each query word takes its best match among the candidate's words (exact 1, prefix 0.8, one
/// typo 0.7, series 0.6); the score is 0.75 × the query's share matched + 0.25 × the
/// candidate's share of words matched, below 1 unless the query is the candidate's designator
/// or name exactly (then 1).
///
/// ```swift
/// SearchScoring(index: index, query: try SearchQuery("Cirrus SR22")).score(.init(kind: .type, row: row))?.score   // 1.0
/// ```
struct SearchScoring {
    typealias Entity = AircraftIndexSchema.SearchEntity
    let index: AircraftIndex
    let query: SearchQuery

    /// A candidate field: its name in results and its words.
    private struct Field {
        let name: String
        let tokens: SearchText.Tokens
    }

    func score(_ entity: Entity) -> AircraftSearchResult? {
        switch entity.kind {
        case .type?:
            guard entity.row < index.typeCount else { return nil }
            let designator = index.typeDesignators.string(entity.row), name = index.typeNames.bytes(entity.row)
            let fields = [Field(name: "name", tokens: .init(name))]
            let exact: AircraftSearchResult.Exact? = Array(designator.utf8) == query.compact ? .designator
                : fields[0].tokens.compact == query.compact ? .name : nil
            return result(fields, exact: exact) { score, matches in
                AircraftSearchResult(kind: .type, score: score, exact: exact, designator: designator, name: String(decoding: name, as: UTF8.self),
                                     code: nil, manufacturer: nil, model: nil, matches: matches)
            }
        case .model?:
            guard entity.row < index.modelCount else { return nil }
            let model = IndexModel(index: index, row: entity.row)
            let fields = [Field(name: "manufacturer", tokens: .init(index.manufacturerNames.bytes(model.manufacturerRow))),
                          Field(name: "model", tokens: .init(index.modelNames.bytes(entity.row)))]
            let exact: AircraftSearchResult.Exact? = fields[1].tokens.compact == query.compact
                || fields[0].tokens.compact + fields[1].tokens.compact == query.compact ? .name : nil
            return result(fields, exact: exact) { score, matches in
                AircraftSearchResult(kind: .model, score: score, exact: exact, designator: nil, name: nil, code: model.code,
                                     manufacturer: model.manufacturer, model: model.model, matches: matches)
            }
        case .manufacturer?:
            guard entity.row < index.manufacturerCount else { return nil }
            let name = index.manufacturerNames.bytes(entity.row)
            let fields = [Field(name: "name", tokens: .init(name))]
            let exact: AircraftSearchResult.Exact? = fields[0].tokens.compact == query.compact ? .name : nil
            return result(fields, exact: exact) { score, matches in
                AircraftSearchResult(kind: .manufacturer, score: score, exact: exact, designator: nil, name: String(decoding: name, as: UTF8.self),
                                     code: nil, manufacturer: nil, model: nil, matches: matches)
            }
        case nil:
            return nil
        }
    }

    /// Scores the fields, then makes the result; nil when no query word matches at all.
    private func result(_ fields: [Field], exact: AircraftSearchResult.Exact?,
                        _ make: (Double, [AircraftSearchMatch]) -> AircraftSearchResult) -> AircraftSearchResult? {
        var matched = fields.map { [Bool](repeating: false, count: $0.tokens.atoms.count) }
        var total: Float = 0
        var matches: [AircraftSearchMatch] = []
        for word in query.words.indices {
            guard let best = bestMatch(word, in: fields) else { continue }
            total += MatchQuality.of(best.how)
            for atom in best.atoms { matched[best.field][atom] = true }
            matches.append(AircraftSearchMatch(field: fields[best.field].name, word: String(decoding: query.words[word], as: UTF8.self),
                                               found: best.found, how: best.how))
        }
        guard total > 0 || exact != nil else { return nil }
        let candidateWords = matched.reduce(0) { $0 + $1.count }
        let covered = matched.reduce(0) { $0 + $1.filter { $0 }.count }
        let share = candidateWords == 0 ? 0 : Float(covered) / Float(candidateWords)
        var score = Double(0.75 * total / Float(query.words.count) + 0.25 * share)
        score = exact != nil ? 1 : min(0.99, (score * 1000).rounded() / 1000)
        return make(score, matches)
    }

    /// The best match of query word `i` in the fields: which field, which of its atoms, the
    /// text matched and how.
    private func bestMatch(_ i: Int, in fields: [Field]) -> (field: Int, atoms: [Int], found: String, how: AircraftSearchMatch.How)? {
        let word = query.words[i]
        var best: (field: Int, atoms: [Int], found: String, how: AircraftSearchMatch.How)?
        func offer(_ field: Int, _ atoms: [Int], _ found: ArraySlice<UInt8>, _ how: AircraftSearchMatch.How) {
            if best == nil || MatchQuality.of(how) > MatchQuality.of(best!.how) {
                best = (field, atoms, String(decoding: found, as: UTF8.self), how)
            }
        }
        let stem = query.seriesStem(i)
        for (f, field) in fields.enumerated() {
            let tokens = field.tokens
            for (a, atom) in tokens.atoms.enumerated() {
                let text = tokens[atom]
                if text.elementsEqual(word) {
                    offer(f, [a], text, .exact)
                } else if query.allowsPrefix(i) && !atom.isDigits && text.count > word.count && text.starts(with: word) {
                    offer(f, [a], text, .prefix)
                } else if query.allowsTypo(i) && !atom.isDigits && SearchText.withinOneEdit(word[...], text) {
                    offer(f, [a], text, .typo)
                }
            }
            if let stem, best.map({ MatchQuality.of($0.how) < MatchQuality.of(.series) }) ?? true {
                // A segment as long as the series number, starting with its stem: `8H4`, `823` for `800`.
                for segment in 0..<tokens.segmentCount {
                    let members = tokens.atoms.indices.filter { tokens.atoms[$0].segment == segment }
                    let text = tokens.bytes[tokens.atoms[members.first!].start..<tokens.atoms[members.last!].end]
                    if text.count == word.count && text.starts(with: stem) && !text.elementsEqual(word) {
                        offer(f, members, text, .series)
                    }
                }
            }
        }
        return best
    }
}
