import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds

extension BirdsArtifactBuilder {
    /// `BARC`, `BVAL`: one row per (region, taxon), the sample-size row (taxon `UInt32.max`)
    /// last in its region, each with 48 values (frequencies in parts per billion, checklist
    /// counts as they are). A (region, taxon) a second chart repeats keeps its first values.
    ///
    /// ```swift
    /// let charts = BarCharts(input.taxa.chartRows, regions: regions, counts: &counts)
    /// ```
    struct BarCharts {
        private(set) var rows: [(region: UInt32, taxon: UInt32, values: [Double])] = []

        init(_ chartRows: [LinkedTaxa.ChartRow], regions: Regions, counts: inout [String: Int]) {
            var seen = Set<UInt64>()
            for row in chartRows {
                let region = regions.row(of: row.region), taxon = row.taxon.map(UInt32.init) ?? UInt32.max
                if seen.insert(UInt64(region) << 32 | UInt64(taxon)).inserted {
                    rows.append((region, taxon, row.values))
                } else if row.taxon != nil {
                    counts["barChartDuplicates", default: 0] += 1
                }
            }
            rows.sort { $0.region == $1.region ? $0.taxon < $1.taxon : $0.region < $1.region }
        }

        func add(to artifact: inout ArtifactBuilder) {
            var barChart = RowTableBuilder<S.BarChartColumn>()
            var barValues = RowTableBuilder<S.BarChartValueColumn>()
            for row in rows {
                var r = barChart.newRow()
                r[.regionRow] = row.region; r[.taxonRow] = row.taxon; r[.valueFirst] = UInt32(barValues.count)
                barChart.append(r)
                let scale = row.taxon == UInt32.max ? 1 : S.frequencyScale
                for value in row.values {
                    var v = barValues.newRow()
                    v[.value] = UInt32(min((value * scale).rounded(), Double(UInt32.max - 1)))
                    barValues.append(v)
                }
            }
            artifact.addSection(S.Section.barChart, barChart)
            artifact.addSection(S.Section.barChartValues, barValues)
        }
    }
}
