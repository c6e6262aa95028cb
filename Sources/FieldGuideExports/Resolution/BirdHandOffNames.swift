import FieldGuide
import FieldGuideArtifact
import FieldGuideBirds
import FieldGuideDiagnostics
import Foundation

/// Resolves bird names against the birds hand-off `ingest-birds` wrote (its `names.csv`,
/// `taxa.csv`, `species.csv` and hotspots): the same names, taxa and ranking as the birds
/// artifact emitted from it, without emitting one first. The ranking is `BirdNamesIndex`'s.
///
/// ```swift
/// let names = try BirdHandOffNames(handOff: "output/stage/birds")
/// names.resolve(BirdNameQuery(name: "Grey Heron", scientificName: "Ardea cinerea"))   // .resolved(Gray Heron, graher1)
/// ```
public struct BirdHandOffNames: BirdNameResolving, BirdNamesIndex {
    typealias N = NormalizedBirds
    public let source: String
    /// How far around the observation hotspots count for ranking.
    public var rankingRadiusKm: Double = 50

    private let taxa: [IndexedTaxon]
    private let taxaByFoldedName: [String: [Int]]
    let seedBirds: [IndexedTaxon]
    /// Per hotspot: its position (as the artifact stores it) and its seed birds (species order
    /// index), probability and weeks.
    private let hotspots: [(latitude: Double, longitude: Double, species: [(bird: Int, probability: Int, weeks: Set<Int>)])]

    /// The hand-off files the names are read from.
    static let files = [N.SpeciesColumn.file, N.TaxonColumn.file, N.NameColumn.file, N.HotspotColumn.file, N.HotspotSpeciesColumn.file]

    /// Reads the hand-off in `handOff`, after checking its report and hashes (`HandOff`, as
    /// `emit-birds` does).
    public init(handOff: String) throws(LocatedError) {
        source = handOff
        _ = try N.handOff(in: handOff, reading: Self.files)
        var birds: [(id: String, taxon: IndexedTaxon)] = []
        try N.read(N.SpeciesColumn.self, in: handOff) { row in
            birds.append((row[.birdID], IndexedTaxon(speciesCode: row[.speciesCode], commonName: row[.commonName],
                                                     scientificName: row[.scientificName], isSeedBird: true)))
        }
        birds.sort { LinkedTaxa.speciesPrecede(($0.taxon.commonName, $0.id), ($1.taxon.commonName, $1.id)) }
        var birdByID: [String: Int] = [:]
        for (index, bird) in birds.enumerated() where birdByID[bird.id] == nil { birdByID[bird.id] = index }
        seedBirds = birds.map(\.taxon)

        let linked = try LinkedTaxa.read(from: handOff, reading: [.names])
        taxa = linked.taxa.map { taxon in
            let bird = taxon.birdIDs.first.flatMap { birdByID[$0] }.map { birds[$0].taxon }
            return IndexedTaxon(speciesCode: taxon.speciesCode, commonName: bird?.commonName ?? taxon.commonName,
                                scientificName: taxon.scientificName, isSeedBird: bird != nil)
        }
        var byName: [String: [Int]] = [:]
        for name in linked.names { byName[name.folded, default: []].append(name.taxon) }
        taxaByFoldedName = byName
        hotspots = try Self.readHotspots(handOff, birdByID: birdByID)
    }

    public var description: String { "names index \(source) (\(seedBirds.count) species)" }

    public func resolve(_ query: BirdNameQuery) -> BirdNameMatch { rankedMatch(query) }

    func taxa(named text: String) -> [IndexedTaxon] {
        let folded = NameFolding.fold(text.trimmingCharacters(in: .whitespaces))
        guard !folded.isEmpty else { return [] }
        var rows: [Int] = []
        for row in taxaByFoldedName[folded] ?? [] where !rows.contains(row) { rows.append(row) }
        return rows.sorted { (taxa[$0].isSeedBird ? 0 : 1, $0) < (taxa[$1].isSeedBird ? 0 : 1, $1) }.map { taxa[$0] }
    }

    func presence(near point: (latitude: Double, longitude: Double), radiusKm: Double, week: Int?) -> [(speciesCode: String, probability: Int)] {
        guard point.latitude.isFinite, (-90...90).contains(point.latitude), point.longitude.isFinite, (-180...180).contains(point.longitude),
              radiusKm.isFinite, radiusKm > 0, radiusKm <= 500, week.map({ (1...53).contains($0) }) ?? true else { return [] }
        var best: [Int: Int] = [:]
        for spot in hotspots where BirdsBundle.distanceKm(point, (spot.latitude, spot.longitude)) <= radiusKm {
            for entry in spot.species where week.map({ entry.weeks.contains($0) }) ?? true {
                best[entry.bird] = max(best[entry.bird] ?? entry.probability, entry.probability)
            }
        }
        return best.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { (seedBirds[$0.key].speciesCode, $0.value) }
    }

    /// Hotspots with their positions rounded as the artifact stores them, and their seed birds.
    private static func readHotspots(_ handOff: String, birdByID: [String: Int])
        throws(LocatedError) -> [(latitude: Double, longitude: Double, species: [(bird: Int, probability: Int, weeks: Set<Int>)])] {
        typealias G = BirdsSchema.HotspotGrid
        var speciesBySpot: [String: [(bird: Int, probability: Int, weeks: Set<Int>)]] = [:]
        try N.read(N.HotspotSpeciesColumn.self, in: handOff) { row throws(LocatedError) in
            guard let bird = birdByID[row[.birdID]] else { return }
            let probability = min(max(try row.integer(.probability) ?? 0, 0), 100)
            speciesBySpot[row[.hotspotID], default: []].append((bird, probability, Set(try row.integers(.weeks))))
        }
        var spots: [(latitude: Double, longitude: Double, species: [(bird: Int, probability: Int, weeks: Set<Int>)])] = []
        try N.read(N.HotspotColumn.self, in: handOff) { row throws(LocatedError) in
            spots.append((G.decode(G.encode(try row.double(.latitude))), G.decode(G.encode(try row.double(.longitude))),
                          speciesBySpot[row[.hotspotID]] ?? []))
        }
        return spots
    }
}
