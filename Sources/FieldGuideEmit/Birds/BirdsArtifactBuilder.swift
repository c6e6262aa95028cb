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
    public var taxonomy: Taxonomy?
    public var barCharts: [EBirdBarChart] = []
    public var seasons: [SpeciesSeasonRow] = []
    public var labels: [LocalizedLabels] = []
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
}

/// Builds the birds artifact's sections: species, region×month and region×week tables,
/// hotspots with a grid-cell index, taxa, the names index, bar charts and seasons.
///
/// Every table is sorted by its key before its rows are numbered, so the bytes depend only on
/// the input values, never on their order.
///
/// ```swift
/// let (artifact, counts) = BirdsArtifactBuilder(input).build()
/// try artifact.write(to: "output/birds.fgb")
/// ```
public struct BirdsArtifactBuilder {
    private typealias S = BirdsSchema
    private let input: BirdsBuildInput

    public init(_ input: BirdsBuildInput) { self.input = input }

    private struct TaxonDraft {
        var code, common, scientific, category, family: String
        var speciesIndex: Int?
    }

    public func build() -> (artifact: ArtifactBuilder, counts: [String: Int]) {
        var counts: [String: Int] = [:]
        var pool = StringPoolBuilder(expectedStrings: input.species.count * 12 + 1024)
        func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

        // Species, sorted by common name then bird id.
        let species = input.species.sorted { $0.commonName == $1.commonName ? precedes($0.birdID, $1.birdID) : precedes($0.commonName, $1.commonName) }
        var speciesRowByID: [String: Int] = [:]
        for (row, bird) in species.enumerated() where speciesRowByID[bird.birdID] == nil { speciesRowByID[bird.birdID] = row }

        // Taxa: the seed birds, bar-chart taxa and seasons species.
        var taxonomyByCode: [String: Taxon] = [:]
        for taxon in input.taxonomy?.taxa ?? [] where taxonomyByCode[taxon.speciesCode] == nil { taxonomyByCode[taxon.speciesCode] = taxon }
        var drafts: [String: TaxonDraft] = [:]
        func draft(_ taxon: Taxon) -> TaxonDraft {
            TaxonDraft(code: taxon.speciesCode, common: taxon.commonName, scientific: taxon.scientificName, category: taxon.category,
                       family: taxon.family, speciesIndex: nil)
        }
        func key(_ d: TaxonDraft) -> String { d.code.isEmpty ? "\u{0}" + d.scientific + "\u{0}" + d.common : d.code }
        var birdTaxonKey: [Int: String] = [:]
        for (index, bird) in species.enumerated() {
            var d: TaxonDraft
            if !bird.speciesCode.isEmpty, let taxon = taxonomyByCode[bird.speciesCode] { d = draft(taxon) }
            else if bird.speciesCode.isEmpty, let taxon = input.taxonomy?.taxon(scientificName: bird.scientificName) { d = draft(taxon) }
            else { d = TaxonDraft(code: bird.speciesCode, common: bird.commonName, scientific: bird.scientificName, category: "species", family: bird.family) }
            let k = key(d)
            if drafts[k]?.speciesIndex == nil { d.speciesIndex = index; drafts[k] = d }
            birdTaxonKey[index] = k
        }
        var foldedBirdNames: [String: Int] = [:]
        for (index, bird) in species.enumerated() where foldedBirdNames[Taxonomy.fold(bird.commonName)] == nil {
            foldedBirdNames[Taxonomy.fold(bird.commonName)] = index
        }
        var chartTaxonKeys: [[String]] = []
        for chart in input.barCharts {
            var keys: [String] = []
            for row in chart.rows {
                var d: TaxonDraft
                if let taxon = input.taxonomy?.taxon(commonName: row.name) { d = draft(taxon) }
                else if let index = foldedBirdNames[Taxonomy.fold(row.name)], let k = birdTaxonKey[index] { d = drafts[k]! }
                else {
                    counts["barChartUnresolved", default: 0] += 1
                    let category = row.name.contains("(hybrid)") ? "hybrid" : row.name.contains("/") ? "slash" : row.name.hasSuffix(" sp.") ? "spuh" : ""
                    d = TaxonDraft(code: "", common: row.name, scientific: "", category: category, family: "")
                }
                if d.category != "species" { counts["barChartNonSpecies", default: 0] += 1 }
                let k = key(d)
                if drafts[k] == nil { drafts[k] = d }
                keys.append(k)
            }
            chartTaxonKeys.append(keys)
        }
        var seasonKeys: [String] = []
        for season in input.seasons {
            let d = taxonomyByCode[season.speciesCode].map(draft)
                ?? TaxonDraft(code: season.speciesCode, common: season.commonName, scientific: season.scientificName, category: "species", family: "")
            let k = key(d)
            if drafts[k] == nil { drafts[k] = d }
            seasonKeys.append(k)
        }
        let taxonKeys = drafts.keys.sorted { a, b in
            let x = drafts[a]!, y = drafts[b]!
            if x.code != y.code { return precedes(x.code, y.code) }
            if x.scientific != y.scientific { return precedes(x.scientific, y.scientific) }
            return precedes(x.common, y.common)
        }
        var taxonRow: [String: Int] = [:]
        for (row, k) in taxonKeys.enumerated() { taxonRow[k] = row }

        // Regions: every location of a bird and every bar-chart region, by folded name.
        var regionNames: [String: String] = [:]
        func addRegion(_ name: String) {
            let folded = NameFolding.fold(name)
            if let existing = regionNames[folded], !precedes(name, existing) { return }
            regionNames[folded] = name
        }
        for bird in species { bird.locations.forEach(addRegion) }
        for chart in input.barCharts { addRegion(chart.region) }
        let regionFolded = regionNames.keys.sorted(by: precedes)
        var regionRow: [String: UInt32] = [:]
        var regions = RowTableBuilder<S.RegionColumn>()
        for (row, folded) in regionFolded.enumerated() {
            regionRow[folded] = UInt32(row)
            var r = regions.newRow()
            r[.foldedName] = pool.intern(folded)
            r[.name] = pool.intern(regionNames[folded]!)
            regions.append(r)
        }

        // Species rows, their locations and marks, and the region tables.
        var speciesTable = RowTableBuilder<S.SpeciesColumn>()
        var locations = RowTableBuilder<S.SpeciesLocationColumn>()
        var marks = RowTableBuilder<S.SpeciesMarkColumn>()
        var monthKeys: [UInt64] = [], weekKeys: [UInt64] = []
        for (index, bird) in species.enumerated() {
            var r = speciesTable.newRow()
            r[.birdID] = pool.intern(bird.birdID)
            r[.speciesCode] = pool.intern(bird.speciesCode)
            r[.commonName] = pool.intern(bird.commonName)
            r[.scientificName] = pool.intern(bird.scientificName)
            r[.family] = pool.intern(bird.family)
            r[.order] = pool.intern(bird.order)
            r[.rarity] = pool.intern(bird.rarity)
            r[.shapeID] = pool.intern(bird.shapeID)
            r[.imageName] = pool.intern(bird.imageName)
            if let size = bird.sizeCategory, (0...254).contains(size) { r[.sizeCategory] = UInt32(size) }
            var mask: UInt16 = 0
            for month in bird.months where (1...12).contains(month) { mask |= 1 << UInt16(month - 1) }
            r[.monthMask] = UInt32(mask)
            var birdRegions: [UInt32] = []
            for location in bird.locations {
                let region = regionRow[NameFolding.fold(location)]!
                if !birdRegions.contains(region) { birdRegions.append(region) }
            }
            r[.locationFirst] = UInt32(locations.count)
            r[.locationCount] = UInt32(birdRegions.count)
            for region in birdRegions {
                var l = locations.newRow()
                l[.regionRow] = region
                locations.append(l)
            }
            r[.markFirst] = UInt32(marks.count)
            r[.markCount] = UInt32(bird.marks.count)
            for mark in bird.marks {
                var m = marks.newRow()
                m[.area] = pool.intern(mark.area)
                m[.variantID] = pool.intern(mark.variantID)
                marks.append(m)
            }
            if let k = birdTaxonKey[index], let row = taxonRow[k] { r[.taxonRow] = UInt32(row) }
            speciesTable.append(r)

            if mask == 0 { counts["speciesWithoutMonths", default: 0] += 1 }
            if birdRegions.isEmpty { counts["speciesWithoutLocations", default: 0] += 1 }
            let row = UInt32(index)
            for region in birdRegions.isEmpty ? [S.anyRegion] : birdRegions {
                if mask == 0 {
                    monthKeys.append(S.RegionKey.pack(region: region, period: S.anyPeriod, species: row))
                    weekKeys.append(S.RegionKey.pack(region: region, period: S.anyPeriod, species: row))
                    continue
                }
                for month in 1...12 where mask & (1 << UInt16(month - 1)) != 0 {
                    monthKeys.append(S.RegionKey.pack(region: region, period: UInt32(month), species: row))
                }
                for week in 1...53 where mask & S.weekMonthMasks[week] != 0 {
                    weekKeys.append(S.RegionKey.pack(region: region, period: UInt32(week), species: row))
                }
            }
        }
        monthKeys.sort()
        weekKeys.sort()

        // Shapes and variants, by id.
        var shapes = RowTableBuilder<S.ShapeColumn>()
        for shape in input.shapes.sorted(by: { precedes($0.id, $1.id) }) {
            var r = shapes.newRow()
            r[.id] = pool.intern(shape.id); r[.name] = pool.intern(shape.name); r[.icon] = pool.intern(shape.icon)
            shapes.append(r)
        }
        var variants = RowTableBuilder<S.VariantColumn>()
        for v in input.variants.sorted(by: { precedes($0.id, $1.id) }) {
            var r = variants.newRow()
            r[.id] = pool.intern(v.id); r[.fieldMarkID] = pool.intern(v.fieldMarkID); r[.shapeID] = pool.intern(v.shapeID)
            r[.area] = pool.intern(v.area); r[.name] = pool.intern(v.name)
            variants.append(r)
        }

        // Hotspots by grid cell, then id; their species by bird id.
        let hotspots = input.hotspots.sorted {
            let a = S.HotspotGrid.cell(latitude: $0.latitude, longitude: $0.longitude)
            let b = S.HotspotGrid.cell(latitude: $1.latitude, longitude: $1.longitude)
            return a == b ? precedes($0.id, $1.id) : a < b
        }
        var hotspotTable = RowTableBuilder<S.HotspotColumn>()
        var hotspotSpecies = RowTableBuilder<S.HotspotSpeciesColumn>()
        var cells: [UInt64] = []
        for spot in hotspots {
            var r = hotspotTable.newRow()
            r[.id] = pool.intern(spot.id); r[.name] = pool.intern(spot.name); r[.locality] = pool.intern(spot.locality)
            r[.imageName] = pool.intern(spot.imageName)
            r[.latitude] = S.HotspotGrid.encode(spot.latitude); r[.longitude] = S.HotspotGrid.encode(spot.longitude)
            r[.speciesFirst] = UInt32(hotspotSpecies.count); r[.speciesCount] = UInt32(spot.species.count)
            hotspotTable.append(r)
            cells.append(S.HotspotGrid.cell(latitude: spot.latitude, longitude: spot.longitude))
            for item in spot.species.sorted(by: { precedes($0.birdID, $1.birdID) }) {
                var h = hotspotSpecies.newRow()
                h[.birdID] = pool.intern(item.birdID)
                if let row = speciesRowByID[item.birdID] { h[.speciesRow] = UInt32(row) } else { counts["hotspotSpeciesUnknown", default: 0] += 1 }
                h[.probability] = UInt32(min(max(item.probability, 0), 100))
                var low: UInt32 = 0, high: UInt32 = 0
                for week in item.weeks where (1...53).contains(week) {
                    if week <= 32 { low |= 1 << UInt32(week - 1) } else { high |= 1 << UInt32(week - 33) }
                }
                h[.weeksLow] = low; h[.weeksHigh] = high
                hotspotSpecies.append(h)
            }
        }

        // Taxa rows.
        var taxa = RowTableBuilder<S.TaxonColumn>()
        for k in taxonKeys {
            let d = drafts[k]!
            var r = taxa.newRow()
            r[.speciesCode] = pool.intern(d.code); r[.commonName] = pool.intern(d.common); r[.scientificName] = pool.intern(d.scientific)
            r[.category] = pool.intern(d.category); r[.family] = pool.intern(d.family)
            if let index = d.speciesIndex { r[.speciesRow] = UInt32(index) }
            taxa.append(r)
        }

        // Names: common, scientific, code, the seed database's own common name, localized labels.
        var names: [(folded: String, name: String, form: String, taxon: Int)] = []
        var seen = Set<String>()
        func addName(_ name: String, _ form: String, _ taxon: Int) {
            guard !name.isEmpty else { return }
            let folded = NameFolding.fold(name)
            guard seen.insert("\(folded)\u{0}\(form)\u{0}\(taxon)").inserted else { return }
            names.append((folded, name, form, taxon))
        }
        var taxonRowsByScientific: [String: [Int]] = [:]
        for (row, k) in taxonKeys.enumerated() {
            let d = drafts[k]!
            addName(d.common, "common", row)
            addName(d.scientific, "scientific", row)
            addName(d.code, "code", row)
            if let index = d.speciesIndex { addName(species[index].commonName, "common", row) }
            if !d.scientific.isEmpty { taxonRowsByScientific[d.scientific, default: []].append(row) }
        }
        for labels in input.labels.sorted(by: { precedes($0.language, $1.language) }) {
            var used = 0
            for (scientific, name) in labels.names.sorted(by: { precedes($0.key, $1.key) }) {
                guard let rows = taxonRowsByScientific[scientific] else { continue }
                used += 1
                for row in rows { addName(name, labels.language, row) }
            }
            counts["labels." + labels.language] = used
        }
        names.sort { a, b in
            if a.folded != b.folded { return precedes(a.folded, b.folded) }
            if a.taxon != b.taxon { return a.taxon < b.taxon }
            if a.form != b.form { return precedes(a.form, b.form) }
            return precedes(a.name, b.name)
        }
        var nameTable = RowTableBuilder<S.NameColumn>()
        var nameKeys: [UInt64] = []
        for entry in names {
            var r = nameTable.newRow()
            r[.foldedName] = pool.intern(entry.folded); r[.name] = pool.intern(entry.name); r[.form] = pool.intern(entry.form)
            r[.taxonRow] = UInt32(entry.taxon)
            nameTable.append(r)
            nameKeys.append(PackedKey.pack(entry.folded))
        }

        // Bar charts: one row per (region, taxon), the sample-size row last; values 48 a row.
        var chartRows: [(region: UInt32, taxon: UInt32, values: [Double])] = []
        var seenChartRows = Set<UInt64>()
        for (chart, keys) in zip(input.barCharts, chartTaxonKeys) {
            let region = regionRow[NameFolding.fold(chart.region)]!
            for (row, k) in zip(chart.rows, keys) {
                let taxon = UInt32(taxonRow[k]!)
                if seenChartRows.insert(UInt64(region) << 32 | UInt64(taxon)).inserted {
                    chartRows.append((region, taxon, row.frequencies))
                } else {
                    counts["barChartDuplicates", default: 0] += 1
                }
            }
            if seenChartRows.insert(UInt64(region) << 32 | UInt64(UInt32.max)).inserted {
                chartRows.append((region, UInt32.max, chart.sampleSizes))
            }
        }
        chartRows.sort { $0.region == $1.region ? $0.taxon < $1.taxon : $0.region < $1.region }
        var barChart = RowTableBuilder<S.BarChartColumn>()
        var barValues = RowTableBuilder<S.BarChartValueColumn>()
        for row in chartRows {
            var r = barChart.newRow()
            r[.regionRow] = row.region; r[.taxonRow] = row.taxon; r[.valueFirst] = UInt32(barValues.count)
            barChart.append(r)
            let scale = row.taxon == UInt32.max ? 1 : BirdsSchema.frequencyScale
            for value in row.values {
                var v = barValues.newRow()
                v[.value] = UInt32(min((value * scale).rounded(), Double(UInt32.max - 1)))
                barValues.append(v)
            }
        }

        // Seasons by taxon row.
        var seasonRows: [(taxon: Int, season: SpeciesSeasonRow)] = []
        var seenSeasons = Set<Int>()
        for (season, k) in zip(input.seasons, seasonKeys) where seenSeasons.insert(taxonRow[k]!).inserted {
            seasonRows.append((taxonRow[k]!, season))
        }
        seasonRows.sort { $0.taxon < $1.taxon }
        var seasons = RowTableBuilder<S.SeasonColumn>()
        for (taxon, season) in seasonRows {
            var r = seasons.newRow()
            r[.taxonRow] = UInt32(taxon)
            r[.resident] = season.resident ? 1 : 0
            for (range, start, end) in [(season.breeding, S.SeasonColumn.breedingStart, S.SeasonColumn.breedingEnd),
                                        (season.nonbreeding, .nonbreedingStart, .nonbreedingEnd),
                                        (season.prebreedingMigration, .prebreedingMigrationStart, .prebreedingMigrationEnd),
                                        (season.postbreedingMigration, .postbreedingMigrationStart, .postbreedingMigrationEnd)] {
                if let range { r[start] = UInt32(range.start); r[end] = UInt32(range.end) }
            }
            seasons.append(r)
        }

        // Observed source: resolved observations whose species is a taxon of this artifact.
        var observations = RowTableBuilder<S.ObservationColumn>()
        var observedWithoutTaxon = 0
        for o in input.observed {
            guard let taxon = taxonRow[o.speciesCode] else { observedWithoutTaxon += 1; continue }
            var r = observations.newRow()
            r[.taxonRow] = UInt32(taxon)
            r[.region] = pool.intern(o.region)
            if let m = o.month, (1...12).contains(m) { r[.month] = UInt32(m) }
            if let w = o.week, (1...53).contains(w) { r[.week] = UInt32(w) }
            if let lat = o.latitude, let lon = o.longitude {
                r[.latitude] = S.HotspotGrid.encode(lat)
                r[.longitude] = S.HotspotGrid.encode(lon)
            }
            if let c = o.count, c >= 0 { r[.count] = UInt32(min(c, Int(UInt32.max - 1))) }
            observations.append(r)
        }

        let (poolBytes, remap) = pool.finish()
        observations.remapStrings(remap)
        observations.sort(by: [.taxonRow, .region, .month, .week, .latitude, .longitude, .count])
        speciesTable.remapStrings(remap); marks.remapStrings(remap); shapes.remapStrings(remap); variants.remapStrings(remap)
        regions.remapStrings(remap); hotspotTable.remapStrings(remap); hotspotSpecies.remapStrings(remap); taxa.remapStrings(remap)
        nameTable.remapStrings(remap)

        var artifact = ArtifactBuilder(kind: S.kind)
        artifact.addSection(S.Section.strings, rows: remap.count, bytes: poolBytes)
        artifact.addSection(S.Section.species, rows: speciesTable.count, bytes: speciesTable.serialize())
        artifact.addSection(S.Section.speciesLocations, rows: locations.count, bytes: locations.serialize())
        artifact.addSection(S.Section.speciesMarks, rows: marks.count, bytes: marks.serialize())
        artifact.addSection(S.Section.shapes, rows: shapes.count, bytes: shapes.serialize())
        artifact.addSection(S.Section.variants, rows: variants.count, bytes: variants.serialize())
        artifact.addSection(S.Section.regions, rows: regions.count, bytes: regions.serialize())
        artifact.addSection(S.Section.regionMonths, rows: monthKeys.count, bytes: KeyTable.serialize(monthKeys))
        artifact.addSection(S.Section.regionWeeks, rows: weekKeys.count, bytes: KeyTable.serialize(weekKeys))
        artifact.addSection(S.Section.hotspots, rows: hotspotTable.count, bytes: hotspotTable.serialize())
        artifact.addSection(S.Section.hotspotCells, rows: cells.count, bytes: KeyTable.serialize(cells))
        artifact.addSection(S.Section.hotspotSpecies, rows: hotspotSpecies.count, bytes: hotspotSpecies.serialize())
        artifact.addSection(S.Section.taxa, rows: taxa.count, bytes: taxa.serialize())
        artifact.addSection(S.Section.names, rows: nameTable.count, bytes: nameTable.serialize())
        artifact.addSection(S.Section.nameKeys, rows: nameKeys.count, bytes: KeyTable.serialize(nameKeys))
        artifact.addSection(S.Section.barChart, rows: barChart.count, bytes: barChart.serialize())
        artifact.addSection(S.Section.barChartValues, rows: barValues.count, bytes: barValues.serialize())
        artifact.addSection(S.Section.seasons, rows: seasons.count, bytes: seasons.serialize())
        artifact.addSection(S.Section.observations, rows: observations.count, bytes: observations.serialize())

        counts["species"] = speciesTable.count
        counts["regions"] = regions.count
        counts["regionMonthEntries"] = monthKeys.count
        counts["regionWeekEntries"] = weekKeys.count
        counts["hotspots"] = hotspotTable.count
        counts["hotspotSpecies"] = hotspotSpecies.count
        counts["taxa"] = taxa.count
        counts["names"] = nameTable.count
        counts["barChartRows"] = chartRows.count
        counts["seasons"] = seasons.count
        counts["observations"] = observations.count
        counts["observationsWithoutTaxon"] = observedWithoutTaxon
        counts["strings"] = remap.count
        return (artifact, counts)
    }
}
