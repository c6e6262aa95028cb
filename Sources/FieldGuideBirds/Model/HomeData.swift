/// A species at a hotspot: the weeks it is present and how likely it is seen (0–100).
public struct HotspotSpecies: Sendable, Hashable, Codable {
    public var id: String?
    public var birdID: String
    public var validWeeks: [Int]
    public var probability: Int
    public var source: SourceRef
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
}

/// One weekly point of a migration trajectory.
public struct TrajectoryPoint: Sendable, Hashable, Codable {
    public var id: String?
    public var week: Int
    public var latitude: Double
    public var longitude: Double
    public var probability: Int
    public var source: SourceRef
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
}

/// `home_data.json`: hotspots and migration sessions (other home-screen sections are counted only).
public struct HomeData: Sendable, Hashable, Codable {
    public var hotspots: [Hotspot]
    public var migrationSessions: [MigrationSession]
    /// Top-level sections not modelled here (`community_observations` …) and their sizes.
    public var otherSections: [String: Int]
}
