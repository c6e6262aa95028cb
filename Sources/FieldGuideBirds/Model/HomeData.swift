/// A species at a hotspot: the weeks it is present and how likely it is seen (0–100).
public struct HotspotSpecies: Sendable, Hashable, Codable {
    public var id: String?
    public var birdID: String
    public var validWeeks: [Int]
    public var probability: Int
    public var source: SourceRef

    public init(id: String?, birdID: String, validWeeks: [Int], probability: Int, source: SourceRef) {
        self.id = id
        self.birdID = birdID
        self.validWeeks = validWeeks
        self.probability = probability
        self.source = source
    }
}

/// A birding hotspot with its weekly species list.
///
/// ```swift
/// let home = HomeDataDecoder.decode(document, sink: sink)
/// home?.hotspots[0].species[0].validWeeks   // [40, 41, …]
/// ```
public struct Hotspot: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var locality: String?
    public var latitude: Double
    public var longitude: Double
    public var imageName: String?
    public var species: [HotspotSpecies]
    public var source: SourceRef

    public init(id: String, name: String, locality: String?, latitude: Double, longitude: Double, imageName: String?,
                species: [HotspotSpecies], source: SourceRef) {
        self.id = id
        self.name = name
        self.locality = locality
        self.latitude = latitude
        self.longitude = longitude
        self.imageName = imageName
        self.species = species
        self.source = source
    }
}

/// One weekly point of a migration trajectory.
public struct TrajectoryPoint: Sendable, Hashable, Codable {
    public var id: String?
    public var week: Int
    public var latitude: Double
    public var longitude: Double
    public var probability: Int
    public var source: SourceRef

    public init(id: String?, week: Int, latitude: Double, longitude: Double, probability: Int, source: SourceRef) {
        self.id = id
        self.week = week
        self.latitude = latitude
        self.longitude = longitude
        self.probability = probability
        self.source = source
    }
}

/// A bird's migration between two weeks of the year, as weekly points.
public struct MigrationSession: Sendable, Hashable, Codable {
    public var id: String
    public var birdID: String
    public var startWeek: Int
    public var endWeek: Int
    public var hemisphere: String?
    public var points: [TrajectoryPoint]
    public var source: SourceRef

    public init(id: String, birdID: String, startWeek: Int, endWeek: Int, hemisphere: String?, points: [TrajectoryPoint], source: SourceRef) {
        self.id = id
        self.birdID = birdID
        self.startWeek = startWeek
        self.endWeek = endWeek
        self.hemisphere = hemisphere
        self.points = points
        self.source = source
    }
}

/// `home_data.json`: hotspots and migration sessions (other home-screen sections are counted only).
public struct HomeData: Sendable, Hashable, Codable {
    public var hotspots: [Hotspot]
    public var migrationSessions: [MigrationSession]
    /// Top-level sections not modelled here (`community_observations` …) and their sizes.
    public var otherSections: [String: Int]

    public init(hotspots: [Hotspot], migrationSessions: [MigrationSession], otherSections: [String: Int]) {
        self.hotspots = hotspots
        self.migrationSessions = migrationSessions
        self.otherSections = otherSections
    }
}
