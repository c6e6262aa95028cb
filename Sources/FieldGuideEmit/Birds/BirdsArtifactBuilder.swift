import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds

/// Everything the birds artifact is built from, as plain values (read from the hand-off by
/// `BirdHandOff`, or generated).
///
/// ```swift
/// var input = BirdsBuildInput()
/// input.species.append(.init(birdID: "b1", commonName: "House Crow", scientificName: "Corvus splendens", shapeID: "Corvidae",
///                            sizeCategory: 2, months: [1, 2], locations: ["Urban"]))
/// input.linkSpeciesAlone()   // or input.taxa = try LinkedTaxa.read(from: handOff)
/// let (artifact, counts) = BirdsArtifactBuilder(input).build()
/// ```
public struct BirdsBuildInput: Sendable {
    public struct Species: Sendable {
        public var birdID: String
        public var speciesCode: String
        public var commonName: String
        public var scientificName: String
        public var family: String
        public var order: String
        public var rarity: String
        public var shapeID: String
        public var sizeCategory: Int?
        public var months: [Int]
        public var locations: [String]
        public var imageName: String
        public var marks: [(area: String, variantID: String)]

        public init(birdID: String, speciesCode: String = "", commonName: String, scientificName: String, family: String = "",
                    order: String = "", rarity: String = "", shapeID: String, sizeCategory: Int?, months: [Int], locations: [String],
                    imageName: String = "", marks: [(area: String, variantID: String)] = []) {
            self.birdID = birdID; self.speciesCode = speciesCode; self.commonName = commonName; self.scientificName = scientificName
            self.family = family; self.order = order; self.rarity = rarity; self.shapeID = shapeID; self.sizeCategory = sizeCategory
            self.months = months; self.locations = locations; self.imageName = imageName; self.marks = marks
        }
    }

    public struct Variant: Sendable {
        public var id, fieldMarkID, shapeID, area, name: String
        public init(id: String, fieldMarkID: String, shapeID: String, area: String, name: String) {
            self.id = id; self.fieldMarkID = fieldMarkID; self.shapeID = shapeID; self.area = area; self.name = name
        }
    }

    public struct Hotspot: Sendable {
        public var id, name, locality, imageName: String
        public var latitude, longitude: Double
        public var species: [(birdID: String, probability: Int, weeks: [Int])]
        public init(id: String, name: String, locality: String = "", imageName: String = "", latitude: Double, longitude: Double,
                    species: [(birdID: String, probability: Int, weeks: [Int])]) {
            self.id = id; self.name = name; self.locality = locality; self.imageName = imageName
            self.latitude = latitude; self.longitude = longitude; self.species = species
        }
    }

    public var species: [Species] = []
    public var shapes: [(id: String, name: String, icon: String)] = []
    public var variants: [Variant] = []
    public var hotspots: [Hotspot] = []
    /// The taxa, names, bar-chart rows and seasons, linked by `ingest-birds`.
    public var taxa = LinkedTaxa()
    /// Resolved bird observations from `ingest-exports`: the "observed" source.
    public var observed: [Observed] = []

    /// One resolved bird observation.
    public struct Observed: Sendable {
        public var speciesCode: String
        public var region: String
        public var month: Int?
        public var week: Int?
        public var latitude: Double?
        public var longitude: Double?
        public var count: Int?
        public init(speciesCode: String, region: String = "", month: Int? = nil, week: Int? = nil,
                    latitude: Double? = nil, longitude: Double? = nil, count: Int? = nil) {
            self.speciesCode = speciesCode; self.region = region; self.month = month; self.week = week
            self.latitude = latitude; self.longitude = longitude; self.count = count
        }
    }

    public init() {}

    /// Gives each species a taxon of its own (no taxonomy, bar charts, seasons or labels): for
    /// an input made in code rather than read from a hand-off.
    public mutating func linkSpeciesAlone() {
        taxa = LinkedTaxa.link(birds: species.map {
            LinkedTaxa.Bird(id: $0.birdID, speciesCode: $0.speciesCode, commonName: $0.commonName, scientificName: $0.scientificName, family: $0.family)
        }, taxonomy: nil, barCharts: [], seasons: [], labels: [])
    }
}

/// Builds the birds artifact's sections: species, region×month and region×week tables,
/// hotspots with a grid-cell index, taxa, the names index, bar charts, seasons and
/// observations, one builder per group of sections of `BirdsSchema` (the extensions in
/// `BirdsArtifactBuilder+….swift`).
///
/// Every table is sorted by its key before its rows are numbered, so the bytes depend only on
/// the input values, never on their order.
///
/// ```swift
/// let (artifact, counts) = BirdsArtifactBuilder(input).build()
/// try artifact.write(to: "output/birds.fgb")
/// ```
public struct BirdsArtifactBuilder {
    typealias S = BirdsSchema
    let input: BirdsBuildInput

    public init(_ input: BirdsBuildInput) { self.input = input }

    public func build() -> (artifact: ArtifactBuilder, counts: [String: Int]) {
        var counts = input.taxa.counts
        var pool = StringPoolBuilder(expectedStrings: input.species.count * 12 + 1024)
        let species = input.species.sorted { LinkedTaxa.speciesPrecede(($0.commonName, $0.birdID), ($1.commonName, $1.birdID)) }
        var speciesRowByID: [String: Int] = [:]
        for (row, bird) in species.enumerated() where speciesRowByID[bird.birdID] == nil { speciesRowByID[bird.birdID] = row }

        var regions = Regions(species: species, chartRows: input.taxa.chartRows, pool: &pool)
        var speciesTables = SpeciesTables(species, taxa: input.taxa, regions: regions, pool: &pool, counts: &counts)
        regions.index(speciesTables)
        var shapes = Shapes(shapes: input.shapes, variants: input.variants, pool: &pool)
        var hotspots = Hotspots(input.hotspots, speciesRowByID: speciesRowByID, pool: &pool, counts: &counts)
        var taxa = Taxa(input.taxa, speciesRowByID: speciesRowByID, pool: &pool)
        let barCharts = BarCharts(input.taxa.chartRows, regions: regions, counts: &counts)
        let seasons = Seasons(input.taxa.seasons)
        var observations = Observations(input.observed, taxa: input.taxa, pool: &pool)

        let (poolBytes, remap) = pool.finish()
        var artifact = ArtifactBuilder(kind: S.kind)
        artifact.addSection(S.Section.strings, rows: remap.count, bytes: poolBytes)
        speciesTables.add(to: &artifact, strings: remap)
        shapes.add(to: &artifact, strings: remap)
        regions.add(to: &artifact, strings: remap)
        hotspots.add(to: &artifact, strings: remap)
        taxa.add(to: &artifact, strings: remap)
        barCharts.add(to: &artifact)
        seasons.add(to: &artifact)
        observations.add(to: &artifact, strings: remap)

        counts["species"] = speciesTables.species.count
        counts["regions"] = regions.regions.count
        counts["regionMonthEntries"] = regions.monthKeys.count
        counts["regionWeekEntries"] = regions.weekKeys.count
        counts["hotspots"] = hotspots.hotspots.count
        counts["hotspotSpecies"] = hotspots.species.count
        counts["taxa"] = taxa.taxa.count
        counts["names"] = taxa.names.count
        counts["barChartRows"] = barCharts.rows.count
        counts["seasons"] = seasons.seasons.count
        counts["observations"] = observations.observations.count
        counts["observationsWithoutTaxon"] = observations.withoutTaxon
        counts["strings"] = remap.count
        return (artifact, counts)
    }
}
