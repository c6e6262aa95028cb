import FieldGuideArtifact
import Foundation

/// What the user chose in the identifier: every field optional.
///
/// ```swift
/// let query = BirdIdentificationQuery(shape: "Corvidae", size: 2, location: "Urban",
///                                     month: BirdIdentificationQuery.month(ofISODate: "2026-01-15"))
/// ```
public struct BirdIdentificationQuery: Sendable, Hashable, Codable {
    public var shape: String?
    /// 0 (tiny) … 4 (very large).
    public var size: Int?
    public var location: String?
    /// 1–12, the month of the sighting's date.
    public var month: Int?
    /// Chosen field-mark variant ids.
    public var variants: [String]

    public init(shape: String? = nil, size: Int? = nil, location: String? = nil, month: Int? = nil, variants: [String] = []) {
        self.shape = shape
        self.size = size
        self.location = location
        self.month = month
        self.variants = variants
    }

    /// The month of a `YYYY-MM-DD` date (a longer ISO 8601 timestamp works too), nil if it is not one.
    public static func month(ofISODate text: String) -> Int? {
        BirdsBundle.yearMonthDay(text)?.month
    }
}

/// One scoring feature of a candidate: what was compared and the points it gave.
///
/// ```swift
/// candidate.matched.map(\.description)   // ["shape Corvidae (+30)", "size 2 (exact) (+20)", …]
/// ```
public struct IdentificationFeature: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable { case shape, size, location, month, variant }
    public let kind: Kind
    /// What was compared: `Corvidae`, `2 (exact)`, `Urban`, `1`, `Crown: Streaked`.
    public let detail: String
    public let points: Int
    public var description: String { "\(kind.rawValue) \(detail) (\(points > 0 ? "+" : "")\(points))" }
}

/// A ranked identification result.
///
/// ```swift
/// let best = birds.identify(query).first
/// best?.bird.commonName; best?.confidence; best?.mismatched
/// ```
public struct BirdCandidate: Sendable {
    public let bird: BirdRecord
    public let score: Int
    /// `score / 100` clamped to 0…1.
    public let confidence: Double
    public let matched: [IdentificationFeature]
    public let mismatched: [IdentificationFeature]
}

extension BirdsBundle {
    /// Ranks the birds as the identifier app does.
    ///
    /// A chosen shape is a strict filter (+30 when it matches). Size: the chosen category ±1 is
    /// the range, exact +20, within +10, otherwise −20 (only when the bird has a size). A chosen
    /// location not among the bird's locations −30. The date's month not among the bird's months
    /// −50 (only when the bird lists months). Per chosen variant +25 when the bird shows that
    /// variant on that area, otherwise −10 (only when the bird has field marks). Confidence is
    /// score/100 clamped to 0…1; candidates above 0.1 are kept, sorted by confidence, ties by
    /// common name. Locations compare case- and diacritic-insensitively.
    ///
    /// ```swift
    /// birds.identify(.init(shape: "Corvidae", size: 2, location: "Urban", month: 1)).map(\.bird.commonName)
    /// // ["House Crow", "Black Drongo"]
    /// ```
    public func identify(_ query: BirdIdentificationQuery) -> [BirdCandidate] {
        typealias C = BirdsSchema.SpeciesColumn
        // Resolve the query to pool ids and rows once.
        var shapeID: UInt32?
        if let shape = query.shape {
            guard let id = strings.id(of: shape.trimmingCharacters(in: .whitespaces)) else { return [] }
            shapeID = id
        }
        let regionRow = query.location.map { self.regionRow($0) ?? UInt32.max }
        let chosen: [(variant: UInt32?, area: UInt32?, id: String)] = query.variants.map { id in
            guard let poolID = strings.id(of: id) else { return (nil, nil, id) }
            let row = variants.find(.id, poolID)
            return (poolID, row.map { variants.value($0, .area) }, id)
        }
        let monthBit: UInt32? = query.month.flatMap { (1...12).contains($0) ? UInt32(1) << UInt32($0 - 1) : nil }

        var scored: [(row: Int, score: Int)] = []
        for row in 0..<speciesRows.count {
            var score = 0
            if let shapeID {
                guard speciesRows.value(row, .shapeID) == shapeID else { continue }
                score += 30
            }
            if let size = query.size, let birdSize = speciesRows.number(row, .sizeCategory) {
                score += birdSize == size ? 20 : abs(birdSize - size) <= 1 ? 10 : -20
            }
            if let regionRow, !hasLocation(row, regionRow) { score -= 30 }
            if let monthBit {
                let mask = speciesRows.value(row, .monthMask)
                if mask != 0 && mask & monthBit == 0 { score -= 50 }
            }
            if !chosen.isEmpty {
                let markCount = Int(speciesRows.value(row, .markCount))
                for choice in chosen {
                    if hasMark(row, variant: choice.variant, area: choice.area) { score += 25 } else if markCount > 0 { score -= 10 }
                }
            }
            if Double(min(max(score, 0), 100)) / 100 > 0.1 { scored.append((row, score)) }
        }
        // Rows are in common-name order, so a stable sort by score keeps ties by name.
        let clamped = { (s: Int) in min(max(s, 0), 100) }
        let ordered = scored.enumerated().sorted { a, b in
            let x = clamped(a.element.score), y = clamped(b.element.score)
            return x != y ? x > y : a.offset < b.offset
        }
        return ordered.map { candidate(row: $0.element.row, score: $0.element.score, query: query, shapeMatched: shapeID != nil,
                                       regionRow: regionRow, chosen: chosen) }
    }

    private func hasLocation(_ row: Int, _ region: UInt32) -> Bool {
        let first = Int(speciesRows.value(row, .locationFirst)), count = Int(speciesRows.value(row, .locationCount))
        for i in first..<(first + count) where locations.value(i, .regionRow) == region { return true }
        return false
    }

    private func hasMark(_ row: Int, variant: UInt32?, area: UInt32?) -> Bool {
        guard let variant else { return false }
        let first = Int(speciesRows.value(row, .markFirst)), count = Int(speciesRows.value(row, .markCount))
        for i in first..<(first + count) where marks.value(i, .variantID) == variant {
            if area == nil || marks.value(i, .area) == area! { return true }
        }
        return false
    }

    /// The features behind a kept candidate's score (built only for the candidates returned).
    private func candidate(row: Int, score: Int, query: BirdIdentificationQuery, shapeMatched: Bool, regionRow: UInt32?,
                           chosen: [(variant: UInt32?, area: UInt32?, id: String)]) -> BirdCandidate {
        var matched: [IdentificationFeature] = [], mismatched: [IdentificationFeature] = []
        if shapeMatched, let shape = query.shape { matched.append(.init(kind: .shape, detail: shape, points: 30)) }
        if let size = query.size, let birdSize = speciesRows.number(row, .sizeCategory) {
            if birdSize == size { matched.append(.init(kind: .size, detail: "\(birdSize) (exact)", points: 20)) }
            else if abs(birdSize - size) <= 1 { matched.append(.init(kind: .size, detail: "\(birdSize) (within \(size)±1)", points: 10)) }
            else { mismatched.append(.init(kind: .size, detail: "\(birdSize) (outside \(size)±1)", points: -20)) }
        }
        if let regionRow, let location = query.location {
            if hasLocation(row, regionRow) { matched.append(.init(kind: .location, detail: location, points: 0)) }
            else { mismatched.append(.init(kind: .location, detail: location, points: -30)) }
        }
        if let month = query.month, (1...12).contains(month) {
            let mask = speciesRows.value(row, .monthMask)
            if mask != 0 {
                if mask & (1 << UInt32(month - 1)) != 0 { matched.append(.init(kind: .month, detail: String(month), points: 0)) }
                else { mismatched.append(.init(kind: .month, detail: String(month), points: -50)) }
            }
        }
        let markCount = Int(speciesRows.value(row, .markCount))
        for choice in chosen {
            let v = variant(id: choice.id)
            let detail = v.map { "\($0.area): \($0.name)" } ?? choice.id
            if hasMark(row, variant: choice.variant, area: choice.area) { matched.append(.init(kind: .variant, detail: detail, points: 25)) }
            else if markCount > 0 { mismatched.append(.init(kind: .variant, detail: detail, points: -10)) }
        }
        return BirdCandidate(bird: BirdRecord(bundle: self, row: row), score: score, confidence: Double(min(max(score, 0), 100)) / 100,
                             matched: matched, mismatched: mismatched)
    }
}
