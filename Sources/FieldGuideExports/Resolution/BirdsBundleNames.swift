import FieldGuide
import FieldGuideArtifact
import Foundation

/// Resolves bird names through the birds artifact's names index (`birds.fgb`).
///
/// A name any form matches (common, scientific, species code, a localized name) resolves when
/// it names one taxon; several make it ambiguous, ranked by presence at hotspots near the
/// observation in its week, then seed birds first. A name nothing matches gets suggestions:
/// seed birds whose names contain one of its words, ranked the same way ("Coot" → Eurasian
/// Coot before Red-knobbed Coot where the first is seen).
///
/// ```swift
/// let names = BirdsBundleNames(bundle: try BirdsBundle(path: "output/birds.fgb"), source: "output/birds.fgb")
/// names.resolve(BirdNameQuery(name: "Haussperling"))   // .resolved(House Sparrow)
/// ```
public struct BirdsBundleNames: BirdNameResolving {
    public let bundle: BirdsBundle
    public let source: String
    /// How far around the observation hotspots count for ranking.
    public var rankingRadiusKm: Double = 50

    public init(bundle: BirdsBundle, source: String) {
        self.bundle = bundle
        self.source = source
    }

    public var description: String { "names index \(source) (\(bundle.speciesCount) species)" }

    public func resolve(_ query: BirdNameQuery) -> BirdNameMatch {
        var hits = bundle.species(named: query.name)
        if hits.isEmpty, let scientific = query.scientificName, !scientific.isEmpty {
            hits = bundle.species(named: scientific)
        }
        let presence = nearbyProbability(query)
        if hits.count == 1 { return .resolved(candidate(hits[0].taxon, presence)) }
        if hits.count > 1 { return .ambiguous(rank(hits.map { candidate($0.taxon, presence) })) }
        return .unknown(suggestions: suggestions(for: query.name, presence))
    }

    private func candidate(_ taxon: TaxonRecord, _ presence: [String: Int]) -> BirdNameCandidate {
        let name = taxon.bird?.commonName ?? taxon.commonName
        return BirdNameCandidate(speciesCode: taxon.speciesCode, commonName: name, scientificName: taxon.scientificName,
                                 score: presence[taxon.speciesCode].map(Double.init) ?? (taxon.bird != nil ? 0 : nil))
    }

    private func rank(_ candidates: [BirdNameCandidate]) -> [BirdNameCandidate] {
        candidates.sorted { ($0.score ?? -1, $1.commonName) > ($1.score ?? -1, $0.commonName) }
    }

    /// Seed birds whose names contain the name's head noun, ranked.
    private func suggestions(for name: String, _ presence: [String: Int]) -> [BirdNameCandidate] {
        let words = Self.headNouns(name)
        guard !words.isEmpty else { return [] }
        let matches = bundle.allSpecies.filter { bird in
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
        let nearby = (try? bundle.species(near: (position.latitude, position.longitude), radiusKm: rankingRadiusKm, week: week)) ?? []
        var result: [String: Int] = [:]
        for entry in nearby where !entry.bird.speciesCode.isEmpty { result[entry.bird.speciesCode] = entry.probability }
        return result
    }

    /// Week 1–53 of a `YYYY-MM-DD` date, as the birds artifact counts it.
    static func week(ofISODate text: String) -> Int? { BirdsSchema.monthAndWeek(ofISODate: text)?.week }
}
