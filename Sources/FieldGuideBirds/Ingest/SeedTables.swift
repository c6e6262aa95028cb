/// The seed files as hand-off tables (`species.csv` … `migration-points.csv`), and the birds
/// as `LinkedTaxa` links them.
///
/// ```swift
/// let seeds = SeedTables(database: database, links: file.taxonLinks, file: file.path, files: files)
/// seeds.tables.map(\.file)   // ["species.csv", "species-field-marks.csv", …]
/// ```
struct SeedTables {
    typealias N = NormalizedBirds
    private(set) var tables: [(file: String, bytes: [UInt8], rows: Int)] = []
    private(set) var birds: [LinkedTaxa.Bird] = []

    init(database: BirdDatabase, links: [String: Taxon], file: String, files: [SeedFile]) {
        addDatabase(database, links: links)
        let index = DatabaseIndex.make(database, file: file)
        var lists = N.Writer<N.WatchlistColumn>(), entries = N.Writer<N.WatchlistEntryColumn>()
        var hotspots = N.Writer<N.HotspotColumn>(), hotspotSpecies = N.Writer<N.HotspotSpeciesColumn>()
        var sessions = N.Writer<N.MigrationColumn>(), points = N.Writer<N.TrajectoryColumn>()
        for file in files {
            switch file.content {
            case let .watchlists(found):
                Self.add(found, index: index, lists: &lists, entries: &entries)
            case let .homeData(home):
                Self.add(home, hotspots: &hotspots, species: &hotspotSpecies, sessions: &sessions, points: &points)
            default: break
            }
        }
        tables += [lists.table, entries.table, hotspots.table, hotspotSpecies.table, sessions.table, points.table]
    }

    /// Species (with the taxonomy's code, family and order when the seed has none), their field
    /// marks, shapes and variants.
    private mutating func addDatabase(_ database: BirdDatabase, links: [String: Taxon]) {
        var species = N.Writer<N.SpeciesColumn>(), marks = N.Writer<N.FieldMarkColumn>()
        let variantsByID = Dictionary(database.variants.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for bird in database.birds {
            let code = links[bird.id]?.speciesCode ?? "", family = bird.family ?? links[bird.id]?.familyName ?? ""
            species.append { column in
                switch column {
                case .birdID: bird.id
                case .speciesCode: code
                case .commonName: bird.commonName
                case .scientificName: bird.scientificName
                case .family: family
                case .order: bird.order ?? links[bird.id]?.order ?? ""
                case .rarity: bird.rarity ?? ""
                case .shapeID: bird.shapeID
                case .sizeCategory: String(bird.sizeCategory)
                case .months: bird.months.map(String.init).joined(separator: ";")
                case .locations: bird.locations.joined(separator: ";")
                case .imageName: bird.imageName ?? ""
                }
            }
            birds.append(LinkedTaxa.Bird(id: bird.id, speciesCode: code, commonName: bird.commonName, scientificName: bird.scientificName, family: family))
            for mark in bird.fieldMarks {
                marks.append { column in
                    switch column {
                    case .birdID: bird.id
                    case .area: mark.area
                    case .variantID: mark.variantID
                    case .variantName: mark.variantName ?? variantsByID[mark.variantID]?.name ?? ""
                    case .colors: mark.colors.joined(separator: ";")
                    }
                }
            }
        }
        let shapes = N.Writer<N.ShapeColumn>(rows: database.shapes) { shape, column in
            switch column {
            case .shapeID: shape.id
            case .name: shape.name
            case .icon: shape.icon ?? ""
            }
        }
        let marksByID = Dictionary(database.fieldMarks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let variants = N.Writer<N.VariantColumn>(rows: database.variants) { variant, column in
            switch column {
            case .variantID: variant.id
            case .fieldMarkID: variant.fieldMarkID
            case .shapeID: marksByID[variant.fieldMarkID]?.shapeID ?? ""
            case .area: marksByID[variant.fieldMarkID]?.area ?? ""
            case .name: variant.name
            }
        }
        tables += [species.table, marks.table, shapes.table, variants.table]
    }

    /// Watchlists with their entries; an entry names a database bird by id, else by common name.
    private static func add(_ found: [Watchlist], index: DatabaseIndex, lists: inout N.Writer<N.WatchlistColumn>,
                            entries: inout N.Writer<N.WatchlistEntryColumn>) {
        lists.append(rows: found) { list, column in
            switch column {
            case .watchlistID: list.id
            case .kind: list.isShared ? "shared" : "personal"
            case .title: list.title
            case .location: list.location ?? ""
            case .start: ReferenceDate.iso8601(list.startDate)
            case .end: ReferenceDate.iso8601(list.endDate)
            case .dateRange: list.dateRange ?? ""
            case .mainImageName: list.mainImageName ?? ""
            }
        }
        for list in found {
            for entry in list.entries {
                let bird = entry.id.flatMap(index.bird(id:)) ?? entry.name.flatMap(index.bird(commonName:))
                entries.append { column in
                    switch column {
                    case .watchlistID: list.id
                    case .list: entry.list.rawValue
                    case .birdID: bird?.id ?? ""
                    case .name: bird?.commonName ?? entry.name ?? ""
                    case .dates: entry.dates.map(ReferenceDate.iso8601).joined(separator: ";")
                    }
                }
            }
        }
    }

    /// Hotspots with their species, migration sessions with their points.
    private static func add(_ home: HomeData, hotspots: inout N.Writer<N.HotspotColumn>, species: inout N.Writer<N.HotspotSpeciesColumn>,
                            sessions: inout N.Writer<N.MigrationColumn>, points: inout N.Writer<N.TrajectoryColumn>) {
        hotspots.append(rows: home.hotspots) { spot, column in
            switch column {
            case .hotspotID: spot.id
            case .name: spot.name
            case .locality: spot.locality ?? ""
            case .latitude: number(spot.latitude)
            case .longitude: number(spot.longitude)
            case .imageName: spot.imageName ?? ""
            }
        }
        for spot in home.hotspots {
            species.append(rows: spot.species) { item, column in
                switch column {
                case .hotspotID: spot.id
                case .birdID: item.birdID
                case .probability: String(item.probability)
                case .weeks: item.validWeeks.map(String.init).joined(separator: ";")
                }
            }
        }
        sessions.append(rows: home.migrationSessions) { session, column in
            switch column {
            case .sessionID: session.id
            case .birdID: session.birdID
            case .startWeek: String(session.startWeek)
            case .endWeek: String(session.endWeek)
            case .hemisphere: session.hemisphere ?? ""
            }
        }
        for session in home.migrationSessions {
            points.append(rows: session.points) { point, column in
                switch column {
                case .sessionID: session.id
                case .week: String(point.week)
                case .latitude: number(point.latitude)
                case .longitude: number(point.longitude)
                case .probability: String(point.probability)
                }
            }
        }
    }

    /// The shortest decimal that reads back as the same Double (`18.5204`, `73`).
    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
