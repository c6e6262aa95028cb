import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds

extension BirdsArtifactBuilder {
    /// `HOTS`, `HKEY`, `HSPC`: hotspots by 1°×1° grid cell then id, the cell of each, and their
    /// species by bird id with probability (0–100) and a 53-bit week mask.
    ///
    /// ```swift
    /// var hotspots = Hotspots(input.hotspots, speciesRowByID: speciesRowByID, pool: &pool, counts: &counts)
    /// ```
    struct Hotspots {
        var hotspots = RowTableBuilder<S.HotspotColumn>()
        var species = RowTableBuilder<S.HotspotSpeciesColumn>()
        private(set) var cells: [UInt64] = []

        init(_ input: [BirdsBuildInput.Hotspot], speciesRowByID: [String: Int], pool: inout StringPoolBuilder, counts: inout [String: Int]) {
            let sorted = input.sorted {
                let a = S.HotspotGrid.cell(latitude: $0.latitude, longitude: $0.longitude)
                let b = S.HotspotGrid.cell(latitude: $1.latitude, longitude: $1.longitude)
                return a == b ? utf8Precedes($0.id, $1.id) : a < b
            }
            for spot in sorted {
                var r = hotspots.newRow()
                r[.id] = pool.intern(spot.id); r[.name] = pool.intern(spot.name); r[.locality] = pool.intern(spot.locality)
                r[.imageName] = pool.intern(spot.imageName)
                r[.latitude] = S.HotspotGrid.encode(spot.latitude); r[.longitude] = S.HotspotGrid.encode(spot.longitude)
                r[.speciesFirst] = UInt32(species.count); r[.speciesCount] = UInt32(spot.species.count)
                hotspots.append(r)
                cells.append(S.HotspotGrid.cell(latitude: spot.latitude, longitude: spot.longitude))
                for item in spot.species.sorted(by: { utf8Precedes($0.birdID, $1.birdID) }) {
                    var h = species.newRow()
                    h[.birdID] = pool.intern(item.birdID)
                    if let row = speciesRowByID[item.birdID] { h[.speciesRow] = UInt32(row) } else { counts["hotspotSpeciesUnknown", default: 0] += 1 }
                    h[.probability] = UInt32(min(max(item.probability, 0), 100))
                    var low: UInt32 = 0, high: UInt32 = 0
                    for week in item.weeks where (1...53).contains(week) {
                        if week <= 32 { low |= 1 << UInt32(week - 1) } else { high |= 1 << UInt32(week - 33) }
                    }
                    h[.weeksLow] = low; h[.weeksHigh] = high
                    species.append(h)
                }
            }
        }

        mutating func add(to artifact: inout ArtifactBuilder, strings remap: [UInt32]) {
            artifact.addSection(S.Section.hotspots, &hotspots, strings: remap)
            artifact.addSection(S.Section.hotspotCells, keys: cells)
            artifact.addSection(S.Section.hotspotSpecies, &species, strings: remap)
        }
    }
}
