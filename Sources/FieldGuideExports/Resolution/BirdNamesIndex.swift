import FieldGuide
import FieldGuideArtifact

/// A taxon a names index found, as name resolution uses it.
struct IndexedTaxon: Sendable {
    var speciesCode: String
    /// The seed bird's common name when the taxon has a seed bird, else the taxon's.
    var commonName: String
    var scientificName: String
    var isSeedBird: Bool
}

/// What bird name resolution reads, from a birds artifact (`BirdsBundleNames`) or from the
/// birds hand-off (`BirdHandOffNames`); both resolve through the one ranking below.
///
/// A name any form matches (common, scientific, species code, a localized name) resolves when
/// it names one taxon; several make it ambiguous, ranked by presence at hotspots near the
/// observation in its week, then seed birds first. A name nothing matches gets suggestions:
/// seed birds whose names contain one of its words, ranked the same way ("Coot" → Eurasian
/// Coot before Red-knobbed Coot where the first is seen).
///
/// ```swift
/// let names: any BirdNameResolving = try BirdHandOffNames(handOff: "output/stage/birds")
/// names.resolve(BirdNameQuery(name: "Haussperling"))   // .resolved(House Sparrow)
/// ```
protocol BirdNamesIndex: BirdNameResolving {
    /// How far around the observation hotspots count for ranking.
    var rankingRadiusKm: Double { get }
    /// Taxa with a name equal to `text` (case- and diacritic-insensitively): seed birds first,
    /// then in taxon order.
    func taxa(named text: String) -> [IndexedTaxon]
    /// Every seed bird, in the artifact's species order (common name, then bird id).
    var seedBirds: [IndexedTaxon] { get }
    /// Seed birds listed at hotspots within `radiusKm` of a valid point, present in `week`:
    /// (species code, best probability), by probability then species order; none for a point
    /// out of range.
    func presence(near point: (latitude: Double, longitude: Double), radiusKm: Double, week: Int?) -> [(speciesCode: String, probability: Int)]
}

extension BirdNamesIndex {
    /// The answer for one name (each index's `resolve`).
    func rankedMatch(_ query: BirdNameQuery) -> BirdNameMatch {
        var hits = taxa(named: query.name)
        if hits.isEmpty, let scientific = query.scientificName, !scientific.isEmpty {
            hits = taxa(named: scientific)
        }
        let presence = nearbyProbability(query)
        if hits.count == 1 { return .resolved(candidate(hits[0], presence)) }
        if hits.count > 1 { return .ambiguous(rank(hits.map { candidate($0, presence) })) }
        return .unknown(suggestions: suggestions(for: query.name, presence))
    }

    private func candidate(_ taxon: IndexedTaxon, _ presence: [String: Int]) -> BirdNameCandidate {
        BirdNameCandidate(speciesCode: taxon.speciesCode, commonName: taxon.commonName, scientificName: taxon.scientificName,
                          score: presence[taxon.speciesCode].map(Double.init) ?? (taxon.isSeedBird ? 0 : nil))
    }

    private func rank(_ candidates: [BirdNameCandidate]) -> [BirdNameCandidate] {
        candidates.sorted { ($0.score ?? -1, $1.commonName) > ($1.score ?? -1, $0.commonName) }
    }

    /// Seed birds whose names contain the name's head noun, ranked.
    private func suggestions(for name: String, _ presence: [String: Int]) -> [BirdNameCandidate] {
        let words = Self.headNouns(name)
        guard !words.isEmpty else { return [] }
        let matches = seedBirds.filter { bird in
            let names = NameFolding.fold(bird.commonName + " " + bird.scientificName)
            return words.contains { names.contains($0) }
        }
        let candidates = matches.map { bird in
            BirdNameCandidate(speciesCode: bird.speciesCode, commonName: bird.commonName, scientificName: bird.scientificName,
                              score: presence[bird.speciesCode].map(Double.init) ?? 0)
        }
        return Array(rank(candidates).prefix(5))
    }

    /// The words that say what kind of bird a name is: the last word of an English name,
    /// ignoring parentheses ("Eurasian Wren" → WREN); both parents of a hybrid ("Mallard x
    /// American Black Duck" → MALLARD, DUCK); the shared noun of a slash ("Downy/Hairy
    /// Woodpecker" → WOODPECKER). Folded; three letters or more.
    static func headNouns(_ name: String) -> [String] {
        let folded = NameFolding.fold(name)
        let withoutNotes = folded.split(separator: "(").first.map(String.init) ?? folded
        let parents = withoutNotes.components(separatedBy: " X ")
        return parents.compactMap { parent -> String? in
            let lastAlternative = parent.split(separator: "/").last.map(String.init) ?? parent
            return lastAlternative.split { !$0.isLetter }.last.map(String.init)
        }.filter { $0.count >= 3 }
    }

    /// Species code → best hotspot probability near the observation in its week.
    private func nearbyProbability(_ query: BirdNameQuery) -> [String: Int] {
        guard let position = query.position else { return [:] }
        let week = query.date.flatMap(Self.week(ofISODate:))
        var result: [String: Int] = [:]
        for entry in presence(near: (position.latitude, position.longitude), radiusKm: rankingRadiusKm, week: week)
        where !entry.speciesCode.isEmpty {
            result[entry.speciesCode] = entry.probability
        }
        return result
    }

    /// Week 1–53 of a `YYYY-MM-DD` date, as the birds artifact counts it.
    static func week(ofISODate text: String) -> Int? { BirdsSchema.monthAndWeek(ofISODate: text)?.week }
}
