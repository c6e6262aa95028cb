/// The fields the aircraft identifier app fills from FAA data for a captured aircraft.
///
/// Names follow the app's `CapturedAircraft` model; codes come with display names.
///
/// ```swift
/// let e = bundle.enrichment(registration: "N90")
/// e?.airworthinessClassification    // "Standard"
/// e?.aircraftClassificationCode     // 1
/// ```
public struct AircraftEnrichment: Sendable, Hashable, Codable {
    public let registration: String
    public let serialNumber: String
    /// Engine type of the registration (TYPE ENGINE), e.g. "Turbo-fan".
    public let engineType: String?
    public let engineTypeCode: String?
    /// ACFTREF AC-WEIGHT class, e.g. "20,000 lbs and over".
    public let weightClass: String?
    public let weightClassCode: String?
    /// Airworthiness class, e.g. "Standard" (the app's "AC-CAT" 1–9).
    public let airworthinessClassification: String?
    public let aircraftClassificationCode: Int?
    /// TYPE AIRCRAFT, e.g. "Fixed wing multi engine".
    public let aircraftType: String?
    public let aircraftTypeCode: String?
    public let yearManufactured: Int?
    public let engineCount: Int?
    public let seatCount: Int?
    public let country: String
    public let ownerType: String?
    public let ownerTypeCode: String?
    public let airworthinessDate: FieldDate?
    public let certificateIssueDate: FieldDate?
    public let certificateExpirationDate: FieldDate?
    /// True when the bundle withholds this owner (an individual in a redacted bundle):
    /// `registeredOwner` and the address lines are empty because they were left out.
    public let ownerWithheld: Bool
    public let registeredOwner: String
    public let addressLine1: String
    public let addressLine2: String
    public let city: String
    public let state: String
    public let zip: String
    public let manufacturer: String?
    public let model: String?
    public let modeSHex: String?
}

/// The two lines of the aircraft app's "Recent Sightings" list.
public struct SightingLines: Sendable, Hashable, Codable {
    /// `[AIRLINE] MANUFACTURER MODEL`, e.g. `UAL BOEING 747-400`.
    public let title: String
    /// `[CLASSIFICATION] [Type]`, e.g. `STANDARD Fixed Wing Single Engine`; nil when both are unknown.
    public let subtitle: String?
}

extension AircraftBundle {
    /// The app's enrichment fields for a registration (`N90`, `n90` or `90`).
    public func enrichment(registration: String) -> AircraftEnrichment? {
        aircraft(registration: registration).map(enrichment(for:))
    }

    /// The app's enrichment fields for a registration record.
    public func enrichment(for r: RegistrationRecord) -> AircraftEnrichment {
        let model = r.model
        let classification = r.airworthinessClass
        return AircraftEnrichment(
            registration: r.nNumber, serialNumber: r.serialNumber,
            engineType: r.engineType?.name ?? model?.engineType?.name, engineTypeCode: r.engineType?.code ?? model?.engineType?.code,
            weightClass: model?.weightClass?.name, weightClassCode: model?.weightClass?.code,
            airworthinessClassification: classification?.name, aircraftClassificationCode: classification.flatMap { Int($0.code) },
            aircraftType: r.aircraftType?.name ?? model?.aircraftType?.name, aircraftTypeCode: r.aircraftType?.code ?? model?.aircraftType?.code,
            yearManufactured: r.yearManufactured, engineCount: model?.engineCount, seatCount: model?.seatCount,
            country: r.country, ownerType: r.registrantType?.name, ownerTypeCode: r.registrantType?.code,
            airworthinessDate: r.airworthinessDate, certificateIssueDate: r.certificateIssueDate,
            certificateExpirationDate: r.expirationDate, ownerWithheld: r.ownerWithheld, registeredOwner: r.name,
            addressLine1: r.street, addressLine2: r.street2, city: r.city, state: r.state, zip: r.zip,
            manufacturer: model?.manufacturer, model: model?.model, modeSHex: r.modeSHex)
    }

    /// The "Recent Sightings" lines for a registration, with an optional airline code.
    public func sightingLines(registration: String, airlineCode: String? = nil) -> SightingLines? {
        guard let r = aircraft(registration: registration) else { return nil }
        let model = r.model
        let manufacturer = model?.manufacturer ?? r.kitManufacturer
        let modelName = model?.model ?? r.kitModel
        let title = [airlineCode?.uppercased() ?? "", manufacturer.uppercased(), modelName]
            .filter { !$0.isEmpty }.joined(separator: " ")
        let classification = r.airworthinessClass?.name?.uppercased()
        let type = (r.aircraftType ?? model?.aircraftType)?.name.map(Self.titleCase)
        let subtitle = [classification, type].compactMap { $0 }.joined(separator: " ")
        return SightingLines(title: title.isEmpty ? r.nNumber : title, subtitle: subtitle.isEmpty ? nil : subtitle)
    }

    /// `Fixed wing single engine` → `Fixed Wing Single Engine`; `Weight-shift-control` →
    /// `Weight-Shift-Control`.
    static func titleCase(_ text: String) -> String {
        var result = ""
        var startOfWord = true
        for character in text {
            result.append(startOfWord ? Character(character.uppercased()) : character)
            startOfWord = character == " " || character == "-" || character == "/"
        }
        return result
    }
}
