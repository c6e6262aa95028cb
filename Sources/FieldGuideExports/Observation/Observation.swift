import Foundation

/// One normalized observation: what was seen, when, where, and which export line said so.
///
/// Every export record (a photo sidecar, a GPX waypoint, an app record in a property list, an
/// eBird row, an aircraft capture) becomes one of these; kind-specific fields stay nil for
/// the other kinds.
///
/// ```swift
/// let o = Observation(file: "trip.gpx", line: 12, format: .gpx, record: .waypoint, kind: .other, subject: "Hide 3")
/// o.position = try Coordinate.validated(latitude: 59.1, longitude: 10.2, field: "lat/lon")
/// ```
public struct Observation: Sendable, Hashable, Codable {
    /// The file as the run named it (relative to the given argument).
    public var file: String
    /// The 1-based line the record starts on.
    public var line: Int
    public var format: ExportFormat
    public var record: RecordKind
    public var kind: ObservationKind
    /// The subject as written: a species name, a registration, a keyword, a waypoint name.
    public var subject: String
    public var time: ObservationTime?
    public var position: Coordinate?
    /// Metres above sea level (GPX `ele`).
    public var elevation: Double?
    /// Place name as written (eBird location, nearest airport, dex location text).
    public var place: String?
    /// eBird Location ID (`L558364`).
    public var placeID: String?
    /// Region as written (eBird `State/Province, County`: `US-MD, Baltimore`).
    public var region: String?
    /// eBird checklist (Submission ID, `S285938033`).
    public var checklistID: String?
    public var title: String?
    /// Free text: GPX `desc`, app notes, eBird comments, a journal entry's text.
    public var notes: String?
    /// Keywords as written; hierarchical ones keep their `|` (`Birds|Heron`).
    public var keywords: [String] = []
    /// XMP `xmp:Rating` (−1 rejected, 0–5).
    public var rating: Int?

    // Birds
    public var scientificName: String?
    public var family: String?
    public var count: BirdCount?
    /// eBird rows that are not a species: spuh, slash, hybrid, domestic.
    public var nonSpecies: NonSpeciesKind?
    /// A birdcall recording's audio file name.
    public var audioFile: String?

    // Aircraft
    /// The registration as written (`N250JT`, `G-EZAB`).
    public var registration: String?
    /// The ICAO type designator as written (`B738`).
    public var icaoType: String?
    /// Manufacturer and model as the export wrote them.
    public var manufacturer: String?
    public var model: String?

    /// Filled by resolution (`ExportsIngest`); nil until then.
    public var resolution: ObservationResolution?

    public init(file: String, line: Int, format: ExportFormat, record: RecordKind, kind: ObservationKind, subject: String) {
        self.file = file; self.line = line; self.format = format; self.record = record; self.kind = kind
        self.subject = subject
    }
}

/// What an observation is of.
public enum ObservationKind: String, Sendable, Hashable, Codable, CaseIterable {
    case bird, aircraft, other
}

/// The export format a record came from.
public enum ExportFormat: String, Sendable, Hashable, Codable {
    case xmp, gpx, plist, ebird, capture
}

/// The kind of record inside an export.
public enum RecordKind: String, Sendable, Hashable, Codable {
    case sidecar, waypoint
    case trackPoint = "track point"
    case birdcallRecording = "birdcall recording"
    case dexObservation = "dex observation"
    case aircraftCapture = "aircraft capture"
    case journalEntry = "journal entry"
    case checklistRow = "checklist row"
}

/// A bird count: a number, or eBird's `X` (present, not counted).
public enum BirdCount: Sendable, Hashable, Codable, CustomStringConvertible {
    case number(Int)
    case present

    /// `"12"` → 12, `"X"`/`"x"` → present; nil for anything else.
    public init?(_ text: String) {
        if text == "X" || text == "x" { self = .present; return }
        guard let n = Int(text), n >= 0 else { return nil }
        self = .number(n)
    }

    public var description: String {
        switch self {
        case .number(let n): String(n)
        case .present: "X"
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let count = BirdCount(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a count: \(text)"))
        }
        self = count
    }
}

/// eBird taxa that are not one species, recognised by their names.
public enum NonSpeciesKind: String, Sendable, Hashable, Codable {
    /// `gull sp.`, `Accipiter sp.`
    case spuh
    /// `American/Fish Crow`
    case slash
    /// `Mallard x American Black Duck (hybrid)`
    case hybrid
    /// `Domestic goose sp. (Domestic type)`
    case domestic

    /// The kind a common name (else scientific name) shows, or nil for a species.
    ///
    /// ```swift
    /// NonSpeciesKind(commonName: "gull sp.", scientificName: "Larinae sp.")   // .spuh
    /// NonSpeciesKind(commonName: "Dark-eyed Junco (Slate-colored)", scientificName: "Junco hyemalis hyemalis/carolinensis") // nil
    /// ```
    public init?(commonName: String, scientificName: String) {
        // Parenthesised group names ("(Slate-colored)") and subspecies lists in scientific names
        // ("hyemalis/carolinensis") do not make a taxon non-specific: look outside parentheses.
        let name = Self.outsideParentheses(commonName)
        if commonName.contains("(Domestic type)") || scientificName.contains("(Domestic type)") {
            self = .domestic
        } else if commonName.contains("(hybrid)") || name.contains(" x ") {
            self = .hybrid
        } else if name.contains("/") {
            self = .slash
        } else if name.hasSuffix(" sp.") || name.contains(" sp. ") || name == "sp." {
            self = .spuh
        } else if commonName.isEmpty {
            let scientific = Self.outsideParentheses(scientificName)
            if scientific.contains(" x ") { self = .hybrid }
            else if scientific.hasSuffix(" sp.") { self = .spuh }
            else if scientific.split(separator: " ").first?.contains("/") == true { self = .slash }
            else { return nil }
        } else {
            return nil
        }
    }

    static func outsideParentheses(_ text: String) -> String {
        var depth = 0
        var out = ""
        for c in text {
            if c == "(" { depth += 1 } else if c == ")" { depth = max(0, depth - 1) } else if depth == 0 { out.append(c) }
        }
        return out.trimmedASCII
    }
}
