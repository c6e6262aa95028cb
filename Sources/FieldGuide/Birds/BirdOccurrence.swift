import FieldGuideArtifact
import Foundation

/// Whether a taxon occurs in a region and period, as one source or all of them say.
public enum Presence: String, Sendable, Hashable, Codable, Comparable {
    /// Seen or expected there then.
    case present
    /// Looked for there then and not found (a bar chart's checklists, none reporting it).
    case absent
    /// Nothing says either way (a seed bird with no months or no locations listed, a bar chart
    /// period without checklists).
    case unknown

    public static func < (a: Presence, b: Presence) -> Bool { a.rank < b.rank }
    private var rank: Int { self == .present ? 0 : self == .absent ? 1 : 2 }
}

/// A source of the birds artifact that can speak to where and when a taxon occurs.
public enum OccurrenceSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The seed database's locations and months.
    case seedList = "seed list"
    /// An eBird bar chart of the region: frequencies from complete checklists.
    case barChart = "bar chart"
    /// The app's users' observations.
    case observed
    /// eBird Status & Trends seasons (not regional: said of a taxon another source lists).
    case seasons = "status and trends"
}

/// One source's word on a taxon in a region and period, with what it rests on.
public struct OccurrenceEvidence: Sendable, Hashable, Codable {
    public let source: OccurrenceSource
    public let says: Presence
    /// What the source says in words: `frequency 0.096 (312 checklists)`, `listed for the region and period`.
    public let detail: String
    /// The bar chart's highest frequency over the period (0…1), when the source is a bar chart.
    public let frequency: Double?
    /// The bar chart's rarity class over the period (`RarityScale.standard`, from the share of
    /// all its checklists in the period that report the taxon), when the source is a bar chart.
    public var rarity: Rarity? = nil
}

/// A taxon in a region and period, with every source's word and the answer they add up to.
///
/// The answer: `present` when any regional source says so; else `absent` when a regional
/// source looked (a bar chart with checklists) and found none; else `unknown`. Status & Trends
/// seasons are not regional: they annotate taxa the regional sources list and never decide.
public struct TaxonOccurrence: Sendable {
    public let speciesCode: String
    public let commonName: String
    public let scientificName: String
    public let presence: Presence
    public let evidence: [OccurrenceEvidence]
    /// The seed database's bird, when the taxon is one.
    public let bird: BirdRecord?

    /// The region's bar chart's rarity class for the taxon in the period, when it has one.
    public var rarity: Rarity? { evidence.first { $0.source == .barChart }?.rarity }
}

/// Everything the loaded sources say about a region in a month or week.
///
/// ```swift
/// let july = birds.occurrence(inRegion: "Svalbard", month: 7)
/// july.present.first?.commonName                 // "Ivory Gull"
/// july.present.first?.evidence.first?.detail     // "frequency up to 0.096 (2,118 checklists in 4 periods)"
/// ```
public struct RegionOccurrence: Sendable {
    public let region: String
    /// `month 7` or `week 27`.
    public let period: String
    /// The sources that hold anything for this region and period.
    public let sources: [OccurrenceSource]
    public let present: [TaxonOccurrence]
    public let absent: [TaxonOccurrence]
    public let unknown: [TaxonOccurrence]
}

extension BirdsBundle {
    /// Every loaded source's answer for a region in a month (1–12): seed lists, the region's
    /// bar chart, users' observations, and Status & Trends seasons for the taxa they list.
    public func occurrence(inRegion region: String, month: Int) -> RegionOccurrence {
        guard (1...12).contains(month) else { return RegionOccurrence(region: region, period: "month \(month)", sources: [], present: [], absent: [], unknown: []) }
        var collector = OccurrenceCollector()
        collector.addSeed(species(inRegion: region, month: month))
        collector.addChart(self, region: region, periods: Array((month - 1) * 4 + 1...month * 4))
        collector.addObserved(observedSpecies(inRegion: region, month: month))
        collector.addSeasons(self, months: [month])
        return collector.result(region: region, period: "month \(month)")
    }

    /// Every loaded source's answer for a region in a week (1–53); see `occurrence(inRegion:month:)`.
    public func occurrence(inRegion region: String, week: Int) -> RegionOccurrence {
        guard (1...53).contains(week) else { return RegionOccurrence(region: region, period: "week \(week)", sources: [], present: [], absent: [], unknown: []) }
        var collector = OccurrenceCollector()
        collector.addSeed(species(inRegion: region, week: week))
        let period = Self.barChartPeriod(week: week)
        collector.addChart(self, region: region, periods: [period])
        collector.addObserved(observedSpecies(inRegion: region, week: week))
        collector.addSeasons(self, months: [(period - 1) / 4 + 1])
        return collector.result(region: region, period: "week \(week)")
    }

    /// The bar-chart period (1–48) holding the first day of a week of the year (1–53).
    static func barChartPeriod(week: Int) -> Int {
        let monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var day = (week - 1) * 7 + 1, month = 0
        while month < 11, day > monthDays[month] { day -= monthDays[month]; month += 1 }
        return month * 4 + min((day - 1) / 7, 3) + 1
    }
}

/// Gathers evidence per taxon, keyed by species code (a seed bird without one by its id).
struct OccurrenceCollector {
    private struct Entry {
        var speciesCode: String, commonName: String, scientificName: String
        var bird: BirdRecord?
        var evidence: [OccurrenceEvidence] = []
    }
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var sources: Set<OccurrenceSource> = []

    private mutating func add(key: String, _ make: @autoclosure () -> Entry, _ evidence: OccurrenceEvidence) {
        if entries[key] == nil { entries[key] = make(); order.append(key) }
        entries[key]!.evidence.append(evidence)
        sources.insert(evidence.source)
    }

    mutating func addSeed(_ seed: RegionalSpecies) {
        for (birds, says, detail) in [(seed.present, Presence.present, "listed for the region and period"),
                                      (seed.unknown, .unknown, "no months or no locations listed")] {
            for bird in birds {
                let key = bird.speciesCode.isEmpty ? "bird:" + bird.id : bird.speciesCode
                add(key: key, Entry(speciesCode: bird.speciesCode, commonName: bird.commonName, scientificName: bird.scientificName, bird: bird),
                    OccurrenceEvidence(source: .seedList, says: says, detail: detail, frequency: nil))
            }
        }
    }

    mutating func addChart(_ bundle: BirdsBundle, region: String, periods: [Int]) {
        guard let samples = bundle.sampleSizes(region: region) else { return }
        let checklists = periods.reduce(0) { $0 + samples[$1 - 1] }
        for (taxon, values) in bundle.chartTaxa(region: region) {
            let frequency = periods.map { values[$0 - 1] }.max() ?? 0
            let reports = periods.reduce(0.0) { $0 + values[$1 - 1] * Double(samples[$1 - 1]) }
            let rarity = RarityScale.standard.rarity(frequency: checklists > 0 ? reports / Double(checklists) : 0, checklists: checklists)
            let says: Presence = frequency > 0 ? .present : checklists > 0 ? .absent : .unknown
            let counted = "\(Self.grouped(checklists)) checklist\(checklists == 1 ? "" : "s")"
            let detail = checklists == 0 ? "no checklists in the period"
                : periods.count == 1 ? "frequency \(Self.decimal(frequency)) (\(counted))"
                : "frequency up to \(Self.decimal(frequency)) (\(counted) in \(periods.count) periods)"
            add(key: taxon.speciesCode, Entry(speciesCode: taxon.speciesCode, commonName: taxon.commonName,
                                              scientificName: taxon.scientificName, bird: taxon.bird),
                OccurrenceEvidence(source: .barChart, says: says, detail: detail, frequency: frequency, rarity: rarity))
        }
    }

    mutating func addObserved(_ observed: [ObservedSpecies]) {
        for item in observed {
            let taxon = item.taxon
            add(key: taxon.speciesCode, Entry(speciesCode: taxon.speciesCode, commonName: item.commonName,
                                              scientificName: taxon.scientificName, bird: taxon.bird),
                OccurrenceEvidence(source: .observed, says: .present,
                                   detail: "\(item.observations) observation\(item.observations == 1 ? "" : "s")", frequency: nil))
        }
    }

    /// Status & Trends speaks only of taxa a regional source listed (its seasons are not regional).
    mutating func addSeasons(_ bundle: BirdsBundle, months: [Int]) {
        for key in order {
            guard let code = entries[key]?.speciesCode, !code.isEmpty, let seasons = bundle.seasons(of: code) else { continue }
            let names = Self.seasonNames(seasons, months: months)
            let evidence = OccurrenceEvidence(source: .seasons, says: names.isEmpty ? .absent : .present,
                                              detail: names.isEmpty ? "out of season" : names.joined(separator: ", "), frequency: nil)
            entries[key]!.evidence.append(evidence)
            sources.insert(.seasons)
        }
    }

    func result(region: String, period: String) -> RegionOccurrence {
        var present: [TaxonOccurrence] = [], absent: [TaxonOccurrence] = [], unknown: [TaxonOccurrence] = []
        for key in order {
            let entry = entries[key]!
            let regional = entry.evidence.filter { $0.source != .seasons }.map(\.says)
            let presence = regional.min() ?? .unknown
            let item = TaxonOccurrence(speciesCode: entry.speciesCode, commonName: entry.commonName, scientificName: entry.scientificName,
                                       presence: presence, evidence: entry.evidence, bird: entry.bird)
            switch presence {
            case .present: present.append(item)
            case .absent: absent.append(item)
            case .unknown: unknown.append(item)
            }
        }
        let byName = { (a: TaxonOccurrence, b: TaxonOccurrence) in a.commonName < b.commonName }
        return RegionOccurrence(region: region, period: period, sources: OccurrenceSource.allCases.filter(sources.contains),
                                present: present.sorted(by: byName), absent: absent.sorted(by: byName), unknown: unknown.sorted(by: byName))
    }

    static func seasonNames(_ s: SpeciesSeasons, months: [Int]) -> [String] {
        if s.resident { return ["resident"] }
        let ranges: [(String, SpeciesSeasons.DateRange?)] = [("breeding", s.breeding), ("non-breeding", s.nonbreeding),
                                                              ("pre-breeding migration", s.prebreedingMigration),
                                                              ("post-breeding migration", s.postbreedingMigration)]
        return ranges.compactMap { name, range in
            guard let range else { return nil }
            return months.contains { covers(range, month: $0) } ? name : nil
        }
    }

    /// A date range (possibly across the new year) touches a month.
    static func covers(_ r: SpeciesSeasons.DateRange, month: Int) -> Bool {
        r.startMonth <= r.endMonth ? (r.startMonth...r.endMonth).contains(month) : month >= r.startMonth || month <= r.endMonth
    }

    /// A count with thousands separators.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        return String(digits.enumerated().flatMap { i, c in (i > 0 && (digits.count - i) % 3 == 0 ? [","] : []) + [c] })
    }

    /// A frequency with up to three decimals, no trailing zeros.
    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "0" && value > 0 ? String(format: "%.1g", value) : text
    }
}
