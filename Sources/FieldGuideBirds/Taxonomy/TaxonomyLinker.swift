/// Links seed birds to taxa by scientific name, and warns when a bird's scientific name, common
/// name or family disagrees with the taxonomy, naming the closest taxon.
///
/// ```swift
/// let links = TaxonomyLinker(taxonomy: taxonomy).link(database, sink: sink)
/// links["550e8400-e29b-41d4-a716-446655440001"]?.speciesCode   // "houspa"
/// ```
public struct TaxonomyLinker: Sendable {
    public let taxonomy: Taxonomy

    public init(taxonomy: Taxonomy) { self.taxonomy = taxonomy }

    /// Bird id → the taxon with the bird's scientific name. Warnings go to `sink`.
    public func link(_ database: BirdDatabase, sink: FindingSink?) -> [String: Taxon] {
        var links: [String: Taxon] = [:]
        for bird in database.birds {
            guard let taxon = taxonomy.taxon(scientificName: bird.scientificName) else {
                let closest = taxonomy.taxon(commonName: bird.commonName) ?? taxonomy.closestSpecies(scientificName: bird.scientificName)
                sink?.warning(.taxonomy, at: bird.source.field(bird.layout.scientificName),
                              "\(bird.commonName): scientific name \"\(bird.scientificName)\" is not in the taxonomy"
                                + (closest.map { "; closest taxon: \(Self.describe($0))" } ?? ""))
                continue
            }
            links[bird.id] = taxon
            if Taxonomy.fold(taxon.commonName) != Taxonomy.fold(bird.commonName) {
                var message = "\(bird.commonName): common name differs from the taxonomy's \"\(taxon.commonName)\" for \(bird.scientificName) (\(taxon.speciesCode))"
                if let other = taxonomy.taxon(commonName: bird.commonName), other.speciesCode != taxon.speciesCode {
                    message += "; the taxonomy's \"\(other.commonName)\" is \(Self.describe(other))"
                }
                sink?.warning(.taxonomy, at: bird.source.field(bird.layout.commonName), message)
            }
            if let family = bird.family, family != taxon.familyName {
                sink?.warning(.taxonomy, at: bird.source.field(bird.layout.family),
                              "\(bird.commonName): family \"\(family)\" disagrees with the taxonomy; closest taxon: \(Self.describe(taxon)) in \(taxon.family)")
            }
        }
        return links
    }

    static func describe(_ taxon: Taxon) -> String {
        "\(taxon.commonName) (\(taxon.scientificName), \(taxon.speciesCode))"
    }
}
