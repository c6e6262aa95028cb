/// Resolves a bird name to a species: the interface the names index (issue 4) implements.
///
/// The ingest asks once per distinct subject, with the place and date of its first
/// observation so that an implementation can rank suggestions by region and season. Until an
/// index is supplied, every bird subject is reported `unresolved` with the reason
/// `no names index loaded`.
///
/// ```swift
/// struct Fixed: BirdNameResolving {
///     func resolve(_ query: BirdNameQuery) -> BirdNameMatch {
///         query.name == "Grey Heron" ? .resolved(BirdNameCandidate(speciesCode: "graher1", commonName: "Grey Heron", scientificName: "Ardea cinerea"))
///                                    : .unknown(suggestions: [])
///     }
/// }
/// let options = ExportsIngest.Options(birdNames: Fixed())
/// ```
public protocol BirdNameResolving: Sendable {
    /// What the index calls itself in reports (`names index 2024, en/de/es/fr/ja`).
    var description: String { get }
    func resolve(_ query: BirdNameQuery) -> BirdNameMatch
}

extension BirdNameResolving {
    public var description: String { String(describing: Self.self) }
}

/// A bird name to resolve, with what is known of where and when it was seen.
public struct BirdNameQuery: Sendable, Hashable {
    /// The name as written: common name in any language, scientific name, or species code.
    public var name: String
    /// The scientific name when the export gave one besides (`Branta canadensis`).
    public var scientificName: String?
    public var position: Coordinate?
    /// The local civil date (`2025-11-24`), for season ranking.
    public var date: String?

    public init(name: String, scientificName: String? = nil, position: Coordinate? = nil, date: String? = nil) {
        self.name = name
        self.scientificName = scientificName
        self.position = position
        self.date = date
    }
}

/// A species an index offers.
public struct BirdNameCandidate: Sendable, Hashable, Codable {
    public var speciesCode: String
    public var commonName: String
    public var scientificName: String
    /// Higher is likelier (region/season ranking); nil when unranked.
    public var score: Double?

    public init(speciesCode: String, commonName: String, scientificName: String, score: Double? = nil) {
        self.speciesCode = speciesCode
        self.commonName = commonName
        self.scientificName = scientificName
        self.score = score
    }
}

/// The answer for one name.
public enum BirdNameMatch: Sendable, Hashable {
    case resolved(BirdNameCandidate)
    /// Several species fit ("Coot"): ranked, most likely first.
    case ambiguous([BirdNameCandidate])
    /// Nothing fits; ranked suggestions, possibly none.
    case unknown(suggestions: [BirdNameCandidate])
}
