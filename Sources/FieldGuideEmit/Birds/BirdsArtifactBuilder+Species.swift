import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds

extension BirdsArtifactBuilder {
    /// `SPEC`, `SLOC`, `SMRK`: the seed birds by common name (then bird id), each with its
    /// locations as region rows, its field marks and its taxon row.
    ///
    /// ```swift
    /// var tables = SpeciesTables(sorted, taxa: input.taxa, regions: regions, pool: &pool, counts: &counts)
    /// tables.presence[0].mask   // bit m − 1 for each month m the first bird lists
    /// ```
    struct SpeciesTables {
        var species = RowTableBuilder<S.SpeciesColumn>()
        var locations = RowTableBuilder<S.SpeciesLocationColumn>()
        var marks = RowTableBuilder<S.SpeciesMarkColumn>()
        /// Per species row: its region rows (each once) and month mask, what the region tables index.
        private(set) var presence: [(regions: [UInt32], mask: UInt16)] = []

        init(_ sorted: [BirdsBuildInput.Species], taxa: LinkedTaxa, regions: Regions, pool: inout StringPoolBuilder, counts: inout [String: Int]) {
            var taxonRowByBird: [String: Int] = [:]
            for (row, taxon) in taxa.taxa.enumerated() {
                for id in taxon.birdIDs where taxonRowByBird[id] == nil { taxonRowByBird[id] = row }
            }
            for bird in sorted {
                var r = species.newRow()
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
                    let region = regions.row(of: location)
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
                if let row = taxonRowByBird[bird.birdID] { r[.taxonRow] = UInt32(row) }
                species.append(r)

                if mask == 0 { counts["speciesWithoutMonths", default: 0] += 1 }
                if birdRegions.isEmpty { counts["speciesWithoutLocations", default: 0] += 1 }
                presence.append((birdRegions, mask))
            }
        }

        mutating func add(to artifact: inout ArtifactBuilder, strings remap: [UInt32]) {
            artifact.addSection(S.Section.species, &species, strings: remap)
            artifact.addSection(S.Section.speciesLocations, locations)
            artifact.addSection(S.Section.speciesMarks, &marks, strings: remap)
        }
    }
}
