import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds

extension BirdsArtifactBuilder {
    /// `OBSV`: the observed source, resolved observations whose species code is a taxon of this
    /// artifact, sorted by taxon, region, month, week, position and count.
    ///
    /// ```swift
    /// var observations = Observations(input.observed, taxa: input.taxa, pool: &pool)
    /// observations.withoutTaxon   // observations of species the artifact does not know
    /// ```
    struct Observations {
        private(set) var observations = RowTableBuilder<S.ObservationColumn>()
        private(set) var withoutTaxon = 0

        init(_ observed: [BirdsBuildInput.Observed], taxa: LinkedTaxa, pool: inout StringPoolBuilder) {
            var rowByCode: [String: Int] = [:]
            for (row, taxon) in taxa.taxa.enumerated() where !taxon.speciesCode.isEmpty { rowByCode[taxon.speciesCode] = row }
            for o in observed {
                guard let taxon = rowByCode[o.speciesCode] else { withoutTaxon += 1; continue }
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
        }

        /// `OBSV`: final string ids, then the rows in order (region ids sort as their strings once remapped).
        mutating func add(to artifact: inout ArtifactBuilder, strings remap: [UInt32]) {
            observations.remapStrings(remap)
            observations.sort(by: [.taxonRow, .region, .month, .week, .latitude, .longitude, .count])
            artifact.addSection(S.Section.observations, observations)
        }
    }
}
