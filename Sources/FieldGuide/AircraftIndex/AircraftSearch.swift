import FieldGuideArtifact
import FieldGuideDiagnostics

/// One result of ``AircraftIndex/search(_:limit:kinds:)``: a type designator, a model or a
/// manufacturer, its score (1 for an exact designator or name, below 1 otherwise) and the
/// words that matched.
public struct AircraftSearchResult: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable { case type, model, manufacturer }
    /// What made a result exact: the query is its designator, or its name (case, punctuation
    /// and spacing aside; for a model, its model name or manufacturer and model name).
    public enum Exact: String, Sendable, Codable { case designator, name }

    public let kind: Kind
    public let score: Double
    public let exact: Exact?
    /// The type's designator (types).
    public let designator: String?
    /// The type's or the manufacturer's name.
    public let name: String?
    /// The model's ACFTREF code, manufacturer and model name (models).
    public let code: String?
    public let manufacturer: String?
    public let model: String?
    /// Each query word with what it matched, and how.
    public let matches: [AircraftSearchMatch]

    /// One line: `B738  BOEING 737-800`, `CESSNA 182P (2075816)`, `CESSNA (manufacturer)`.
    public var title: String {
        switch kind {
        case .type: return "\(designator ?? "")  \(name ?? "")"
        case .model: return "\(manufacturer ?? "") \(model ?? "") (\(code ?? ""))"
        case .manufacturer: return "\(name ?? "") (manufacturer)"
        }
    }
}

/// A query word and what it matched in a result.
public struct AircraftSearchMatch: Sendable, Hashable, Codable {
    public enum How: String, Sendable, Codable {
        /// The same word.
        case exact
        /// The start of a longer word (`CESS` → `CESSNA`).
        case prefix
        /// One letter wrong, missing, extra or swapped, in a word of five letters or more.
        case typo
        /// A series number: `800` → `8H4` or `823` (Boeing's 737-8xx are 737-800s).
        case series
    }

    /// The field of the result: `name`, `manufacturer` or `model`.
    public let field: String
    /// The query word, folded.
    public let word: String
    /// What it matched, folded.
    public let found: String
    public let how: How
}

extension AircraftIndex {
    /// Longest query accepted (bytes) and most words: past either, the query is a usage error.
    public static let maximumQueryLength = 256
    public static let maximumQueryWords = 16
    /// The most results one search gives: a larger `limit` reads as this (the real index has
    /// 2,788 types, 94,069 models and 48,794 manufacturers, of which a query ranks a few).
    public static let maximumResults = 10_000

    /// Ranked type designators, models and manufacturers for free text as a person or an image
    /// recognizer writes it. Case, punctuation, hyphens and spacing do not matter (`SR22` finds
    /// `SR-22`); a word of five letters or more may have one typo; a query that is a
    /// designator or a name exactly ranks first.
    ///
    /// The dictionary and its postings were made when the index was built: a query reads the
    /// postings of its words, ranks the entities holding them, and scores the best few in full.
    /// Text with no letter or digit is a usage error (``LocatedError`` of kind `usage`).
    ///
    /// ```swift
    /// try index.search("Boeng 737-800").first?.designator   // "B738" (one typo in "Boeing")
    /// try index.search("Cessna 172S", kinds: [.model]).first?.code
    /// ```
    public func search(_ text: String, limit: Int = 10, kinds: Set<AircraftSearchResult.Kind> = Set(AircraftSearchResult.Kind.allCases)) throws(LocatedError) -> [AircraftSearchResult] {
        let limit = min(max(0, limit), Self.maximumResults)   // `limit * 3` below overflowed past Int.max / 3
        let query = try SearchQuery(text)
        let candidates = SearchCandidates(index: self, query: query)
        let scoring = SearchScoring(index: self, query: query)
        let evaluations = candidates.best(count: max(32, limit * 3), kinds: kinds).compactMap(scoring.evaluate)
        // Positions sorted by plain keys, not the evaluations: they hold arrays, and moving them costs.
        let keys = evaluations.map(SearchScoring.RankKey.init)
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        return order.prefix(limit).map { scoring.result(evaluations[$0]) }
    }
}

/// A query cut into atoms (`SearchText`), with its bounds checked.
struct SearchQuery {
    let tokens: SearchText.Tokens
    let words: [[UInt8]]
    let compact: [UInt8]

    init(_ text: String) throws(LocatedError) {
        guard text.utf8.count <= AircraftIndex.maximumQueryLength else {
            throw LocatedError(.usage, file: "", field: "query", expected: "at most \(AircraftIndex.maximumQueryLength) bytes",
                               found: "\(text.utf8.count) bytes", message: "the search text is too long")
        }
        let tokens = SearchText.Tokens(text)
        self.tokens = tokens
        guard !tokens.atoms.isEmpty else {
            throw LocatedError(.usage, file: "", field: "query", expected: "letters or digits", found: "\"\(text)\"",
                               message: "nothing to search for")
        }
        guard tokens.atoms.count <= AircraftIndex.maximumQueryWords else {
            throw LocatedError(.usage, file: "", field: "query", expected: "at most \(AircraftIndex.maximumQueryWords) words",
                               found: "\(tokens.atoms.count)", message: "the search text has too many words")
        }
        words = tokens.atoms.map { Array(tokens[$0]) }
        compact = tokens.compact
    }

    /// Whether word `i` may match as the start of a longer word: letters, three or more, or
    /// two when it is the last word (still being typed).
    func allowsPrefix(_ i: Int) -> Bool {
        !tokens.atoms[i].isDigits && (words[i].count >= 3 || (i == words.count - 1 && words[i].count >= 2))
    }

    /// Whether word `i` may have one typo: letters, five or more.
    func allowsTypo(_ i: Int) -> Bool { !tokens.atoms[i].isDigits && words[i].count >= 5 }

    /// The leading digits of a series number (`800` → `8`, `1900` → `19`), or nil.
    func seriesStem(_ i: Int) -> ArraySlice<UInt8>? {
        let word = words[i]
        guard tokens.atoms[i].isDigits, word.count >= 3, word.suffix(2) == [0x30, 0x30] else { return nil }
        var end = word.count
        while end > 0 && word[end - 1] == 0x30 { end -= 1 }
        return end > 0 ? word[0..<end] : nil
    }
}

/// Quality of each kind of word match.
enum MatchQuality {
    static func of(_ how: AircraftSearchMatch.How) -> Float {
        switch how {
        case .exact: return 1
        case .prefix: return 0.8
        case .typo: return 0.7
        case .series: return 0.6
        }
    }
}
