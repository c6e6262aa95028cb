import FieldGuideArtifact
import FieldGuideDiagnostics
import Foundation

extension LocatedError {
    /// A query parameter that does not fit: the field it names (a path for rules,
    /// `rules[2].radiusKm`) and why. A usage error with no file.
    ///
    /// ```swift
    /// do { _ = try birds.species(near: (18.5, 73.8), radiusKm: 900) }
    /// catch { error.field }   // "radiusKm"; error.description: radiusKm: expected 0 < radiusKm ≤ 500, found 900.0
    /// ```
    static func query(_ field: String, _ message: String) -> LocatedError {
        LocatedError(.usage, file: "", field: field, message: message)
    }
}

/// A species seen at hotspots near a point.
///
/// ```swift
/// let near = try birds.species(near: (18.52, 73.85), radiusKm: 20, week: 16)
/// near[0].nearestHotspot   // "Saras Baug Gardens"
/// ```
public struct NearbySpecies: Sendable {
    public let bird: BirdRecord
    /// The highest probability (0–100) among the hotspots in range.
    public let probability: Int
    /// The nearest hotspot in range listing it, and its great-circle distance.
    public let nearestHotspot: String
    public let distanceKm: Double
    public let hotspotCount: Int
}

/// A watchlist auto-assignment rule.
///
/// ```swift
/// let rules = try WatchlistRule.decode(json: #"[{"type": "shape", "shapeId": "Corvidae"}]"#)
/// try birds.autoAssign(rules).map(\.bird.commonName)   // ["Black Drongo", "House Crow"]
/// ```
public struct WatchlistRule: Sendable, Hashable, Codable {
    public enum Condition: Sendable, Hashable, Codable {
        /// Species at hotspots within `radiusKm` (0 < r ≤ 500) of the point, in those weeks or any week.
        case location(latitude: Double, longitude: Double, radiusKm: Double, validWeeks: [Int]?)
        /// Species whose months overlap the months of `start…end` (`YYYY-MM-DD`; may span the new year).
        case dateRange(start: String, end: String)
        /// Species of these families (case-insensitive).
        case speciesFamily([String])
        /// Species of this shape.
        case shape(String)
    }

    public var condition: Condition
    public var isActive: Bool

    public init(_ condition: Condition, isActive: Bool = true) {
        self.condition = condition
        self.isActive = isActive
    }

    /// Rules from JSON: an array, or `{"rules": [...]}`; each `{"type": "location" | "date_range" |
    /// "species_family" | "shape", "isActive"?: bool, ...parameters}` with the parameters at the
    /// top level or under `"parameters"`. Missing or mistyped parameters name their field.
    public static func decode(json: String) throws(LocatedError) -> [WatchlistRule] {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(json.utf8)) } catch {
            throw LocatedError.query("rules", "expected JSON, found unreadable text")
        }
        let list: [Any]
        if let array = object as? [Any] { list = array }
        else if let dict = object as? [String: Any], let array = dict["rules"] as? [Any] { list = array }
        else { throw LocatedError.query("rules", "expected an array of rules or {\"rules\": [...]}") }
        var rules: [WatchlistRule] = []
        for (index, item) in list.enumerated() {
            let path = "rules[\(index)]"
            guard let dict = item as? [String: Any] else { throw LocatedError.query(path, "expected an object") }
            var parameters = dict
            if let nested = dict["parameters"] as? [String: Any] { parameters.merge(nested) { $1 } }
            func number(_ key: String) throws(LocatedError) -> Double {
                guard let value = parameters[key] as? NSNumber else {
                    throw LocatedError.query("\(path).\(key)", parameters[key] == nil ? "missing" : "expected a number")
                }
                return value.doubleValue
            }
            func text(_ key: String) throws(LocatedError) -> String {
                guard let value = parameters[key] as? String else {
                    throw LocatedError.query("\(path).\(key)", parameters[key] == nil ? "missing" : "expected a string")
                }
                return value
            }
            let condition: Condition
            switch dict["type"] as? String {
            case "location":
                var weeks: [Int]?
                if let raw = parameters["validWeeks"], !(raw is NSNull) {
                    guard let array = raw as? [Any], array.allSatisfy({ ($0 as? NSNumber).map { Double(truncating: $0).rounded() == Double(truncating: $0) } ?? false }) else {
                        throw LocatedError.query("\(path).validWeeks", "expected an array of week numbers")
                    }
                    weeks = array.map { ($0 as! NSNumber).intValue }
                }
                condition = .location(latitude: try number("lat"), longitude: try number("lon"), radiusKm: try number("radiusKm"), validWeeks: weeks)
            case "date_range":
                condition = .dateRange(start: try text("start"), end: try text("end"))
            case "species_family":
                guard let families = parameters["families"] as? [String] else {
                    throw LocatedError.query("\(path).families", parameters["families"] == nil ? "missing" : "expected an array of family names")
                }
                condition = .speciesFamily(families)
            case "shape":
                condition = .shape(try text("shapeId"))
            case let other:
                throw LocatedError.query("\(path).type", "expected location, date_range, species_family or shape, found \(other ?? "none")")
            }
            let active = (dict["isActive"] ?? dict["active"]) as? Bool ?? true
            rules.append(WatchlistRule(condition, isActive: active))
        }
        return rules
    }
}

/// A bird a watchlist's rules assign, with the indexes of the rules that matched it.
///
/// ```swift
/// try birds.autoAssign(rules).map { ($0.bird.commonName, $0.rules) }   // [("Black Drongo", [0]), …]
/// ```
public struct WatchlistAssignment: Sendable {
    public let bird: BirdRecord
    public let rules: [Int]
}

extension BirdsBundle {
    /// Mean Earth radius used for great-circle distances.
    public static let earthRadiusKm = 6371.0088

    /// Great-circle (haversine) distance in kilometres.
    public static func distanceKm(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(h)))
    }

    /// Birds listed at hotspots within `radiusKm` (0 < r ≤ 500) of a point, present in `week`
    /// (1–53) or in any week when nil; by probability, then common name.
    public func species(near point: (latitude: Double, longitude: Double), radiusKm: Double, week: Int? = nil) throws(LocatedError) -> [NearbySpecies] {
        try Self.checkPoint(point, radiusKm: radiusKm, field: "")
        if let week, !(1...53).contains(week) { throw LocatedError.query("week", "expected 1–53, found \(week)") }
        return nearby(point, radiusKm: radiusKm, weeks: week.map { [$0] })
    }

    /// Hotspots within `radiusKm` of a point: (row, distance), nearest first.
    func hotspotRows(near point: (latitude: Double, longitude: Double), radiusKm: Double) -> [(row: Int, distanceKm: Double)] {
        typealias G = BirdsSchema.HotspotGrid
        let degrees = radiusKm / Self.earthRadiusKm * 180 / Double.pi
        let minLat = point.latitude - degrees, maxLat = point.latitude + degrees
        var lonRanges: [ClosedRange<Int>]
        let extreme = max(abs(minLat), abs(maxLat))
        if extreme >= 89.9 {
            lonRanges = [0...359]
        } else {
            let span = degrees / cos(extreme * Double.pi / 180)
            if span >= 180 { lonRanges = [0...359] } else {
                let low = Int((point.longitude - span + 180).rounded(.down)), high = Int((point.longitude + span + 180).rounded(.down))
                if low < 0 { lonRanges = [0...min(high, 359), (low + 360)...359] }
                else if high > 359 { lonRanges = [low...359, 0...(high - 360)] }
                else { lonRanges = [low...high] }
            }
        }
        var found: [(Int, Double)] = []
        for latIndex in G.latitudeIndex(minLat)...G.latitudeIndex(maxLat) {
            for range in lonRanges {
                let first = UInt64(latIndex * G.columns + range.lowerBound), last = UInt64(latIndex * G.columns + range.upperBound)
                var row = hotspotCells.lowerBound(first)
                while row < hotspotCells.count, hotspotCells[row] <= last {
                    let spot = (G.decode(hotspots.value(row, .latitude)), G.decode(hotspots.value(row, .longitude)))
                    let distance = Self.distanceKm(point, spot)
                    if distance <= radiusKm { found.append((row, distance)) }
                    row += 1
                }
            }
        }
        return found.sorted { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 < $1.1 }
    }

    private func nearby(_ point: (latitude: Double, longitude: Double), radiusKm: Double, weeks: [Int]?) -> [NearbySpecies] {
        var low: UInt32 = 0, high: UInt32 = 0
        for week in weeks ?? [] { if week <= 32 { low |= 1 << UInt32(week - 1) } else { high |= 1 << UInt32(week - 33) } }
        var best: [Int: (probability: Int, hotspot: Int, distance: Double, count: Int)] = [:]
        for (spot, distance) in hotspotRows(near: point, radiusKm: radiusKm) {
            let first = Int(hotspots.value(spot, .speciesFirst)), count = Int(hotspots.value(spot, .speciesCount))
            for i in first..<(first + count) {
                guard let row = hotspotSpecies.number(i, .speciesRow), row < speciesRows.count else { continue }
                if weeks != nil, hotspotSpecies.value(i, .weeksLow) & low == 0, hotspotSpecies.value(i, .weeksHigh) & high == 0 { continue }
                let probability = Int(hotspotSpecies.value(i, .probability))
                if var entry = best[row] {
                    entry.probability = max(entry.probability, probability)
                    entry.count += 1
                    best[row] = entry
                } else {
                    best[row] = (probability, spot, distance, 1)   // hotspots arrive nearest first
                }
            }
        }
        return best.sorted { $0.value.probability != $1.value.probability ? $0.value.probability > $1.value.probability : $0.key < $1.key }
            .map { NearbySpecies(bird: BirdRecord(bundle: self, row: $0.key), probability: $0.value.probability,
                                 nearestHotspot: string(hotspots.value($0.value.hotspot, .name)), distanceKm: $0.value.distance,
                                 hotspotCount: $0.value.count) }
    }

    /// A place and radius as the queries take them: a usage error naming the field (`lat`,
    /// `lon`, `radiusKm`, after `prefix`) outside −90…90, −180…180 and 0 < r ≤ 500 km.
    ///
    /// ```swift
    /// try BirdsBundle.checkPoint((91, 0), radiusKm: 50, field: "")   // lat: expected a latitude in −90…90, found 91.0
    /// ```
    public static func checkPoint(_ point: (latitude: Double, longitude: Double), radiusKm: Double, field prefix: String) throws(LocatedError) {
        guard point.latitude.isFinite, (-90...90).contains(point.latitude) else {
            throw LocatedError.query(prefix + "lat", "expected a latitude in −90…90, found \(point.latitude)")
        }
        guard point.longitude.isFinite, (-180...180).contains(point.longitude) else {
            throw LocatedError.query(prefix + "lon", "expected a longitude in −180…180, found \(point.longitude)")
        }
        guard radiusKm.isFinite, radiusKm > 0, radiusKm <= 500 else {
            throw LocatedError.query(prefix + "radiusKm", "expected 0 < radiusKm ≤ 500, found \(radiusKm)")
        }
    }

    /// The birds a watchlist's active rules assign: the union of every active rule's birds,
    /// in common-name order. Invalid parameters throw, naming the field (`rules[1].radiusKm`).
    public func autoAssign(_ rules: [WatchlistRule]) throws(LocatedError) -> [WatchlistAssignment] {
        var matched: [Int: [Int]] = [:]
        for (index, rule) in rules.enumerated() {
            let path = "rules[\(index)]."
            let rows = try self.rows(matching: rule.condition, path: path)
            guard rule.isActive else { continue }
            for row in rows { matched[row, default: []].append(index) }
        }
        return matched.keys.sorted().map { WatchlistAssignment(bird: BirdRecord(bundle: self, row: $0), rules: matched[$0]!) }
    }

    private func rows(matching condition: WatchlistRule.Condition, path: String) throws(LocatedError) -> [Int] {
        switch condition {
        case let .location(latitude, longitude, radiusKm, validWeeks):
            try Self.checkPoint((latitude, longitude), radiusKm: radiusKm, field: path)
            if let validWeeks {
                guard !validWeeks.isEmpty else { throw LocatedError.query(path + "validWeeks", "expected at least one week") }
                if let bad = validWeeks.first(where: { !(1...53).contains($0) }) {
                    throw LocatedError.query(path + "validWeeks", "expected weeks 1–53, found \(bad)")
                }
            }
            return nearby((latitude, longitude), radiusKm: radiusKm, weeks: validWeeks).map(\.bird.row)
        case let .dateRange(start, end):
            guard let s = Self.yearMonthDay(start) else { throw LocatedError.query(path + "start", "expected a date YYYY-MM-DD, found \(start)") }
            guard let e = Self.yearMonthDay(end) else { throw LocatedError.query(path + "end", "expected a date YYYY-MM-DD, found \(end)") }
            guard (e.year, e.month, e.day) >= (s.year, s.month, s.day) else {
                throw LocatedError.query(path + "end", "expected a date on or after start \(start), found \(end)")
            }
            var mask: UInt32 = 0
            var (year, month) = (s.year, s.month)
            for _ in 0..<12 {
                mask |= 1 << UInt32(month - 1)
                if (year, month) == (e.year, e.month) { break }
                month += 1
                if month > 12 { month = 1; year += 1 }
            }
            return (0..<speciesRows.count).filter { speciesRows.value($0, .monthMask) & mask != 0 }
        case let .speciesFamily(families):
            guard !families.isEmpty else { throw LocatedError.query(path + "families", "expected at least one family") }
            let folded = Set(families.map { NameFolding.fold($0.trimmingCharacters(in: .whitespaces)) })
            return (0..<speciesRows.count).filter { folded.contains(NameFolding.fold(string(speciesRows.value($0, .family)))) }
        case let .shape(shapeID):
            guard let id = strings.id(of: shapeID), shapes.find(.id, id) != nil else {
                throw LocatedError.query(path + "shapeId", "expected a shape of the artifact (\(shapeList.map(\.id).joined(separator: ", "))), found \(shapeID)")
            }
            return (0..<speciesRows.count).filter { speciesRows.value($0, .shapeID) == id }
        }
    }

    /// `2026-01-15` (or a longer ISO 8601 timestamp) → its parts.
    static func yearMonthDay(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        return (y, m, d)
    }
}
