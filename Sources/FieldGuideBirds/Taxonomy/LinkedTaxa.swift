import FieldGuideArtifact

/// Every taxon the birds artifact knows, and how each source links to one: worked out once, by
/// `ingest-birds`, from the seed birds, the taxonomy, bar charts, Status & Trends runs and
/// BirdNET labels; handed to `emit-birds` (and to `ingest-exports`, which resolves names
/// against it) as `taxa.csv`, `names.csv`, `bar-charts.csv` and `seasons.csv`.
///
/// A taxon is a seed bird's (the taxonomy's entry for its species code or scientific name, else
/// the bird itself), a bar-chart row's (the taxonomy's entry for its common name, else a seed
/// bird of that name, else the row's name alone with the category its form implies) or a
/// season's (the taxonomy's entry for its code, else the run's own names). Taxa are sorted by
/// code, scientific name and common name, and referred to by their position.
///
/// ```swift
/// let linked = LinkedTaxa.link(birds: [.init(id: "b1", speciesCode: "houspa", commonName: "House Sparrow",
///                                           scientificName: "Passer domesticus", family: "Passeridae")],
///                              taxonomy: nil, barCharts: [], seasons: [], labels: [])
/// linked.taxa[0].birdIDs   // ["b1"]
/// linked.names.map(\.form) // ["common", "code", "scientific"]
/// ```
public struct LinkedTaxa: Sendable {
    /// A seed bird as the linking sees it (its `species.csv` fields).
    public struct Bird: Sendable {
        public var id, speciesCode, commonName, scientificName, family: String
        public init(id: String, speciesCode: String, commonName: String, scientificName: String, family: String) {
            self.id = id; self.speciesCode = speciesCode; self.commonName = commonName
            self.scientificName = scientificName; self.family = family
        }
    }

    /// One taxon; `birdIDs` are its seed birds in species order, the first being the taxon's bird.
    public struct Taxon: Sendable, Hashable {
        public var speciesCode, commonName, scientificName: String
        /// The taxonomy's category (`species`, `spuh`, `slash`, `hybrid` …); empty when unresolved.
        public var category: String
        public var family: String
        public var birdIDs: [String]
        public init(speciesCode: String, commonName: String, scientificName: String, category: String, family: String, birdIDs: [String] = []) {
            self.speciesCode = speciesCode; self.commonName = commonName; self.scientificName = scientificName
            self.category = category; self.family = family; self.birdIDs = birdIDs
        }
    }

    /// One name form of a taxon: `common`, `scientific`, `code`, or a labels language (`de`).
    public struct Name: Sendable, Hashable {
        /// `NameFolding.fold(name)`: what lookups compare.
        public var folded, name, form: String
        public var taxon: Int
        public init(folded: String, name: String, form: String, taxon: Int) {
            self.folded = folded; self.name = name; self.form = form; self.taxon = taxon
        }
    }

    /// One bar-chart row; `taxon` is nil for a chart's sample-size row (checklists per period).
    public struct ChartRow: Sendable {
        public var region: String
        public var name: String
        public var taxon: Int?
        public var values: [Double]
        public init(region: String, name: String, taxon: Int?, values: [Double]) {
            self.region = region; self.name = name; self.taxon = taxon; self.values = values
        }
    }

    /// One Status & Trends run; dates are `month × 100 + day`.
    public struct Season: Sendable {
        public var taxon: Int
        public var speciesCode: String
        public var resident: Bool
        public var breeding, nonbreeding, prebreedingMigration, postbreedingMigration: (start: Int, end: Int)?
        public init(taxon: Int, speciesCode: String, resident: Bool, breeding: (start: Int, end: Int)?, nonbreeding: (start: Int, end: Int)?,
                    prebreedingMigration: (start: Int, end: Int)?, postbreedingMigration: (start: Int, end: Int)?) {
            self.taxon = taxon; self.speciesCode = speciesCode; self.resident = resident; self.breeding = breeding
            self.nonbreeding = nonbreeding; self.prebreedingMigration = prebreedingMigration; self.postbreedingMigration = postbreedingMigration
        }
    }

    public var taxa: [Taxon] = []
    /// Sorted by folded name, then taxon, form and name.
    public var names: [Name] = []
    /// Charts in the order given, each chart's rows in file order and then its sample-size row.
    public var chartRows: [ChartRow] = []
    /// In file order.
    public var seasons: [Season] = []
    /// `barChartUnresolved` and `barChartNonSpecies` (when there are any), `labels.LANG` (label
    /// names that matched a taxon) per labels file.
    public var counts: [String: Int] = [:]

    public init() {}

    /// The artifact's species order: common name, then bird id, in UTF-8 byte order.
    package static func speciesPrecede(_ a: (commonName: String, id: String), _ b: (commonName: String, id: String)) -> Bool {
        a.commonName == b.commonName ? utf8Precedes(a.id, b.id) : utf8Precedes(a.commonName, b.commonName)
    }

    /// Links the sources to taxa (see the type's description).
    public static func link(birds: [Bird], taxonomy: Taxonomy?, barCharts: [EBirdBarChart], seasons: [SpeciesSeasonRow],
                            labels: [LocalizedLabels]) -> LinkedTaxa {
        let species = birds.sorted { speciesPrecede(($0.commonName, $0.id), ($1.commonName, $1.id)) }
        var drafts = TaxonDrafts(taxonomy: taxonomy)
        let birdKeys = drafts.add(species)
        let chartKeys = barCharts.map { drafts.add($0, birdKeys: birdKeys, species: species) }
        let seasonKeys = seasons.map { drafts.add($0) }
        let keys = drafts.sortedKeys()
        var row: [String: Int] = [:]
        for (index, key) in keys.enumerated() { row[key] = index }

        var linked = LinkedTaxa()
        linked.counts = drafts.counts
        linked.taxa = keys.map { drafts.taxon($0) }
        var birdName: [Int: String] = [:]   // taxon row → the common name of its (first) bird
        for (bird, key) in zip(species, birdKeys) {
            linked.taxa[row[key]!].birdIDs.append(bird.id)
            if birdName[row[key]!] == nil { birdName[row[key]!] = bird.commonName }
        }
        for (chart, chartKeys) in zip(barCharts, chartKeys) {
            for (chartRow, key) in zip(chart.rows, chartKeys) {
                linked.chartRows.append(ChartRow(region: chart.region, name: chartRow.name, taxon: row[key]!, values: chartRow.frequencies))
            }
            linked.chartRows.append(ChartRow(region: chart.region, name: "", taxon: nil, values: chart.sampleSizes))
        }
        for (season, key) in zip(seasons, seasonKeys) {
            linked.seasons.append(Season(taxon: row[key]!, speciesCode: season.speciesCode, resident: season.resident, breeding: season.breeding,
                                         nonbreeding: season.nonbreeding, prebreedingMigration: season.prebreedingMigration,
                                         postbreedingMigration: season.postbreedingMigration))
        }
        linked.addNames(birdName: birdName, labels: labels)
        return linked
    }

    /// The names index: each taxon's common, scientific and code names and its seed bird's
    /// common name, then the labels' names of taxa with that scientific name.
    private mutating func addNames(birdName: [Int: String], labels: [LocalizedLabels]) {
        // Keyed by the three parts themselves: a key interpolated into one string cost more
        // than hashing the parts.
        struct Key: Hashable { let folded, form: String; let taxon: Int }
        var seen = Set<Key>()
        var names: [Name] = []
        func add(_ name: String, _ form: String, _ taxon: Int) {
            guard !name.isEmpty else { return }
            let folded = NameFolding.fold(name)
            guard seen.insert(Key(folded: folded, form: form, taxon: taxon)).inserted else { return }
            names.append(Name(folded: folded, name: name, form: form, taxon: taxon))
        }
        var rowsByScientific: [String: [Int]] = [:]
        for (row, taxon) in taxa.enumerated() {
            add(taxon.commonName, "common", row)
            add(taxon.scientificName, "scientific", row)
            add(taxon.speciesCode, "code", row)
            if let common = birdName[row] { add(common, "common", row) }
            if !taxon.scientificName.isEmpty { rowsByScientific[taxon.scientificName, default: []].append(row) }
        }
        for file in labels.sorted(by: { utf8Precedes($0.language, $1.language) }) {
            var used = 0
            // Only the labels of linked taxa are sorted (a 6K-line file, of which the taxa use some).
            // Gathered into an array with their rows (filtering the dictionary made another one).
            let linked = file.names.compactMap { label in rowsByScientific[label.key].map { (scientific: label.key, name: label.value, rows: $0) } }
            for (_, name, rows) in linked.sorted(by: { utf8Precedes($0.scientific, $1.scientific) }) {
                used += 1
                for row in rows { add(name, file.language, row) }
            }
            counts["labels." + file.language] = used
        }
        self.names = names.sorted { a, b in
            let folded = utf8Order(a.folded, b.folded)
            if folded != 0 { return folded < 0 }
            if a.taxon != b.taxon { return a.taxon < b.taxon }
            let form = utf8Order(a.form, b.form)
            return form != 0 ? form < 0 : utf8Precedes(a.name, b.name)
        }
    }
}

/// UTF-8 byte order: how the artifact's tables and the hand-off's taxa are sorted, whatever the locale.
package func utf8Precedes(_ a: String, _ b: String) -> Bool { utf8Order(a, b) < 0 }

/// The UTF-8 byte order of `a` and `b`: negative when `a` comes first, 0 when their bytes are
/// the same, positive when `b` comes first.
///
/// Why the artifact's byte comparison (`FieldGuideArtifact.compare`, `memcmp`):
/// `UTF8View.lexicographicallyPrecedes` walks both views through the generic collection
/// protocol, about 200 instructions for two 20-byte names, and sorting the names index made a
/// tenth of `ingest-birds`' instructions. Both views are contiguous (native strings; a small
/// one is copied to the stack), so the bytes are compared where they are.
///
/// ```swift
/// utf8Order("Zebra", "apple") < 0   // true: "Z" is 0x5A, "a" 0x61
/// ```
package func utf8Order(_ a: String, _ b: String) -> Int {
    let order = a.utf8.withContiguousStorageIfAvailable { x in
        b.utf8.withContiguousStorageIfAvailable { y in FieldGuideArtifact.compare(UnsafeRawBufferPointer(x), UnsafeRawBufferPointer(y)) }
    }
    if let order = order ?? nil { return order }
    if a.utf8.elementsEqual(b.utf8) { return 0 }
    return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
}

/// Taxa being gathered, by key: the species code, or the scientific and common name of a taxon
/// without one. The first source to name a key gives its fields; a seed bird's key also
/// remembers the first bird (in species order) that has it.
struct TaxonDrafts {
    struct Draft {
        var code, common, scientific, category, family: String
        var speciesIndex: Int?
    }

    let taxonomy: Taxonomy?
    private var byCode: [String: FieldGuideBirds.Taxon] = [:]
    private var drafts: [String: Draft] = [:]
    private var birdsByFoldedName: [String: Int] = [:]
    var counts: [String: Int] = [:]

    init(taxonomy: Taxonomy?) {
        self.taxonomy = taxonomy
        for taxon in taxonomy?.taxa ?? [] where byCode[taxon.speciesCode] == nil { byCode[taxon.speciesCode] = taxon }
    }

    private func draft(_ taxon: FieldGuideBirds.Taxon) -> Draft {
        Draft(code: taxon.speciesCode, common: taxon.commonName, scientific: taxon.scientificName, category: taxon.category, family: taxon.family)
    }

    private func key(_ d: Draft) -> String { d.code.isEmpty ? "\u{0}" + d.scientific + "\u{0}" + d.common : d.code }

    /// The seed birds, in species order: each one's key.
    mutating func add(_ species: [LinkedTaxa.Bird]) -> [String] {
        var keys: [String] = []
        for (index, bird) in species.enumerated() {
            var d: Draft
            if !bird.speciesCode.isEmpty, let taxon = byCode[bird.speciesCode] { d = draft(taxon) }
            else if bird.speciesCode.isEmpty, let taxon = taxonomy?.taxon(scientificName: bird.scientificName) { d = draft(taxon) }
            else { d = Draft(code: bird.speciesCode, common: bird.commonName, scientific: bird.scientificName, category: "species", family: bird.family) }
            let k = key(d)
            if drafts[k]?.speciesIndex == nil { d.speciesIndex = index; drafts[k] = d }
            keys.append(k)
            let folded = Taxonomy.fold(bird.commonName)
            if birdsByFoldedName[folded] == nil { birdsByFoldedName[folded] = index }
        }
        return keys
    }

    /// A bar chart: each row's key.
    mutating func add(_ chart: EBirdBarChart, birdKeys: [String], species: [LinkedTaxa.Bird]) -> [String] {
        var keys: [String] = []
        for row in chart.rows {
            var d: Draft
            if let taxon = taxonomy?.taxon(commonName: row.name) { d = draft(taxon) }
            else if let index = birdsByFoldedName[Taxonomy.fold(row.name)] { d = drafts[birdKeys[index]]! }
            else {
                counts["barChartUnresolved", default: 0] += 1
                let category = row.name.contains("(hybrid)") ? "hybrid" : row.name.contains("/") ? "slash" : row.name.hasSuffix(" sp.") ? "spuh" : ""
                d = Draft(code: "", common: row.name, scientific: "", category: category, family: "")
            }
            if d.category != "species" { counts["barChartNonSpecies", default: 0] += 1 }
            let k = key(d)
            if drafts[k] == nil { drafts[k] = d }
            keys.append(k)
        }
        return keys
    }

    /// A Status & Trends run: its key.
    mutating func add(_ season: SpeciesSeasonRow) -> String {
        let d = byCode[season.speciesCode].map(draft)
            ?? Draft(code: season.speciesCode, common: season.commonName, scientific: season.scientificName, category: "species", family: "")
        let k = key(d)
        if drafts[k] == nil { drafts[k] = d }
        return k
    }

    /// Every key, in taxon order: code, scientific name, common name.
    func sortedKeys() -> [String] {
        // Sorted with their drafts beside them: two dictionary lookups a comparison were half the sort.
        drafts.sorted { a, b in
            let x = a.value, y = b.value
            if x.code != y.code { return utf8Precedes(x.code, y.code) }
            if x.scientific != y.scientific { return utf8Precedes(x.scientific, y.scientific) }
            return utf8Precedes(x.common, y.common)
        }.map(\.key)
    }

    func taxon(_ key: String) -> LinkedTaxa.Taxon {
        let d = drafts[key]!
        return LinkedTaxa.Taxon(speciesCode: d.code, commonName: d.common, scientificName: d.scientific, category: d.category, family: d.family)
    }
}
