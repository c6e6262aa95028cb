import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds

extension BirdsArtifactBuilder {
    /// `REGN`, `RMON`, `RWEK`: the regions (every bird location and bar-chart region, by folded
    /// name; the smallest spelling names it), and the species of each region by month and by
    /// week as packed keys. A bird without months is under period 0, one without locations
    /// under the "any region" row.
    ///
    /// ```swift
    /// var regions = Regions(species: sorted, chartRows: input.taxa.chartRows, pool: &pool)
    /// regions.index(speciesTables)   // RMON and RWEK, once the species rows are numbered
    /// ```
    struct Regions {
        var regions = RowTableBuilder<S.RegionColumn>()
        private var rowByFolded: [String: UInt32] = [:]
        private(set) var monthKeys: [UInt64] = []
        private(set) var weekKeys: [UInt64] = []

        init(species: [BirdsBuildInput.Species], chartRows: [LinkedTaxa.ChartRow], pool: inout StringPoolBuilder) {
            var names: [String: String] = [:]
            func add(_ name: String) {
                let folded = NameFolding.fold(name)
                if let existing = names[folded], !utf8Precedes(name, existing) { return }
                names[folded] = name
            }
            for bird in species { bird.locations.forEach(add) }
            for row in chartRows { add(row.region) }
            for (row, folded) in names.keys.sorted(by: utf8Precedes).enumerated() {
                rowByFolded[folded] = UInt32(row)
                var r = regions.newRow()
                r[.foldedName] = pool.intern(folded)
                r[.name] = pool.intern(names[folded]!)
                regions.append(r)
            }
        }

        /// The row of a region this table holds.
        func row(of name: String) -> UInt32 { rowByFolded[NameFolding.fold(name)]! }

        /// The region × month and region × week keys of every species row.
        mutating func index(_ species: SpeciesTables) {
            for (index, (birdRegions, mask)) in species.presence.enumerated() {
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
        }

        mutating func add(to artifact: inout ArtifactBuilder, strings remap: [UInt32]) {
            artifact.addSection(S.Section.regions, &regions, strings: remap)
            artifact.addSection(S.Section.regionMonths, keys: monthKeys)
            artifact.addSection(S.Section.regionWeeks, keys: weekKeys)
        }
    }
}
