import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds

extension BirdsArtifactBuilder {
    /// `TAXA`, `NAME`, `NKEY`: the taxa as linked at ingest (each with its seed bird's species
    /// row), the names index and the packed key of each folded name.
    ///
    /// ```swift
    /// var taxa = Taxa(input.taxa, speciesRowByID: speciesRowByID, pool: &pool)
    /// ```
    struct Taxa {
        var taxa = RowTableBuilder<S.TaxonColumn>()
        var names = RowTableBuilder<S.NameColumn>()
        private(set) var nameKeys: [UInt64] = []

        init(_ linked: LinkedTaxa, speciesRowByID: [String: Int], pool: inout StringPoolBuilder) {
            for taxon in linked.taxa {
                var r = taxa.newRow()
                r[.speciesCode] = pool.intern(taxon.speciesCode); r[.commonName] = pool.intern(taxon.commonName)
                r[.scientificName] = pool.intern(taxon.scientificName); r[.category] = pool.intern(taxon.category)
                r[.family] = pool.intern(taxon.family)
                if let bird = taxon.birdIDs.first, let row = speciesRowByID[bird] { r[.speciesRow] = UInt32(row) }
                taxa.append(r)
            }
            for entry in linked.names {
                var r = names.newRow()
                r[.foldedName] = pool.intern(entry.folded); r[.name] = pool.intern(entry.name); r[.form] = pool.intern(entry.form)
                r[.taxonRow] = UInt32(entry.taxon)
                names.append(r)
                nameKeys.append(PackedKey.pack(entry.folded))
            }
        }

        mutating func add(to artifact: inout ArtifactBuilder, strings remap: [UInt32]) {
            artifact.addSection(S.Section.taxa, &taxa, strings: remap)
            artifact.addSection(S.Section.names, &names, strings: remap)
            artifact.addSection(S.Section.nameKeys, keys: nameKeys)
        }
    }
}
