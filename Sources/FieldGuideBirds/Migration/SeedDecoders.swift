/// Reads `watchlists.json` and `sharedWatchlists.json` (a top-level array of watchlists).
///
/// ```swift
/// let lists = WatchlistDecoder.decode(document, sink: sink)   // [Watchlist]
/// lists.first?.entries.first?.name                            // "Eurasian Wigeon"
/// ```
public enum WatchlistDecoder {
    /// Whether a parsed document looks like watchlists: an array of objects with bird lists.
    public static func isWatchlists(_ root: JSONValue) -> Bool {
        guard let items = root.array, let first = items.first else { return false }
        return first["observedBirds"] != nil || first["toObserveBirds"] != nil
    }

    /// Whether the watchlists are the shared kind (`dateRange`, `stats`, `userImages`).
    public static func isShared(_ root: JSONValue) -> Bool {
        root.array?.first.map { $0["dateRange"] != nil || $0["userImages"] != nil || $0["stats"] != nil } ?? false
    }

    public static func decode(_ document: JSONDocument, sink: FindingSink) -> [Watchlist] {
        guard let items = document.root.array else {
            sink.add(.error, .schema, at: "", offset: document.root.offset, "expected watchlists to be an array, found \(document.root.kindDescription)")
            return []
        }
        let shared = isShared(document.root)
        var lists: [Watchlist] = []
        for (index, item) in items.enumerated() {
            guard let list = FieldReader(item, pointer: JSONPointer.appending("", index), sink: sink, what: "a watchlist") else { continue }
            var entries: [WatchlistEntry] = []
            for kind in [WatchlistEntry.List.observed, .toObserve] {
                for entry in list.objects(kind.rawValue, required: false, what: "a watchlist entry") ?? [] {
                    let id = entry.string("id", required: false), name = entry.string("name", required: false)
                    if id == nil && name == nil { entry.missing("id") }
                    entries.append(WatchlistEntry(
                        list: kind, id: id, name: name, scientificName: entry.string("scientificName", required: false),
                        images: entry.strings("images") ?? [], rarity: entry.strings("rarity") ?? [],
                        locations: entry.strings("location") ?? [], dates: entry.doubles("date") ?? [],
                        observedBy: entry.strings("observedBy") ?? [], source: SourceRef(entry.pointer)))
                }
            }
            let id = list.string("id"), title = list.string("title")
            let start = list.double("startDate"), end = list.double("endDate")
            let location = list.string("location", required: false), image = list.string("mainImageName", required: false)
            let range = list.string("dateRange", required: false), users = list.strings("userImages") ?? []
            guard let id, let title, let start, let end else { continue }
            lists.append(Watchlist(id: id, title: title, location: location, startDate: start, endDate: end, mainImageName: image,
                                   dateRange: range, userImages: users, entries: entries, isShared: shared, source: SourceRef(list.pointer)))
        }
        return lists
    }
}

/// Reads `home_data.json`: hotspots (`lat`, `lon`, `speciesList[{birdId, validWeeks,
/// probability}]`) and migration sessions (`startWeek`, `endWeek`, `trajectoryPaths`).
///
/// ```swift
/// let home = HomeDataDecoder.decode(document, sink: sink)
/// home?.migrationSessions.first?.points.count   // 12
/// ```
public enum HomeDataDecoder {
    /// Whether a parsed document looks like home data.
    public static func isHomeData(_ root: JSONValue) -> Bool {
        root["hotspots"] != nil || root["migration_sessions"] != nil
    }

    public static func decode(_ document: JSONDocument, sink: FindingSink) -> HomeData? {
        guard let root = FieldReader(document.root, pointer: "", sink: sink, what: "home data") else { return nil }
        var hotspots: [Hotspot] = []
        for spot in root.objects("hotspots", required: false, what: "a hotspot") ?? [] {
            let species: [HotspotSpecies] = (spot.objects("speciesList", required: false, what: "a hotspot species") ?? []).compactMap { item in
                let bird = item.string("birdId"), weeks = item.ints("validWeeks", required: true), probability = item.int("probability")
                guard let bird, let weeks, let probability else { return nil }
                return HotspotSpecies(id: item.string("id", required: false), birdID: bird, validWeeks: weeks,
                                      probability: probability, source: SourceRef(item.pointer))
            }
            let id = spot.string("id"), name = spot.string("name"), lat = spot.double("lat"), lon = spot.double("lon")
            let locality = spot.string("locality", required: false), image = spot.string("imageName", required: false)
            guard let id, let name, let lat, let lon else { continue }
            hotspots.append(Hotspot(id: id, name: name, locality: locality, latitude: lat, longitude: lon, imageName: image,
                                    species: species, source: SourceRef(spot.pointer)))
        }
        var sessions: [MigrationSession] = []
        for session in root.objects("migration_sessions", required: false, what: "a migration session") ?? [] {
            let points: [TrajectoryPoint] = (session.objects("trajectoryPaths", required: false, what: "a trajectory point") ?? []).compactMap { point in
                let week = point.int("week"), lat = point.double("lat"), lon = point.double("lon"), probability = point.int("probability")
                guard let week, let lat, let lon, let probability else { return nil }
                return TrajectoryPoint(id: point.string("id", required: false), week: week, latitude: lat, longitude: lon,
                                       probability: probability, source: SourceRef(point.pointer))
            }
            let id = session.string("id"), bird = session.string("birdId")
            let start = session.int("startWeek"), end = session.int("endWeek")
            let hemisphere = session.string("hemisphere", required: false)
            guard let id, let bird, let start, let end else { continue }
            sessions.append(MigrationSession(id: id, birdID: bird, startWeek: start, endWeek: end, hemisphere: hemisphere,
                                             points: points, source: SourceRef(session.pointer)))
        }
        var other: [String: Int] = [:]
        for member in document.root.members ?? [] where member.key != "hotspots" && member.key != "migration_sessions" {
            other[member.key] = member.value.array?.count ?? 1
        }
        return HomeData(hotspots: hotspots, migrationSessions: sessions, otherSections: other)
    }
}
