import ArgumentParser
import FieldGuide
import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import StageCLI

/// A bird line for text output: `House Crow (Corvus splendens)`.
func birdLine(_ bird: BirdRecord) -> String { "\(bird.commonName) (\(bird.scientificName))" }

struct BirdSummary: Encodable {
    let id: String, commonName: String, scientificName: String, speciesCode: String
    init(_ bird: BirdRecord) {
        id = bird.id; commonName = bird.commonName; scientificName = bird.scientificName; speciesCode = bird.speciesCode
    }
}

/// Refuses a value outside the bundle's vocabulary (a usage error naming the closest values),
/// rather than answering "nothing found" to a typo.
func known(_ what: String, _ value: String, among vocabulary: [String]) throws {
    let folded = value.lowercased()
    guard !vocabulary.contains(where: { $0.lowercased() == folded }) else { return }
    let closest = EditDistance.closest(to: value, among: vocabulary)
    // A value holding a comma ("Pune, India", a county level) is quoted, or the list reads wrong.
    func listed(_ values: some Sequence<String>) -> String { values.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ", ") }
    throw StageFailure(.usageOrIO, "unknown \(what) \(shown(value))"
        + (closest.isEmpty ? "; known: \(listed(vocabulary.prefix(12)))" : "; did you mean \(listed(closest))?"))
}

extension FieldGuideCommand {
    struct Identify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rank birds as the identifier app does (shape, size, location, date, field-mark variants).")
        @Option(help: "Shape id (Corvidae); a strict filter.") var shape: String?
        @Option(help: "Size category 0 (tiny) … 4 (very large).") var size: Int?
        @Option(help: "Location (Urban, Wetlands …).") var location: String?
        @Option(help: "Date of the sighting, YYYY-MM-DD.") var date: String?
        @Option(parsing: .upToNextOption, help: "Chosen field-mark variant ids.") var variant: [String] = []
        @OptionGroup var options: BirdsBundleOptions

        struct Entry: Encodable {
            let bird: BirdSummary; let score: Int; let confidence: Double
            let matched: [IdentificationFeature]; let mismatched: [IdentificationFeature]
        }

        func validate() throws {
            if let size, !(0...4).contains(size) { throw ValidationError("--size: expected 0…4, found \(size)") }
            if let date, BirdIdentificationQuery.month(ofISODate: date) == nil { throw ValidationError("--date: expected YYYY-MM-DD, found \(shown(date))") }
        }

        func run() throws {
            let month = date.flatMap(BirdIdentificationQuery.month(ofISODate:))
            let bundle = try options.open()
            if let shape { try known("shape", shape, among: bundle.shapeList.map(\.id)) }
            if let location { try known("location", location, among: bundle.regionNames) }
            let candidates = bundle.identify(.init(shape: shape, size: size, location: location, month: month, variants: variant))
            let entries = candidates.map { Entry(bird: BirdSummary($0.bird), score: $0.score, confidence: $0.confidence,
                                                 matched: $0.matched, mismatched: $0.mismatched) }
            try options.emit(entries) {
                entries.isEmpty ? "no candidates above 0.1" : entries.map { e in
                    String(format: "%.2f  ", e.confidence) + "\(e.bird.commonName) (\(e.bird.scientificName))"
                        + (e.matched.isEmpty ? "" : "\n      matched: " + e.matched.map(\.description).joined(separator: ", "))
                        + (e.mismatched.isEmpty ? "" : "\n      mismatched: " + e.mismatched.map(\.description).joined(separator: ", "))
                }.joined(separator: "\n")
            }
        }
    }

    struct Species: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Birds by region and month or week, near a point (hotspots), or by any name in any loaded language.")
        @Option(help: "Region (a bird location: Urban, Wetlands …).") var region: String?
        @Option(help: "Month 1–12 (with --region).") var month: Int?
        @Option(help: "Week 1–53 (with --region or --near).") var week: Int?
        @Option(help: "Bar-chart period 1–48, four per month (BirdNET's week; with --region or --near).") var period: Int?
        @Option(help: "LAT,LON: birds at hotspots within --radius km.") var near: String?
        @Option(help: "Radius in km for --near (0 < r ≤ 500).") var radius: Double = 50
        @Option(help: "A common, scientific or localized name, or a species code.") var named: String?
        @Option(help: "Leave out present taxa whose bar-chart frequency (--near: hotspot probability) is below this (0–1).") var minFrequency: Double = 0
        @Option(help: "Keep only the taxa this file lists (codes, names or BirdNET labels, one a line).") var include: String?
        @Option(help: "Leave out the taxa this file lists.") var exclude: String?
        @OptionGroup var options: BirdsBundleOptions

        struct Regional: Encodable {
            let region: String; let period: String; let sources: [String]
            let present: [Occurrence]; let absent: [Occurrence]; let unknown: [Occurrence]
        }
        struct Occurrence: Encodable {
            let speciesCode: String; let commonName: String; let scientificName: String; let presence: String
            let rarity: String?; let evidence: [OccurrenceEvidence]; let bird: BirdSummary?
            init(_ o: TaxonOccurrence) {
                speciesCode = o.speciesCode; commonName = o.commonName; scientificName = o.scientificName
                presence = o.presence.rawValue; rarity = o.rarity?.rawValue; evidence = o.evidence; bird = o.bird.map(BirdSummary.init)
            }
        }
        struct Nearby: Encodable { let bird: BirdSummary; let probability: Int; let nearestHotspot: String; let distanceKm: Double; let hotspots: Int }
        struct Named: Encodable {
            let speciesCode: String; let commonName: String; let scientificName: String; let category: String
            let matchedName: String; let form: String; let bird: BirdSummary?; let names: [String: [String]]
        }

        func validate() throws {
            let modes = [region != nil, near != nil, named != nil].filter { $0 }.count
            guard modes == 1 else { throw ValidationError("give one of --region (with --month or --week), --near LAT,LON, or --named TEXT") }
            try requireText(region, "--region", "a region (Svalbard, US-NY)")
            try requireText(named, "--named", "a name or a species code")
            try requirePath(include, option: "--include")
            try requirePath(exclude, option: "--exclude")
            try checkPlace(near: near, radius: radius)   // a usage error before the bundle is opened
            if region != nil, [month, week, period].compactMap({ $0 }).count != 1 { throw ValidationError("--region needs one of --month, --week or --period") }
            if near != nil, week != nil, period != nil { throw ValidationError("--near takes --week or --period, not both") }
            if let month, !(1...12).contains(month) { throw ValidationError("--month: expected 1–12, found \(month)") }
            if let week, !(1...53).contains(week) { throw ValidationError("--week: expected 1–53, found \(week)") }
            if let period, !(1...48).contains(period) { throw ValidationError("--period: expected 1–48, found \(period)") }
            if !(0...1).contains(minFrequency) { throw ValidationError("--min-frequency: expected 0–1, found \(minFrequency)") }
        }

        /// Present taxa with what each source says; absent ones counted; unknown ones listed.
        static func text(_ r: RegionOccurrence) -> String {
            func line(_ o: TaxonOccurrence) -> String {
                "  \(o.commonName) (\(o.scientificName))\(o.rarity.map { " [\($0.rawValue)]" } ?? ""): "
                    + o.evidence.map { "\($0.source.rawValue): \($0.detail)" }.joined(separator: "; ")
            }
            let from = r.sources.isEmpty ? "no source covers it" : "from " + r.sources.map(\.rawValue).joined(separator: ", ")
            var lines = ["\(r.present.count) present in \(r.region), \(r.period) (\(from))"] + r.present.map(line)
            if !r.absent.isEmpty { lines.append("\(r.absent.count) absent (on the bar chart, none reported in the period)") }
            if !r.unknown.isEmpty { lines += ["\(r.unknown.count) unknown"] + r.unknown.map(line) }
            return lines.joined(separator: "\n")
        }

        /// The threshold and lists given.
        func filter() throws -> SpeciesFilter {
            /// A list file's names; its error says which option named it.
            func list(_ path: String, _ option: String) throws -> Set<String> {
                do { return try SpeciesFilter.list(contentsOf: path) } catch {
                    throw StageFailure(error.kind.isUsageOrIO || error.kind == .tooLarge ? .usageOrIO : .dataRejected, "\(option): \(error.description)")
                }
            }
            return SpeciesFilter(threshold: minFrequency, include: try include.map { try list($0, "--include") },
                                 exclude: try exclude.map { try list($0, "--exclude") } ?? [])
        }

        func run() throws {
            let bundle = try options.open()
            let filter = try self.filter()
            if let region {
                try known("region", region, among: bundle.regionNames + bundle.observedRegionLevels)
                let result = (month.map { bundle.occurrence(inRegion: region, month: $0) }
                    ?? period.map { bundle.occurrence(inRegion: region, period: $0) } ?? bundle.occurrence(inRegion: region, week: week!))
                    .filtered(filter)
                let value = Regional(region: region, period: result.period, sources: result.sources.map(\.rawValue),
                                     present: result.present.map(Occurrence.init), absent: result.absent.map(Occurrence.init),
                                     unknown: result.unknown.map(Occurrence.init))
                try options.emit(value) { Self.text(result) }
            } else if let near {
                let (lat, lon) = try point(near)
                let found = try bundle.species(near: (lat, lon), radiusKm: radius, week: week ?? period.map(BirdsBundle.week(ofPeriod:)))
                    .filter { Double($0.probability) >= minFrequency * 100
                        && filter.admits(speciesCode: $0.bird.speciesCode, scientificName: $0.bird.scientificName, commonName: $0.bird.commonName) }
                let value = found.map { Nearby(bird: BirdSummary($0.bird), probability: $0.probability, nearestHotspot: $0.nearestHotspot,
                                               distanceKm: ($0.distanceKm * 10).rounded() / 10, hotspots: $0.hotspotCount) }
                try options.emit(value) {
                    value.isEmpty ? "no birds at hotspots within \(radius) km" : value.map {
                        "\($0.probability)%  \($0.bird.commonName) (\($0.bird.scientificName)) at \($0.nearestHotspot), \(String(format: "%.1f", $0.distanceKm)) km"
                    }.joined(separator: "\n")
                }
            } else if let named {
                let found = bundle.species(named: named)
                guard !found.isEmpty else { throw notFound("bird named \(shown(named))") }
                let value = found.map { hit in
                    Named(speciesCode: hit.taxon.speciesCode, commonName: hit.taxon.commonName, scientificName: hit.taxon.scientificName,
                          category: hit.taxon.category, matchedName: hit.matchedName, form: hit.form, bird: hit.taxon.bird.map(BirdSummary.init),
                          names: Dictionary(grouping: hit.taxon.names, by: \.form).mapValues { $0.map(\.name) })
                }
                try options.emit(value) {
                    value.map { n in
                        "\(n.commonName) (\(n.scientificName)) \(n.speciesCode) [\(n.category)]\(n.bird == nil ? "" : " in the seed database")\n"
                            + "  matched \(n.form) name \"\(n.matchedName)\"\n"
                            + n.names.keys.sorted().map { "  \($0): \(n.names[$0]!.joined(separator: "; "))" }.joined(separator: "\n")
                    }.joined(separator: "\n")
                }
            }
        }
    }

    struct Frequency: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "eBird bar-chart frequency of a taxon in a region: one period (1–48, four per month) or all 48.")
        @Argument(help: "Common, scientific or localized name, or species code.") var taxon: String
        @Option(help: "Region of a loaded bar chart (Svalbard).") var region: String
        @Option(help: "Period 1–48; all periods when omitted.") var period: Int?
        @OptionGroup var options: BirdsBundleOptions

        struct Value: Encodable { let taxon: String; let region: String; let periods: [Int]; let frequencies: [Double]; let sampleSizes: [Int] }

        func validate() throws {
            if let period, !(1...48).contains(period) { throw ValidationError("--period: expected 1–48, found \(period)") }
            try requireText(taxon, "<taxon>", "a name or a species code")
            try requireText(region, "--region", "a region (Svalbard, US-NY)")
        }

        func run() throws {
            let bundle = try options.open()
            try known("region", region, among: bundle.barChartRegions)
            guard let all = bundle.frequencies(of: taxon, region: region) else { throw notFound("bar-chart row for \(shown(taxon)) in \(shown(region))") }
            let samples = bundle.sampleSizes(region: region) ?? []
            let periods = period.map { [$0] } ?? Array(1...48)
            let value = Value(taxon: taxon, region: region, periods: periods, frequencies: periods.map { all[$0 - 1] },
                              sampleSizes: samples.isEmpty ? [] : periods.map { samples[$0 - 1] })
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            try options.emit(value) {
                zip(value.periods, value.frequencies).map { p, f in
                    "\(months[(p - 1) / 4]) \((p - 1) % 4 + 1)  " + String(format: "%.7f", f)
                        + (samples.isEmpty ? "" : "  (\(formatCount(samples[p - 1], "checklist")))")
                }.joined(separator: "\n")
            }
        }
    }

    struct Watchlist: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Birds a watchlist's auto-assignment rules select (union of the active rules).",
            discussion: """
            --rules is a JSON file (or inline JSON): an array of rules, or {"rules": [...]}: \
            {"type": "location", "lat": 18.5, "lon": 73.8, "radiusKm": 50, "validWeeks": [1, 2]}, \
            {"type": "date_range", "start": "2025-12-01", "end": "2026-02-28"}, \
            {"type": "species_family", "families": ["Corvidae"]}, {"type": "shape", "shapeId": "Picidae"}; \
            "isActive": false switches a rule off.
            """)
        @Option(help: "Rules JSON: a file path or the JSON text.") var rules: String
        @OptionGroup var options: BirdsBundleOptions

        struct Entry: Encodable { let bird: BirdSummary; let rules: [Int] }

        func run() throws {
            let text: String
            if FileManager.default.fileExists(atPath: rules) {
                let data = try BoundedRead.data(atPath: rules, limit: BoundedRead.rulesFileBytes, what: "a rules file")
                text = String(decoding: data, as: UTF8.self)
            } else if let first = rules.trimmingCharacters(in: .whitespaces).first, first == "[" || first == "{" {
                text = rules
            } else {
                // Neither a file nor JSON: most likely a file that is not there.
                throw LocatedError(.missingFile, file: rules, message: "No such file or directory (--rules takes a JSON file or inline JSON)")
            }
            let bundle = try options.open()
            let assigned = try bundle.autoAssign(try WatchlistRule.decode(json: text))
            let entries = assigned.map { Entry(bird: BirdSummary($0.bird), rules: $0.rules) }
            try options.emit(entries) {
                ([formatCount(entries.count, "bird")] + assigned.map { "  " + birdLine($0.bird) + "  (rules \($0.rules.map(String.init).joined(separator: ", ")))" })
                    .joined(separator: "\n")
            }
        }
    }
}

extension FieldGuideCommand {
    struct Observed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Birds the app's users observed (the observed source), by region, month, week or near a point.")
        @Option(help: "Region as the exports give it (an eBird state such as US-MD).") var region: String?
        @Option(help: "Month 1–12.") var month: Int?
        @Option(help: "Week 1–53.") var week: Int?
        @Option(help: "LAT,LON: observations within --radius km.") var near: String?
        @Option(help: "Radius in km for --near (0 < r ≤ 500).") var radius: Double = 50
        @OptionGroup var options: BirdsBundleOptions

        struct Entry: Encodable { let speciesCode: String; let commonName: String; let observations: Int; let totalCount: Int? }

        func validate() throws {
            if let month, !(1...12).contains(month) { throw ValidationError("--month: expected 1–12, found \(month)") }
            if let week, !(1...53).contains(week) { throw ValidationError("--week: expected 1–53, found \(week)") }
            try checkPlace(near: near, radius: radius)
        }

        func run() throws {
            let bundle = try options.open()
            let found: [ObservedSpecies]
            if let near {
                found = try bundle.observedSpecies(near: try point(near), radiusKm: radius, week: week)
            } else {
                found = bundle.observedSpecies(inRegion: region, month: month, week: week)
            }
            let value = found.map { Entry(speciesCode: $0.taxon.speciesCode, commonName: $0.commonName, observations: $0.observations,
                                          totalCount: $0.totalCount) }
            try options.emit(value) {
                value.isEmpty ? "no observed birds (\(formatCount(bundle.observationCount, "observation")) in the artifact)"
                    : value.map { "\($0.observations)×  \($0.commonName) (\($0.speciesCode))" + ($0.totalCount.map { ", \($0) counted" } ?? "") }
                        .joined(separator: "\n")
            }
        }
    }
}

/// `--near LAT,LON` as a point (spaces allowed around the numbers).
func point(_ text: String) throws -> (latitude: Double, longitude: Double) {
    let parts = text.split(separator: ",").map { part -> Double? in
        let number = part.filter { $0 != " " }
        return number.isNumeral ? Double(number) : nil   // not 0x10 (16) or nan
    }
    guard parts.count == 2, let lat = parts[0], let lon = parts[1] else {
        throw ValidationError("--near: expected LAT,LON, found \(shown(text))")
    }
    return (lat, lon)
}

/// `--near` and `--radius` checked by the queries' own rule before the bundle is opened, its
/// error named after the option, not the query's field (`lat`, `radiusKm`).
func checkPlace(near: String?, radius: Double) throws {
    let place = try near.map(point) ?? (0, 0)
    do { try BirdsBundle.checkPoint(place, radiusKm: radius, field: "") } catch {
        throw ValidationError("\(error.field == "radiusKm" ? "--radius" : "--near"): \(error.message)")
    }
}
