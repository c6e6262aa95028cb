import FieldGuideCore
import Foundation

/// Dates in the seed files are seconds since 2001-01-01 00:00:00 UTC (Apple's reference date).
///
/// ```swift
/// ReferenceDate.iso8601(750038400)   // "2024-10-08T00:00:00Z"
/// ```
public enum ReferenceDate {
    /// Seconds between 1970-01-01 and 2001-01-01.
    public static let unixOffset: Double = 978_307_200

    /// The UTC date and time, to the second (`2024-10-08T00:00:00Z`): by `UTCTimestamp` for the
    /// years 1583 to 9999, where its calendar and Foundation's agree (Foundation's turns Julian
    /// before the Gregorian reform); by Foundation's formatter outside them or for a value that
    /// is not a number, whatever a seed file holds.
    public static func iso8601(_ seconds: Double) -> String {
        let instant = (seconds + unixOffset).rounded(.down)
        if let whole = Int64(exactly: instant), (-12_212_553_600...253_402_300_799).contains(whole) {
            return UTCTimestamp.iso8601(secondsSince1970: whole)
        }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: instant))
    }
}

/// A bird on a watchlist: it points at a database bird by id, else by common name.
public struct WatchlistEntry: Sendable, Hashable, Codable {
    public enum List: String, Sendable, Hashable, Codable {
        case observed = "observedBirds"
        case toObserve = "toObserveBirds"
    }

    public var list: List
    public var id: String?
    public var name: String?
    public var scientificName: String?
    public var images: [String] = []
    public var rarity: [String] = []
    public var locations: [String] = []
    /// Seconds since 2001-01-01.
    public var dates: [Double] = []
    public var observedBy: [String] = []
    public var source: SourceRef
}

/// A personal (`watchlists.json`) or shared (`sharedWatchlists.json`) watchlist.
///
/// ```swift
/// let lists = WatchlistDecoder.decode(document, sink: sink)
/// lists[0].title                              // "My Watchlist"
/// ReferenceDate.iso8601(lists[0].startDate)   // seconds since 2001-01-01 → ISO 8601
/// ```
public struct Watchlist: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var location: String?
    /// Seconds since 2001-01-01.
    public var startDate: Double
    public var endDate: Double
    public var mainImageName: String?
    /// Shared watchlists only: the date range as displayed, and the members' avatars.
    public var dateRange: String?
    public var userImages: [String]
    public var entries: [WatchlistEntry]
    public var isShared: Bool
    public var source: SourceRef
}
