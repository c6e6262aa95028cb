import FieldGuideArtifact
import FieldGuideDiagnostics
import Foundation

/// How often a taxon is reported in a region and period, from its bar-chart frequency.
public enum Rarity: String, Sendable, Hashable, Codable {
    case common, uncommon, rare
    /// The chart has fewer checklists in the period than the scale's floor: no class is said.
    case tooFewChecklists = "too few checklists"
}

/// Where the rarity classes start, and the fewest checklists a class is said on.
///
/// ```swift
/// RarityScale.standard.rarity(frequency: 0.05, checklists: 509)   // .uncommon
/// RarityScale.standard.rarity(frequency: 0.5, checklists: 4)      // .tooFewChecklists
/// ```
public struct RarityScale: Sendable, Hashable {
    /// Reported on at least this share of checklists: common.
    public var common: Double
    /// At least this share: uncommon; less but above 0: rare.
    public var uncommon: Double
    /// Fewer checklists than this in the period: `tooFewChecklists`.
    public var minimumChecklists: Int

    public init(common: Double = 0.1, uncommon: Double = 0.02, minimumChecklists: Int = 10) {
        self.common = common
        self.uncommon = uncommon
        self.minimumChecklists = minimumChecklists
    }

    /// Common from 10% of checklists, uncommon from 2%, rare below; said on 10 checklists or more.
    public static let standard = RarityScale()

    /// The class of a frequency over `checklists`; nil when nobody reported the taxon on enough checklists.
    public func rarity(frequency: Double, checklists: Int) -> Rarity? {
        guard checklists >= minimumChecklists else { return .tooFewChecklists }
        return frequency >= common ? .common : frequency >= uncommon ? .uncommon : frequency > 0 ? .rare : nil
    }
}

extension BirdsBundle {
    /// The rarity class of a taxon in a region's bar chart in a period (1–48); nil when the
    /// region has no chart, the chart lacks the taxon, or nobody reported it.
    ///
    /// ```swift
    /// birds.rarity(of: "Ivory Gull", region: "Svalbard", period: 26)   // .uncommon (0.096 of 509 checklists)
    /// ```
    public func rarity(of taxon: String, region: String, period: Int, scale: RarityScale = .standard) -> Rarity? {
        guard let frequency = frequency(of: taxon, region: region, period: period), let samples = sampleSizes(region: region) else { return nil }
        return scale.rarity(frequency: frequency, checklists: samples[period - 1])
    }

    /// Every loaded source's answer for a region in a bar-chart period (1–48, four per month:
    /// days 1–7, 8–14, 15–21, 22 to the end; BirdNET's week of 48): the seed lists and users'
    /// observations of the week that holds the period's first day, the chart's one period.
    public func occurrence(inRegion region: String, period: Int) -> RegionOccurrence {
        guard (1...BirdsSchema.periodsPerYear).contains(period) else {
            return RegionOccurrence(region: region, period: "period \(period)", sources: [], present: [], absent: [], unknown: [])
        }
        let week = Self.week(ofPeriod: period)
        var collector = OccurrenceCollector()
        collector.addSeed(species(inRegion: region, week: week))
        collector.addChart(self, region: region, periods: [period])
        collector.addObserved(observedSpecies(inRegion: region, week: week))
        collector.addSeasons(self, months: [(period - 1) / 4 + 1])
        return collector.result(region: region, period: "period \(period)")
    }

    /// The week of the year (1–53, days 7(w−1)+1 … 7w) holding the first day of a bar-chart
    /// period (1–48; one outside reads as the nearest, so a bad period never traps).
    public static func week(ofPeriod period: Int) -> Int {
        let period = min(max(period, 1), 48)
        let monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let month = (period - 1) / 4, day = (period - 1) % 4 * 7 + 1
        let dayOfYear = monthDays.prefix(month).reduce(0, +) + day
        return (dayOfYear - 1) / 7 + 1
    }
}

/// BirdNET's species-list controls over a region's answer: a frequency threshold, and lists
/// of taxa to keep (include) or leave out (exclude).
///
/// A list names taxa one a line, by species code, scientific or common name, or as BirdNET
/// labels write them (`Pagophila eburnea_Ivory Gull`); `#` starts a comment.
///
/// ```swift
/// let filter = SpeciesFilter(threshold: 0.03, exclude: try SpeciesFilter.list(contentsOf: "exclude.txt"))
/// birds.occurrence(inRegion: "Svalbard", period: 26).filtered(filter).present
/// ```
public struct SpeciesFilter: Sendable {
    /// Present taxa whose only regional word is a bar-chart frequency below this are left out.
    public var threshold: Double
    /// When set, only taxa named here are kept.
    public var include: Set<String>?
    public var exclude: Set<String>

    public init(threshold: Double = 0, include: Set<String>? = nil, exclude: Set<String> = []) {
        self.threshold = threshold
        self.include = include.map { Set($0.map(Self.folded)) }
        self.exclude = Set(exclude.map(Self.folded))
    }

    /// The largest list file read: 16 MiB, as a BirdNET labels file (the real ones are about
    /// 250 KB); checked from its size before it is read.
    public static let maximumListBytes = 16 << 20

    /// The names of a list file (see the type's summary), each label's two halves both kept.
    /// A file that is not there, not a regular file, over `maximumListBytes` or not UTF-8 is
    /// refused, naming the file.
    public static func list(contentsOf path: String) throws(LocatedError) -> Set<String> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LocatedError(.missingFile, file: path, message: "no such file or directory")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard !isDirectory.boolValue, attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw LocatedError(.unreadable, file: path, expected: "a list of taxa, one a line",
                               found: isDirectory.boolValue ? "a directory" : "not a regular file", message: "not a file to read")
        }
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumListBytes else {
            throw LocatedError(.tooLarge, file: path, expected: "a list of at most \(maximumListBytes >> 20) MiB", found: "\(size) bytes",
                               message: "too large for a list of taxa; refused before reading it")
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= maximumListBytes else {
            throw LocatedError(.unreadable, file: path, message: "could not be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LocatedError(.encoding, file: path, message: "not UTF-8 text (a Latin-1 or other legacy encoding?); save it as UTF-8")
        }
        return list(text: text)
    }

    /// The names of a list's text (see the type's summary).
    public static func list(text: String) -> Set<String> {
        var names: Set<String> = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            names.insert(line)
            for half in line.split(separator: "_", maxSplits: 1) { names.insert(String(half)) }
        }
        return names
    }

    static func folded(_ name: String) -> String { NameFolding.fold(name) }

    /// Whether a taxon passes the lists.
    public func admits(speciesCode: String, scientificName: String, commonName: String) -> Bool {
        let names = [speciesCode, scientificName, commonName].filter { !$0.isEmpty }.map(Self.folded)
        if let include, !names.contains(where: include.contains) { return false }
        return !names.contains(where: exclude.contains)
    }
}

extension RegionOccurrence {
    /// This answer with the filter applied: listed taxa kept or left out, and present taxa
    /// whose only regional word is a bar-chart frequency under the threshold left out.
    public func filtered(_ filter: SpeciesFilter) -> RegionOccurrence {
        func kept(_ taxa: [TaxonOccurrence]) -> [TaxonOccurrence] {
            taxa.filter { filter.admits(speciesCode: $0.speciesCode, scientificName: $0.scientificName, commonName: $0.commonName) }
        }
        let present = kept(present).filter { taxon in
            let regional = taxon.evidence.filter { $0.source != .seasons && $0.says == .present }
            return regional.contains { $0.source != .barChart || ($0.frequency ?? 0) >= filter.threshold }
        }
        return RegionOccurrence(region: region, period: period, sources: sources, present: present, absent: kept(absent), unknown: kept(unknown))
    }
}
