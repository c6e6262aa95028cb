import FieldGuide
import FieldGuideArtifact
import Foundation

/// Resolves bird names through the birds artifact's names index (`birds.fgb`); the ranking is
/// `BirdNamesIndex`'s.
///
/// ```swift
/// let names = BirdsBundleNames(bundle: try BirdsBundle(path: "output/birds.fgb"), source: "output/birds.fgb")
/// names.resolve(BirdNameQuery(name: "Haussperling"))   // .resolved(House Sparrow)
/// ```
public struct BirdsBundleNames: BirdNameResolving, BirdNamesIndex {
    public let bundle: BirdsBundle
    public let source: String
    /// How far around the observation hotspots count for ranking.
    public var rankingRadiusKm: Double = 50

    public init(bundle: BirdsBundle, source: String) {
        self.bundle = bundle
        self.source = source
    }

    public var description: String { "names index \(source) (\(bundle.speciesCount) species)" }

    public func resolve(_ query: BirdNameQuery) -> BirdNameMatch { rankedMatch(query) }

    func taxa(named text: String) -> [IndexedTaxon] {
        bundle.species(named: text).map { hit in
            let taxon = hit.taxon, bird = taxon.bird
            return IndexedTaxon(speciesCode: taxon.speciesCode, commonName: bird?.commonName ?? taxon.commonName,
                                scientificName: taxon.scientificName, isSeedBird: bird != nil)
        }
    }

    var seedBirds: [IndexedTaxon] {
        bundle.allSpecies.map { IndexedTaxon(speciesCode: $0.speciesCode, commonName: $0.commonName, scientificName: $0.scientificName, isSeedBird: true) }
    }

    func presence(near point: (latitude: Double, longitude: Double), radiusKm: Double, week: Int?) -> [(speciesCode: String, probability: Int)] {
        let nearby = (try? bundle.species(near: point, radiusKm: radiusKm, week: week)) ?? []
        return nearby.map { ($0.bird.speciesCode, $0.probability) }
    }
}
