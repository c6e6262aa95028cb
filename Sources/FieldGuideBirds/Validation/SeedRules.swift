/// The rules for watchlists: unique ids, start ≤ end, entries that resolve to database birds
/// (by id, else by common name), and location spellings against the database's vocabulary.
///
/// ```swift
/// WatchlistRules.check(lists, database: index, sink: sink)
/// ```
public enum WatchlistRules {
    public static func check(_ lists: [Watchlist], database: DatabaseIndex?, sink: FindingSink) {
        _ = DatabaseRules.unique(lists.map { ($0.id, $0.source.field("id")) }, what: "watchlist id", sink: sink)
        let suspects = database?.vocabularies["location"]?.suspects() ?? [:]
        for list in lists {
            if list.startDate > list.endDate {
                sink.error(.range, at: list.source.field("startDate"),
                           "watchlist \"\(list.title)\": startDate \(ReferenceDate.iso8601(list.startDate)) is after endDate \(ReferenceDate.iso8601(list.endDate))")
            }
            var seen: [String: String] = [:]
            for entry in list.entries {
                let label = entry.name ?? entry.id ?? "?"
                var resolved: Bird?
                if let database {
                    resolved = resolve(entry, in: database, list: list, sink: sink)
                    for (index, location) in entry.locations.enumerated() {
                        guard let vocabulary = database.vocabularies["location"],
                              let (intended, edits) = suspects[location] ?? (vocabulary.contains(location) ? nil : vocabulary.nearest(to: location))
                        else { continue }
                        let uses = vocabulary.occurrences[intended]?.count ?? 0
                        sink.warning(.vocabulary, at: JSONPointer.appending(entry.source.field("location"), index),
                                     Vocabulary.message(name: "location", value: location, intended: intended, edits: edits, uses: uses) + " (\(database.file))")
                    }
                }
                let key = entry.list.rawValue + "\u{0}" + (resolved?.id ?? label.lowercased())
                if let first = seen[key] {
                    sink.error(.duplicate, at: entry.source.pointer, "watchlist \"\(list.title)\": \(label) is listed twice in \(entry.list.rawValue) (first at \(first))")
                } else { seen[key] = entry.source.pointer }
            }
        }
    }

    private static func resolve(_ entry: WatchlistEntry, in database: DatabaseIndex, list: Watchlist, sink: FindingSink) -> Bird? {
        if let id = entry.id, let bird = database.bird(id: id) {
            if let name = entry.name, name != bird.commonName {
                sink.warning(.reference, at: entry.source.field("name"),
                             "watchlist \"\(list.title)\": entry name \"\(name)\" differs from \"\(bird.commonName)\", the common name of bird \(id) in \(database.file)")
            }
            return bird
        }
        if let name = entry.name, let bird = database.bird(commonName: name) {
            if let id = entry.id {
                sink.warning(.reference, at: entry.source.field("id"),
                             "watchlist \"\(list.title)\": id \"\(id)\" is not a bird in \(database.file); matched \"\(name)\" by common name (\(bird.id))")
            }
            return bird
        }
        sink.error(.reference, at: entry.source.pointer,
                   "watchlist \"\(list.title)\": \(entry.name ?? "entry") (id \(entry.id ?? "none")) matches no bird in \(database.file) by id or common name")
        return nil
    }
}

/// The rules for home data: unique ids, coordinates, weeks 1–53 without repeats, probability
/// 0–100, start ≤ end, trajectory weeks inside the session, and birds that exist.
///
/// ```swift
/// HomeDataRules.check(home, database: index, sink: sink)
/// ```
public enum HomeDataRules {
    // The helpers take each finding's place and subject as closures, made into strings only for
    // a finding: built for every hotspot entry and every week (a JSON pointer each) they were a
    // quarter of validating a world-size home data file (callgrind: 1,146 M instructions of 4.5 G).
    public static func check(_ home: HomeData, database: DatabaseIndex?, sink: FindingSink) {
        _ = DatabaseRules.unique(home.hotspots.map { ($0.id, $0.source.field("id")) }, what: "hotspot id", sink: sink)
        _ = DatabaseRules.unique(home.migrationSessions.map { ($0.id, $0.source.field("id")) }, what: "migration session id", sink: sink)
        for spot in home.hotspots {
            func what() -> String { "hotspot \"\(spot.name)\"" }
            coordinates(spot.latitude, spot.longitude, at: spot.source, what: what(), sink: sink)
            var birds = [String: String](minimumCapacity: spot.species.count)
            for species in spot.species {
                bird(species.birdID, at: species.source.field("birdId"), what: what(), database: database, sink: sink)
                if let first = birds[species.birdID] {
                    sink.error(.duplicate, at: species.source.field("birdId"), "\(what()): bird \(species.birdID) is listed twice (first at \(first))")
                } else { birds[species.birdID] = species.source.pointer }
                weeks(species.validWeeks, at: species.source.field("validWeeks"), what: what(), sink: sink)
                probability(species.probability, at: species.source.field("probability"), what: what(), sink: sink)
            }
        }
        for session in home.migrationSessions {
            func what() -> String { "migration session \(session.id)" }
            bird(session.birdID, at: session.source.field("birdId"), what: what(), database: database, sink: sink)
            let startOK = week(session.startWeek, at: session.source.field("startWeek"), what: what(), sink: sink)
            let endOK = week(session.endWeek, at: session.source.field("endWeek"), what: what(), sink: sink)
            if startOK, endOK, session.startWeek > session.endWeek {
                sink.error(.range, at: session.source.field("startWeek"), "\(what()): startWeek \(session.startWeek) is after endWeek \(session.endWeek)")
            }
            for point in session.points {
                if week(point.week, at: point.source.field("week"), what: what(), sink: sink), startOK, endOK,
                   session.startWeek <= session.endWeek, !(session.startWeek...session.endWeek).contains(point.week) {
                    sink.error(.range, at: point.source.field("week"),
                               "\(what()): trajectory week \(point.week) is outside the session's weeks \(session.startWeek)–\(session.endWeek)")
                }
                coordinates(point.latitude, point.longitude, at: point.source, what: what(), sink: sink)
                probability(point.probability, at: point.source.field("probability"), what: what(), sink: sink)
            }
        }
    }

    private static func bird(_ id: String, at pointer: @autoclosure () -> String, what: @autoclosure () -> String,
                             database: DatabaseIndex?, sink: FindingSink) {
        guard let database, database.birdsByID[id] == nil else { return }
        sink.error(.reference, at: pointer(), "\(what()): birdId \"\(id)\" is not a bird in \(database.file)")
    }

    private static func coordinates(_ latitude: Double, _ longitude: Double, at source: SourceRef, what: @autoclosure () -> String, sink: FindingSink) {
        if !(-90...90).contains(latitude) { sink.error(.range, at: source.field("lat"), "\(what()): latitude \(latitude) is outside -90…90") }
        if !(-180...180).contains(longitude) { sink.error(.range, at: source.field("lon"), "\(what()): longitude \(longitude) is outside -180…180") }
    }

    @discardableResult
    private static func week(_ week: Int, at pointer: @autoclosure () -> String, what: @autoclosure () -> String, sink: FindingSink) -> Bool {
        guard (1...53).contains(week) else {
            sink.error(.range, at: pointer(), "\(what()): week \(week) is outside 1–53")
            return false
        }
        return true
    }

    private static func weeks(_ weeks: [Int], at pointer: @autoclosure () -> String, what: @autoclosure () -> String, sink: FindingSink) {
        // Bit w: week w was listed. A Set<Int> here hashed every week of every hotspot entry and
        // grew for each (callgrind, `birds-bench`: 250 M instructions of 3,050 M).
        var seen: UInt64 = 0
        for (index, value) in weeks.enumerated() {
            // A week outside 1–53 is reported by `week` and not counted.
            guard week(value, at: JSONPointer.appending(pointer(), index), what: what(), sink: sink) else { continue }
            if seen & 1 << value != 0 {
                sink.error(.range, at: JSONPointer.appending(pointer(), index), "\(what()): week \(value) is listed twice")
            }
            seen |= 1 << value
        }
    }

    private static func probability(_ value: Int, at pointer: @autoclosure () -> String, what: @autoclosure () -> String, sink: FindingSink) {
        if !(0...100).contains(value) { sink.error(.range, at: pointer(), "\(what()): probability \(value) is outside 0–100") }
    }
}
