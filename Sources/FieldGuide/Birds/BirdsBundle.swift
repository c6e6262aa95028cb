import FieldGuideArtifact
import Foundation

/// The birds artifact, memory-mapped: identification, species by region and month or week,
/// species near a point, names in every loaded language, bar-chart frequencies and seasons.
///
/// ```swift
/// let birds = try BirdsBundle(path: "output/birds.fgb")
/// birds.species(inRegion: "Urban", month: 1).present.map(\.commonName)   // ["Asian Koel", "Black Drongo", …]
/// birds.species(named: "haussperling").first?.commonName                 // "House Sparrow"
/// ```
public final class BirdsBundle: FieldGuideBundle {
    package typealias S = BirdsSchema

    public let artifact: ArtifactFile
    package let strings: StringPool
    package let speciesRows: RowTable<S.SpeciesColumn>
    package let locations: RowTable<S.SpeciesLocationColumn>
    package let marks: RowTable<S.SpeciesMarkColumn>
    package let shapes: RowTable<S.ShapeColumn>
    package let variants: RowTable<S.VariantColumn>
    package let regions: RowTable<S.RegionColumn>
    package let regionMonths: KeyTable
    package let regionWeeks: KeyTable
    package let hotspots: RowTable<S.HotspotColumn>
    package let hotspotCells: KeyTable
    package let hotspotSpecies: RowTable<S.HotspotSpeciesColumn>
    package let taxa: RowTable<S.TaxonColumn>
    package let names: RowTable<S.NameColumn>
    package let nameKeys: KeyTable
    package let barChart: RowTable<S.BarChartColumn>
    package let barChartValues: RowTable<S.BarChartValueColumn>
    package let seasonRows: RowTable<S.SeasonColumn>
    /// The observed source; empty for artifacts built without observations.
    package let observations: RowTable<S.ObservationColumn>?

    /// Opens and checks the artifact at `path` (a wrong kind, a bad checksum or a section that
    /// does not fit the schema is a `FieldGuideError`).
    public init(path: String, verification: ArtifactFile.Verification = .full) throws(FieldGuideError) {
        do {
            let opened = try OpenedArtifact(path: path, kind: S.kind, verification: verification)
            artifact = opened.file
            strings = try opened.strings(S.Section.strings)
            speciesRows = try opened.rows(S.Section.species)
            locations = try opened.rows(S.Section.speciesLocations)
            marks = try opened.rows(S.Section.speciesMarks)
            shapes = try opened.rows(S.Section.shapes)
            variants = try opened.rows(S.Section.variants)
            regions = try opened.rows(S.Section.regions)
            regionMonths = try opened.keys(S.Section.regionMonths)
            regionWeeks = try opened.keys(S.Section.regionWeeks)
            hotspots = try opened.rows(S.Section.hotspots)
            hotspotCells = try opened.keys(S.Section.hotspotCells, rows: hotspots.count)
            hotspotSpecies = try opened.rows(S.Section.hotspotSpecies)
            taxa = try opened.rows(S.Section.taxa)
            names = try opened.rows(S.Section.names)
            nameKeys = try opened.keys(S.Section.nameKeys, rows: names.count)
            barChart = try opened.rows(S.Section.barChart)
            barChartValues = try opened.rows(S.Section.barChartValues)
            seasonRows = try opened.rows(S.Section.seasons)
            observations = opened.has(S.Section.observations) ? try opened.rows(S.Section.observations) : nil
            try checkReferences()
        } catch {
            throw FieldGuideError(error)
        }
    }

    /// Row references that point past their tables would read other rows' bytes: refuse them
    /// at open (one pass over the small tables that hold references).
    private func checkReferences() throws(ArtifactError) {
        func bad(_ tag: FourCC, _ reason: String) -> ArtifactError { .malformedSection(path: path, section: tag.description, reason: reason) }
        for row in 0..<speciesRows.count {
            let lf = Int(speciesRows.value(row, .locationFirst)), lc = Int(speciesRows.value(row, .locationCount))
            let mf = Int(speciesRows.value(row, .markFirst)), mc = Int(speciesRows.value(row, .markCount))
            guard lf + lc <= locations.count, mf + mc <= marks.count else { throw bad(S.Section.species, "row \(row) lists locations or marks past their tables") }
        }
        for row in 0..<locations.count where Int(locations.value(row, .regionRow)) >= regions.count {
            throw bad(S.Section.speciesLocations, "row \(row) names region \(locations.value(row, .regionRow)) of \(regions.count)")
        }
        for row in 0..<hotspots.count {
            guard Int(hotspots.value(row, .speciesFirst)) + Int(hotspots.value(row, .speciesCount)) <= hotspotSpecies.count else {
                throw bad(S.Section.hotspots, "row \(row) lists species past HSPC")
            }
        }
        for row in 0..<barChart.count where Int(barChart.value(row, .valueFirst)) + S.periodsPerYear > barChartValues.count {
            throw bad(S.Section.barChart, "row \(row) lists values past BVAL")
        }
    }

    public var speciesCount: Int { speciesRows.count }
    public var hotspotCount: Int { hotspots.count }

    // MARK: Records

    /// Every bird of the seed database, by common name.
    public var allSpecies: [BirdRecord] { (0..<speciesRows.count).map { BirdRecord(bundle: self, row: $0) } }

    /// The bird with this seed-database id.
    public func bird(id: String) -> BirdRecord? {
        (0..<speciesRows.count).first { strings.string(speciesRows.value($0, .birdID)) == id }.map { BirdRecord(bundle: self, row: $0) }
    }

    /// The body shapes, by id.
    public var shapeList: [BirdShapeInfo] {
        (0..<shapes.count).map { BirdShapeInfo(id: string(shapes.value($0, .id)), name: string(shapes.value($0, .name)), icon: string(shapes.value($0, .icon))) }
    }

    /// The field-mark variant with this id.
    public func variant(id: String) -> FieldMarkVariantInfo? {
        guard let poolID = strings.id(of: id), let row = variants.find(.id, poolID) else { return nil }
        return FieldMarkVariantInfo(id: id, fieldMarkID: string(variants.value(row, .fieldMarkID)), shapeID: string(variants.value(row, .shapeID)),
                                    area: string(variants.value(row, .area)), name: string(variants.value(row, .name)))
    }

    /// Region names (bird locations and bar-chart regions), by folded name.
    public var regionNames: [String] { (0..<regions.count).map { string(regions.value($0, .name)) } }

    // MARK: Region tables

    /// Birds of a region in a month (1–12): `present` lists birds whose locations include the
    /// region and whose months include the month; `unknown` lists birds that might be there
    /// (no months listed, or no locations listed), which is not the same as never.
    public func species(inRegion region: String, month: Int) -> RegionalSpecies {
        guard (1...12).contains(month) else { return RegionalSpecies(present: [], unknown: []) }
        return regional(region, period: month, keys: regionMonths)
    }

    /// Birds of a region in a week of the year (1–53); see `species(inRegion:month:)`.
    public func species(inRegion region: String, week: Int) -> RegionalSpecies {
        guard (1...53).contains(week) else { return RegionalSpecies(present: [], unknown: []) }
        return regional(region, period: week, keys: regionWeeks)
    }

    /// The birds present in a region and month as a view over the table (two binary
    /// searches, nothing copied): the fast form of `species(inRegion:month:).present`.
    public func presentSpecies(inRegion region: String, month: Int) -> RegionRun {
        guard (1...12).contains(month), let regionRow = regionRow(region) else { return RegionRun(bundle: self, keys: regionMonths, range: 0..<0) }
        return RegionRun(bundle: self, keys: regionMonths, range: runRange(keys: regionMonths, region: regionRow, period: UInt32(month)))
    }

    /// The birds present in a region and week (1–53) as a view over the table.
    public func presentSpecies(inRegion region: String, week: Int) -> RegionRun {
        guard (1...53).contains(week), let regionRow = regionRow(region) else { return RegionRun(bundle: self, keys: regionWeeks, range: 0..<0) }
        return RegionRun(bundle: self, keys: regionWeeks, range: runRange(keys: regionWeeks, region: regionRow, period: UInt32(week)))
    }

    private func runRange(keys: KeyTable, region: UInt32, period: UInt32) -> Range<Int> {
        guard speciesRows.count > 0 else { return 0..<0 }
        let prefix = S.RegionKey.prefix(region: region, period: period)
        return keys.lowerBound(prefix)..<keys.lowerBound(prefix + (1 << 32))
    }

    func regionRow(_ name: String) -> UInt32? {
        let folded = NameFolding.fold(name.trimmingCharacters(in: .whitespaces))
        guard let id = strings.id(of: folded), let row = regions.find(.foldedName, id) else { return nil }
        return UInt32(row)
    }

    private func regional(_ region: String, period: Int, keys: KeyTable) -> RegionalSpecies {
        var present: [Int] = [], unknown: [Int] = []
        if let regionRow = regionRow(region) {
            run(keys: keys, region: regionRow, period: UInt32(period)) { present.append($0) }
            run(keys: keys, region: regionRow, period: S.anyPeriod) { unknown.append($0) }
        }
        run(keys: keys, region: S.anyRegion, period: UInt32(period)) { unknown.append($0) }
        run(keys: keys, region: S.anyRegion, period: S.anyPeriod) { unknown.append($0) }
        unknown.sort()
        return RegionalSpecies(present: present.map { BirdRecord(bundle: self, row: $0) }, unknown: unknown.map { BirdRecord(bundle: self, row: $0) })
    }

    private func run(keys: KeyTable, region: UInt32, period: UInt32, _ body: (Int) -> Void) {
        for index in runRange(keys: keys, region: region, period: period) {
            let row = Int(S.RegionKey.species(keys[index]))
            if row < speciesRows.count { body(row) }
        }
    }

    // MARK: Names

    /// Taxa with a name (common, scientific, species code, or a localized name of any loaded
    /// language) equal to `text`, case- and diacritic-insensitively; seed birds first.
    public func species(named text: String) -> [NamedTaxon] {
        let folded = NameFolding.fold(text.trimmingCharacters(in: .whitespaces))
        guard !folded.isEmpty else { return [] }
        var rows: [Int] = []
        var matched: [Int: (name: String, form: String)] = [:]
        Array(folded.utf8).withUnsafeBytes { key in
            let packed = PackedKey.pack(key)
            var row = nameKeys.lowerBound(packed)
            while row < names.count, nameKeys[row] == packed {
                if compare(strings.bytes(names.value(row, .foldedName)), key) == 0 {
                    let taxon = Int(names.value(row, .taxonRow))
                    if taxon < taxa.count, matched[taxon] == nil {
                        rows.append(taxon)
                        matched[taxon] = (string(names.value(row, .name)), string(names.value(row, .form)))
                    }
                }
                row += 1
            }
        }
        return rows.map { NamedTaxon(taxon: TaxonRecord(bundle: self, row: $0), matchedName: matched[$0]!.name, form: matched[$0]!.form) }
            .sorted { ($0.taxon.bird != nil ? 0 : 1, $0.taxon.row) < ($1.taxon.bird != nil ? 0 : 1, $1.taxon.row) }
    }

    /// The taxon with this eBird species code (`houspa`).
    public func taxon(code: String) -> TaxonRecord? {
        guard !code.isEmpty, let id = strings.id(of: code), let row = taxa.find(.speciesCode, id) else { return nil }
        return TaxonRecord(bundle: self, row: row)
    }

    /// A species code, or else the first taxon any name form matches.
    func resolveTaxon(_ text: String) -> TaxonRecord? {
        taxon(code: text.trimmingCharacters(in: .whitespaces)) ?? species(named: text).first?.taxon
    }

    // MARK: Bar charts and seasons

    /// The eBird bar-chart frequency (0…1) of a taxon (any name form or species code) in a
    /// region and period (1–48, four per month); nil when the region's chart lacks the taxon
    /// or the period is out of range. A taxon the chart lists but nobody reported reads 0.
    public func frequency(of taxon: String, region: String, period: Int) -> Double? {
        guard (1...S.periodsPerYear).contains(period), let values = frequencies(of: taxon, region: region) else { return nil }
        return values[period - 1]
    }

    /// All 48 frequencies of a taxon in a region's bar chart.
    public func frequencies(of taxon: String, region: String) -> [Double]? {
        guard let regionRow = regionRow(region), let record = resolveTaxon(taxon) else { return nil }
        return chartValues(region: regionRow, taxon: UInt32(record.row)).map { $0.map { Double($0) / S.frequencyScale } }
    }

    /// The checklists behind each period of a region's bar chart.
    public func sampleSizes(region: String) -> [Int]? {
        guard let regionRow = regionRow(region) else { return nil }
        return chartValues(region: regionRow, taxon: UInt32.max)?.map(Int.init)
    }

    /// Regions that have a bar chart.
    public var barChartRegions: [String] {
        var seen: [UInt32] = []
        for row in 0..<barChart.count where seen.last != barChart.value(row, .regionRow) { seen.append(barChart.value(row, .regionRow)) }
        return seen.filter { Int($0) < regions.count }.map { string(regions.value(Int($0), .name)) }
    }

    /// Every taxon of a region's bar chart with its 48 frequencies, in the chart's order.
    func chartTaxa(region: String) -> [(taxon: TaxonRecord, frequencies: [Double])] {
        guard let regionRow = regionRow(region) else { return [] }
        var low = 0, high = barChart.count
        while low < high {
            let mid = (low + high) / 2
            if barChart.value(mid, .regionRow) < regionRow { low = mid + 1 } else { high = mid }
        }
        var out: [(TaxonRecord, [Double])] = []
        var row = low
        while row < barChart.count, barChart.value(row, .regionRow) == regionRow {
            let taxon = barChart.value(row, .taxonRow), first = Int(barChart.value(row, .valueFirst))
            if Int(taxon) < taxa.count, first + S.periodsPerYear <= barChartValues.count {
                out.append((TaxonRecord(bundle: self, row: Int(taxon)),
                            (0..<S.periodsPerYear).map { Double(barChartValues.value(first + $0, .value)) / S.frequencyScale }))
            }
            row += 1
        }
        return out
    }

    private func chartValues(region: UInt32, taxon: UInt32) -> [UInt32]? {
        var low = 0, high = barChart.count
        while low < high {
            let mid = (low + high) / 2
            let r = barChart.value(mid, .regionRow), t = barChart.value(mid, .taxonRow)
            if r < region || (r == region && t < taxon) { low = mid + 1 } else { high = mid }
        }
        guard low < barChart.count, barChart.value(low, .regionRow) == region, barChart.value(low, .taxonRow) == taxon else { return nil }
        let first = Int(barChart.value(low, .valueFirst))
        return (0..<S.periodsPerYear).map { barChartValues.value(first + $0, .value) }
    }

    /// A taxon's eBird Status & Trends seasons (any name form or species code).
    public func seasons(of taxon: String) -> SpeciesSeasons? {
        guard let record = resolveTaxon(taxon), let row = seasonRows.find(.taxonRow, UInt32(record.row)) else { return nil }
        func range(_ start: S.SeasonColumn, _ end: S.SeasonColumn) -> SpeciesSeasons.DateRange? {
            guard let s = seasonRows.number(row, start), let e = seasonRows.number(row, end) else { return nil }
            return .init(startMonth: s / 100, startDay: s % 100, endMonth: e / 100, endDay: e % 100)
        }
        return SpeciesSeasons(speciesCode: record.speciesCode, resident: seasonRows.value(row, .resident) == 1,
                              breeding: range(.breedingStart, .breedingEnd), nonbreeding: range(.nonbreedingStart, .nonbreedingEnd),
                              prebreedingMigration: range(.prebreedingMigrationStart, .prebreedingMigrationEnd),
                              postbreedingMigration: range(.postbreedingMigrationStart, .postbreedingMigrationEnd))
    }

    // MARK: Internals

    package func string(_ id: UInt32) -> String { strings.string(id) }
}

/// A run of a region table: the birds of one region and period, read in place.
///
/// ```swift
/// let run = birds.presentSpecies(inRegion: "Urban", month: 1)
/// run.count                      // 26, without decoding a record
/// run.first?.commonName          // "Asian Koel"
/// ```
public struct RegionRun: RandomAccessCollection, Sendable {
    let bundle: BirdsBundle
    let keys: KeyTable
    let range: Range<Int>

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count }

    /// The bird at `position` (a corrupt species row number reads as the last bird, never out of bounds).
    public subscript(position: Int) -> BirdRecord {
        let row = Int(BirdsSchema.RegionKey.species(keys[range.lowerBound + position]))
        return BirdRecord(bundle: bundle, row: Swift.min(row, Swift.max(bundle.speciesRows.count - 1, 0)))
    }
}
