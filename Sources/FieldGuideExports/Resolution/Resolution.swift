import FieldGuide
import FieldGuideFAA

/// How far a subject resolved.
public enum ResolutionStatus: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// One reference record fits.
    case resolved
    /// Several fit; candidates listed.
    case ambiguous
    /// Looked up, nothing fits.
    case unknown
    /// Not looked up: the reference data was not loaded (the reason says which).
    case unresolved

    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}

/// What resolution found for one observation's subject.
///
/// ```swift
/// observation.resolution?.status   // .resolved
/// observation.resolution?.id       // "N250JT" (or a species code, or an ICAO designator)
/// observation.resolution?.name     // "BLUEHERON AIRCRAFT CO BH-900 JET"
/// ```
public struct ObservationResolution: Sendable, Hashable, Codable {
    public var status: ResolutionStatus
    public var reason: String?
    /// Species code, N-number or ICAO designator.
    public var id: String?
    /// Species common name; FAA manufacturer and model; ICAO type name.
    public var name: String?
    /// For ambiguous and unknown subjects: candidates or suggestions, most likely first.
    public var candidates: [String] = []
    /// The ICAO type of an aircraft, when its designator resolved.
    public var icaoType: ICAOTypeTable.Entry?
    /// The registration's own status when the observation names one: an aircraft resolved by
    /// its ICAO type alone is `resolved` while its registration stays `unknown` here.
    public var registrationStatus: ResolutionStatus?
}

/// What a subject is looked up as.
public enum SubjectKind: String, Sendable, Hashable, Codable, Comparable {
    case birdName = "bird name"
    case aircraftRegistration = "aircraft registration"
    case aircraftType = "aircraft type"
    /// A keyword that may be a registration or a type designator (XMP `Aircraft|…`).
    case aircraftKeyword = "aircraft keyword"

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// One distinct subject in the resolution report: how it resolved and how often it was seen.
public struct SubjectEntry: Sendable, Hashable, Codable {
    public var kind: SubjectKind
    public var text: String
    public var resolution: ObservationResolution
    public var observations: Int
    /// Where it was first seen (`file:line`).
    public var first: String
}

/// Resolves observation subjects against the loaded reference data, once per distinct subject.
///
/// Birds go to a `BirdNameResolving` (`BirdsBundleNames` over birds.fgb, `BirdHandOffNames` over
/// the birds hand-off; without one they are `unresolved`, "no names index loaded");
/// aircraft registrations to the FAA artifact (`AircraftBundle`, filling the app's enrichment
/// fields), ICAO type designators to an `ICAOTypeTable`.
///
/// ```swift
/// let resolver = SubjectResolver(aircraft: try AircraftBundle(path: "output/aircraft.fgb"), icaoTypes: nil, birdNames: nil)
/// resolver.resolve(&observation)
/// ```
public final class SubjectResolver {
    public let aircraft: AircraftBundle?
    public let icaoTypes: ICAOTypeTable?
    public let birdNames: (any BirdNameResolving)?
    public static let noNamesIndex = "no names index loaded"
    static let noAircraft = "no aircraft artifact loaded (--aircraft)"
    static let noICAOTypes = "no ICAO type table loaded (--icao-types)"

    private(set) var entries: [Key: SubjectEntry] = [:]
    /// Enrichment of every resolved registration, by N-number.
    public private(set) var enrichments: [String: AircraftEnrichment] = [:]

    struct Key: Hashable { var kind: SubjectKind; var text: String }

    public init(aircraft: AircraftBundle?, icaoTypes: ICAOTypeTable?, birdNames: (any BirdNameResolving)?) {
        self.aircraft = aircraft
        self.icaoTypes = icaoTypes
        self.birdNames = birdNames
    }

    /// State to go back to when a file fails part-way (its subjects must not count).
    struct Checkpoint { var entries: [Key: SubjectEntry]; var enrichments: [String: AircraftEnrichment] }
    func checkpoint() -> Checkpoint { Checkpoint(entries: entries, enrichments: enrichments) }
    func restore(_ checkpoint: Checkpoint) {
        entries = checkpoint.entries
        enrichments = checkpoint.enrichments
    }

    /// The distinct subjects seen so far, by kind, status and text.
    public var subjects: [SubjectEntry] {
        entries.values.sorted { ($0.kind, $0.resolution.status, $0.text) < ($1.kind, $1.resolution.status, $1.text) }
    }

    /// Fills `observation.resolution` (birds and aircraft; `other` observations stay nil).
    public func resolve(_ observation: inout Observation) {
        switch observation.kind {
        case .other: return
        case .bird:
            observation.resolution = lookup(.birdName, observation.subject, observation) { self.bird(observation) }
        case .aircraft:
            if observation.registration == nil && observation.icaoType == nil {
                let resolution = lookup(.aircraftKeyword, observation.subject, observation) { self.keyword(observation.subject) }
                if resolution.status == .resolved {
                    if resolution.icaoType != nil { observation.icaoType = resolution.id } else { observation.registration = resolution.id }
                }
                observation.resolution = resolution
                return
            }
            let registration = observation.registration.map { text in lookup(.aircraftRegistration, text, observation) { self.registration(text) } }
            let type = observation.icaoType.map { text in lookup(.aircraftType, text, observation) { self.type(text) } }
            observation.resolution = Self.combine(registration: registration, type: type)
        }
    }

    /// A registration's resolution, with the type's details; the type alone when the registration did not resolve.
    static func combine(registration: ObservationResolution?, type: ObservationResolution?) -> ObservationResolution? {
        guard var registration else { return type }
        if type?.status == .resolved { registration.icaoType = type?.icaoType }
        if registration.status != .resolved, var type, type.status == .resolved {
            type.reason = "registration \(registration.status.rawValue): \(registration.reason ?? ""); resolved by ICAO type"
            type.registrationStatus = registration.status
            return type
        }
        registration.registrationStatus = registration.status
        return registration
    }

    private func lookup(_ kind: SubjectKind, _ text: String, _ observation: Observation, _ resolve: () -> ObservationResolution) -> ObservationResolution {
        let key = Key(kind: kind, text: text)
        if var entry = entries[key] {
            entry.observations += 1
            entries[key] = entry
            return entry.resolution
        }
        let resolution = resolve()
        entries[key] = SubjectEntry(kind: kind, text: text, resolution: resolution, observations: 1, first: "\(observation.file):\(observation.line)")
        return resolution
    }

    private func bird(_ observation: Observation) -> ObservationResolution {
        guard let birdNames else { return ObservationResolution(status: .unresolved, reason: Self.noNamesIndex) }
        let query = BirdNameQuery(name: observation.subject, scientificName: observation.scientificName, position: observation.position,
                                  date: observation.time.map { String($0.local.prefix(10)) })
        func label(_ c: BirdNameCandidate) -> String { "\(c.speciesCode) \(c.commonName) (\(c.scientificName))" }
        switch birdNames.resolve(query) {
        case .resolved(let c): return ObservationResolution(status: .resolved, id: c.speciesCode, name: c.commonName)
        case .ambiguous(let cs): return ObservationResolution(status: .ambiguous, reason: "\(cs.count) species fit", candidates: cs.map(label))
        case .unknown(let cs): return ObservationResolution(status: .unknown, reason: "no species of that name", candidates: cs.map(label))
        }
    }

    private func registration(_ text: String) -> ObservationResolution {
        guard let aircraft else { return ObservationResolution(status: .unresolved, reason: Self.noAircraft) }
        let trimmed = text.trimmedASCII
        guard let first = trimmed.first, first == "N" || first == "n" || first.isNumber,
              AircraftIdentifierKind(trimmed) == .registration else {   // the US form: N0123 is none
            return ObservationResolution(status: .unknown, reason: "not a US N-number (the FAA registry holds only those)")
        }
        guard let record = aircraft.aircraft(registration: trimmed) else {
            return ObservationResolution(status: .unknown, reason: "not in the FAA registry")
        }
        let enrichment = aircraft.enrichment(for: record)
        enrichments[record.nNumber] = enrichment
        let name = [enrichment.manufacturer ?? record.kitManufacturer, enrichment.model ?? record.kitModel].filter { !$0.isEmpty }.joined(separator: " ")
        return ObservationResolution(status: .resolved, id: record.nNumber, name: name.isEmpty ? nil : name)
    }

    private func type(_ text: String) -> ObservationResolution {
        guard let icaoTypes else { return ObservationResolution(status: .unresolved, reason: Self.noICAOTypes) }
        guard let entry = icaoTypes[text] else { return ObservationResolution(status: .unknown, reason: "not an ICAO type designator in the table") }
        var resolution = ObservationResolution(status: .resolved, id: entry.designator, name: entry.name)
        resolution.icaoType = entry
        return resolution
    }

    /// A keyword that may be either: both fitting is ambiguous.
    private func keyword(_ text: String) -> ObservationResolution {
        let asRegistration = registration(text), asType = type(text)
        switch (asRegistration.status, asType.status) {
        case (.resolved, .resolved):
            return ObservationResolution(status: .ambiguous, reason: "both a registration and an ICAO type designator",
                                         candidates: ["registration \(asRegistration.id!) \(asRegistration.name ?? "")", "ICAO type \(asType.id!) \(asType.name ?? "")"])
        case (.resolved, _): return asRegistration
        case (_, .resolved): return asType
        case (.unresolved, .unresolved): return ObservationResolution(status: .unresolved, reason: "\(Self.noAircraft); \(Self.noICAOTypes)")
        default: return ObservationResolution(status: .unknown, reason: "neither a registration in the FAA registry nor an ICAO type designator")
        }
    }
}
