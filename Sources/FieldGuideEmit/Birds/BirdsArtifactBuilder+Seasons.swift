import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds

extension BirdsArtifactBuilder {
    /// `SEAS`: Status & Trends seasons by taxon row (the first run of a taxon kept).
    ///
    /// ```swift
    /// let seasons = Seasons(input.taxa.seasons)
    /// ```
    struct Seasons {
        private(set) var seasons = RowTableBuilder<S.SeasonColumn>()

        init(_ linked: [LinkedTaxa.Season]) {
            var seen = Set<Int>()
            for season in linked.filter({ seen.insert($0.taxon).inserted }).sorted(by: { $0.taxon < $1.taxon }) {
                var r = seasons.newRow()
                r[.taxonRow] = UInt32(season.taxon)
                r[.resident] = season.resident ? 1 : 0
                for (range, start, end) in [(season.breeding, S.SeasonColumn.breedingStart, S.SeasonColumn.breedingEnd),
                                            (season.nonbreeding, .nonbreedingStart, .nonbreedingEnd),
                                            (season.prebreedingMigration, .prebreedingMigrationStart, .prebreedingMigrationEnd),
                                            (season.postbreedingMigration, .postbreedingMigrationStart, .postbreedingMigrationEnd)] {
                    if let range { r[start] = UInt32(range.start); r[end] = UInt32(range.end) }
                }
                seasons.append(r)
            }
        }

        func add(to artifact: inout ArtifactBuilder) {
            artifact.addSection(S.Section.seasons, seasons)
        }
    }
}
