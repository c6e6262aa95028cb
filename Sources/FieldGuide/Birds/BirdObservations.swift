import FieldGuideArtifact
import FieldGuideDiagnostics
import Foundation

/// A species the app's users reported (the "observed" source), aggregated.
///
/// Kept apart from the seed presence tables: `species(inRegion:month:)` says where a bird is
/// expected, `observedSpecies(…)` where users saw it.
public struct ObservedSpecies: Sendable {
    public let taxon: TaxonRecord
    /// Observations (rows of the users' exports).
    public let observations: Int
    /// The sum of the counts that were given (nil when every one was `X`).
    public let totalCount: Int?
    public var commonName: String { taxon.bird?.commonName ?? taxon.commonName }
}

extension BirdsBundle {
    /// Every level of every region users' observations were stored with (`US`, `US-MD`,
    /// `Baltimore`, `US-MD, Baltimore`), for checking a region a user types.
    public var observedRegionLevels: [String] {
        guard let table = observations else { return [] }
        var ids = Set<UInt32>()
        for row in 0..<table.count { ids.insert(table.value(row, .region)) }
        return Array(Set(ids.flatMap { Self.regionLevels(string($0)) })).sorted()
    }

    /// How many observations the artifact's observed source holds (0 when built without).
    public var observationCount: Int { observations?.count ?? 0 }

    /// Observed species, optionally only in a region (case- and diacritic-insensitive: an
    /// eBird state such as `US-MD`), a month (1–12) or a week (1–53); most observed first.
    ///
    /// ```swift
    /// birds.observedSpecies(inRegion: "US-MD", month: 11).map(\.commonName)
    /// ```
    ///
    /// A region answers at every level it was stored with: an eBird export's `US-MD` state and
    /// `Prince George's` county are stored as `US-MD, Prince George's`, which `US`, `US-MD`,
    /// `Prince George's` and `US-MD, Prince George's` all find (`regionLevels(_:)`).
    public func observedSpecies(inRegion region: String? = nil, month: Int? = nil, week: Int? = nil) -> [ObservedSpecies] {
        let folded = region.map { NameFolding.fold($0.trimmingCharacters(in: .whitespaces)) }
        var levels: [UInt32: Set<String>] = [:]
        return aggregate { row, table in
            if let month, table.number(row, .month) != month { return false }
            if let week, table.number(row, .week) != week { return false }
            if let folded {
                let id = table.value(row, .region)
                if levels[id] == nil { levels[id] = Set(Self.regionLevels(string(id)).map(NameFolding.fold)) }
                if !levels[id]!.contains(folded) { return false }
            }
            return true
        }
    }

    /// The levels a stored observation region answers to, widest first: `US-MD, Prince
    /// George's` → `US` (country), `US-MD` (state), `Prince George's` and the whole text
    /// (county). A region without an ISO 3166-2 code answers to its text only.
    ///
    /// ```swift
    /// BirdsBundle.regionLevels("US-MD, Baltimore")   // ["US", "US-MD", "Baltimore", "US-MD, Baltimore"]
    /// ```
    public static func regionLevels(_ stored: String) -> [String] {
        let parts = stored.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let state = parts.first, !state.isEmpty else { return [] }
        var levels: [String] = []
        let code = state.split(separator: "-", maxSplits: 1)
        if code.count == 2, code[0].count == 2, code[0].allSatisfy({ $0.isASCII && $0.isLetter }) { levels.append(String(code[0])) }
        levels.append(state)
        if parts.count == 2, !parts[1].isEmpty { levels += [parts[1], stored] }
        return levels
    }

    /// Observed species within `radiusKm` (0 < r ≤ 500) of a point, in `week` or any week.
    public func observedSpecies(near point: (latitude: Double, longitude: Double), radiusKm: Double,
                                week: Int? = nil) throws(LocatedError) -> [ObservedSpecies] {
        try Self.checkPoint(point, radiusKm: radiusKm, field: "")
        if let week, !(1...53).contains(week) { throw LocatedError.query("week", "expected 1–53, found \(week)") }
        return aggregate { row, table in
            if let week, table.number(row, .week) != week { return false }
            guard let lat = table.number(row, .latitude).map({ S.HotspotGrid.decode(UInt32($0)) }),
                  let lon = table.number(row, .longitude).map({ S.HotspotGrid.decode(UInt32($0)) }) else { return false }
            return Self.distanceKm(point, (lat, lon)) <= radiusKm
        }
    }

    /// Groups matching observation rows by taxon (the table is sorted by taxon).
    private func aggregate(_ matches: (Int, RowTable<S.ObservationColumn>) -> Bool) -> [ObservedSpecies] {
        guard let table = observations else { return [] }
        var result: [ObservedSpecies] = []
        var row = 0
        while row < table.count {
            let taxon = Int(table.value(row, .taxonRow))
            var observed = 0, total = 0, anyCount = false
            while row < table.count, Int(table.value(row, .taxonRow)) == taxon {
                if matches(row, table) {
                    observed += 1
                    if let count = table.number(row, .count) { total += count; anyCount = true }
                }
                row += 1
            }
            if observed > 0, taxon < taxa.count {
                result.append(ObservedSpecies(taxon: TaxonRecord(bundle: self, row: taxon), observations: observed,
                                              totalCount: anyCount ? total : nil))
            }
        }
        return result.sorted { ($0.observations, $1.commonName) > ($1.observations, $0.commonName) }
    }
}
