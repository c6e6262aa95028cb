import FieldGuideArtifact

/// A calendar date as stored in artifacts (`yyyymmdd`), printed as ISO 8601.
public struct FieldDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    init?(stored: UInt32) {
        guard stored != UInt32.max, stored != 0 else { return nil }
        year = Int(stored / 10_000)
        month = Int(stored / 100 % 100)
        day = Int(stored % 100)
    }

    public var description: String {
        let y = String(year), m = String(month), d = String(day)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + (m.count < 2 ? "0" : "") + m + "-" + (d.count < 2 ? "0" : "") + d
    }

    public static func < (a: FieldDate, b: FieldDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected YYYY-MM-DD")) }
        year = parts[0]; month = parts[1]; day = parts[2]
    }
}

/// An aircraft model (ACFTREF row), read from the artifact on access.
public struct ModelRecord: Sendable {
    let bundle: AircraftBundle
    let row: Int

    package init(bundle: AircraftBundle, row: Int) { self.bundle = bundle; self.row = row }
    private typealias C = AircraftSchema.ModelColumn
    private func s(_ c: C) -> String { bundle.string(bundle.models.value(row, c)) }

    public var code: String { s(.code) }
    public var manufacturer: String { s(.manufacturer) }
    public var model: String { s(.model) }
    public var aircraftType: CodeValue? { bundle.code(.aircraftType, bundle.models.value(row, .aircraftType)) }
    public var engineType: CodeValue? { bundle.code(.engineType, bundle.models.value(row, .engineType)) }
    /// AC-CAT: Land, Sea or Amphibian.
    public var category: CodeValue? { bundle.code(.aircraftCategory, bundle.models.value(row, .category)) }
    public var builderCertification: CodeValue? { bundle.code(.builderCertification, bundle.models.value(row, .builderCertification)) }
    public var engineCount: Int? { bundle.models.number(row, .engineCount) }
    public var seatCount: Int? { bundle.models.number(row, .seatCount) }
    public var weightClass: CodeValue? { bundle.code(.weightClass, bundle.models.value(row, .weightClass)) }
    public var cruiseSpeedMPH: Int? { bundle.models.number(row, .cruiseSpeed) }
    public var typeCertificateDataSheet: String { s(.typeCertificateDataSheet) }
    public var typeCertificateHolder: String { s(.typeCertificateHolder) }

    /// Every field, decoded (for JSON output).
    public var info: ModelInfo { bundle.modelInfo(row) }
}

/// A decoded aircraft model.
public struct ModelInfo: Sendable, Hashable, Codable {
    public let code: String
    public let manufacturer: String
    public let model: String
    public let aircraftType: CodeValue?
    public let engineType: CodeValue?
    public let category: CodeValue?
    public let builderCertification: CodeValue?
    public let engineCount: Int?
    public let seatCount: Int?
    public let weightClass: CodeValue?
    public let cruiseSpeedMPH: Int?
    public let typeCertificateDataSheet: String
    public let typeCertificateHolder: String
}

/// A manufacturer and its models.
public struct ManufacturerRecord: Sendable {
    let bundle: AircraftBundle
    let row: Int

    public var name: String { bundle.string(bundle.manufacturerRows.value(row, .name)) }

    /// The manufacturer's models, by model name.
    public var models: [ModelRecord] {
        let first = Int(bundle.manufacturerRows.value(row, .firstModel))
        let count = Int(bundle.manufacturerRows.value(row, .modelCount))
        guard first + count <= bundle.manufacturerModels.count else { return [] }
        return (first..<first + count).compactMap { index in
            let modelRow = Int(bundle.manufacturerModels.value(index, .modelRow))
            return modelRow < bundle.models.count ? ModelRecord(bundle: bundle, row: modelRow) : nil
        }
    }

    public var modelCount: Int { Int(bundle.manufacturerRows.value(row, .modelCount)) }
}

/// An engine model (ENGINE row).
public struct EngineRecord: Sendable {
    let bundle: AircraftBundle
    let row: Int

    package init(bundle: AircraftBundle, row: Int) { self.bundle = bundle; self.row = row }
    private func s(_ c: AircraftSchema.EngineColumn) -> String { bundle.string(bundle.engines.value(row, c)) }

    public var code: String { s(.code) }
    public var manufacturer: String { s(.manufacturer) }
    public var model: String { s(.model) }
    public var engineType: CodeValue? { bundle.code(.engineType, bundle.engines.value(row, .engineType)) }
    public var horsepower: Int? { bundle.engines.number(row, .horsepower) }
    public var thrustPounds: Int? { bundle.engines.number(row, .thrust) }

    public var info: EngineInfo { bundle.engineInfo(row) }
}

/// A decoded engine model.
public struct EngineInfo: Sendable, Hashable, Codable {
    public let code: String
    public let manufacturer: String
    public let model: String
    public let engineType: CodeValue?
    public let horsepower: Int?
    public let thrustPounds: Int?
}

/// A registration (MASTER row), joined to its model and engine.
public struct RegistrationRecord: Sendable {
    @usableFromInline let bundle: AircraftBundle
    @usableFromInline let row: Int
    /// Where the row's summary starts in `RSMB` when the lookup found it, -1 when not yet known
    /// (`RegistrationSummary.swift`).
    @usableFromInline let summary: Int

    package init(bundle: AircraftBundle, row: Int) { self.init(bundle: bundle, row: row, summary: -1) }
    @inlinable
    init(bundle: AircraftBundle, row: Int, summary: Int) { self.bundle = bundle; self.row = row; self.summary = summary }
    private typealias C = AircraftSchema.RegistrationColumn
    @inline(__always) private func v(_ c: C) -> UInt32 { bundle.registrations.value(row, c) }
    @inline(__always) private func s(_ c: C) -> String { bundle.string(v(c)) }
    private func list(_ c: C) -> [String] { bundle.list(v(c)) }

    public var nNumber: String { summaryNNumber() ?? s(C.nNumber) }
    // The summary's fields are inlinable (`RegistrationRecord+Summary.swift`): serialNumber,
    // modelCode, name, city, state and modeSHex.
    public var engineCode: String { s(.engineCode) }
    /// The ACFTREF model, or nil when the registration's code is not in ACFTREF (an orphan).
    public var model: ModelRecord? {
        let r = Int(v(.modelRow))
        return v(.modelRow) != UInt32.max && r < bundle.models.count ? ModelRecord(bundle: bundle, row: r) : nil
    }
    /// The ENGINE model, or nil when blank or not in ENGINE.
    public var engine: EngineRecord? {
        let r = Int(v(.engineRow))
        return v(.engineRow) != UInt32.max && r < bundle.engines.count ? EngineRecord(bundle: bundle, row: r) : nil
    }
    public var yearManufactured: Int? { bundle.registrations.number(row, .yearManufactured) }
    public var registrantType: CodeValue? { bundle.code(.registrantType, v(.registrantType)) }
    /// True when the bundle withholds this registrant's owner name, co-owner names and street
    /// address (`bundle.ownerRedaction`): they read empty because they were left out, not
    /// because MASTER has none.
    public var ownerWithheld: Bool { bundle.withholdsOwner(registrantType: v(.registrantType)) }
    public var street: String { s(.street) }
    public var street2: String { s(.street2) }
    public var zip: String { s(.zip) }
    public var region: CodeValue? { bundle.code(.region, v(.region)) }
    public var county: String { s(.county) }
    public var country: String { s(.country) }
    public var lastActionDate: FieldDate? { FieldDate(stored: v(.lastActionDate)) }
    public var certificateIssueDate: FieldDate? { FieldDate(stored: v(.certificateIssueDate)) }
    /// CERTIFICATION as written (`1T`).
    public var certification: String { s(.certification) }
    /// MASTER's airworthiness class (first character of CERTIFICATION): 1 Standard … 9 Light Sport.
    /// The aircraft app calls this "AC-CAT"; ACFTREF's AC-CAT is `model?.category`.
    public var airworthinessClass: CodeValue? { bundle.code(.airworthinessClass, v(.airworthinessClass)) }
    /// The approved operations of the certificate, decoded for its class.
    public var approvedOperations: [String] { bundle.approvedOperations(v(.approvedOperations)) }
    public var aircraftType: CodeValue? { bundle.code(.aircraftType, v(.aircraftType)) }
    public var engineType: CodeValue? { bundle.code(.engineType, v(.engineType)) }
    public var status: CodeValue? { bundle.code(.status, v(.status)) }
    public var fractionalOwner: Bool { v(.fractionalOwner) == 1 }
    public var airworthinessDate: FieldDate? { FieldDate(stored: v(.airworthinessDate)) }
    public var otherNames: [String] { list(.otherNames) }
    public var expirationDate: FieldDate? { FieldDate(stored: v(.expirationDate)) }
    public var uniqueID: String { s(.uniqueID) }
    public var kitManufacturer: String { s(.kitManufacturer) }
    public var kitModel: String { s(.kitModel) }

    /// Every field, decoded, with the model's and engine's.
    ///
    /// Decoded in the order the memory allows: each level of cache misses is requested at once,
    /// and what is already in cache is decoded while it comes. The text comes from the text
    /// records (format 1.3: `info(through:)`), or in an older artifact from the pool
    /// (`RegistrationInfoPrefetch.swift`).
    public var info: RegistrationInfo {
        if let text = bundle.textRecords { return info(through: text) }
        bundle.registrations.prefetch(row)
        let summary = RegistrationSummaryPart(self)  // in cache since the lookup
        let related = bundle.requestStrings(registrationRow: row)
        let t = related.text
        let rowPart = RegistrationRowPart(self, registrantType: t.registrantType)
        let relatedText = bundle.requestBytes(related)
        // From the ids read once (`RegistrationTextIDs`), each the pool's `string(_:)` alone.
        let b = bundle
        let text = RegistrationTextPart(
            engineCode: b.string(t.engineCode), street: b.string(t.street), street2: b.string(t.street2), zip: b.string(t.zip),
            county: b.string(t.county), country: b.string(t.country), certification: b.string(t.certification),
            otherNames: b.list(t.otherNames), uniqueID: b.string(t.uniqueID), kitManufacturer: b.string(t.kitManufacturer),
            kitModel: b.string(t.kitModel))
        bundle.requestRelatedBytes(relatedText)
        // Decoded by the bundle, not through a `ModelRecord` and an `EngineRecord` (`AircraftBundle+RelatedInfo.swift`).
        let model = related.model < b.models.count ? b.modelInfo(related.model, text: relatedText.model) : nil
        let engine = related.engine < b.engines.count ? b.engineInfo(related.engine, text: relatedText.engine) : nil
        return RegistrationInfo(summary, rowPart, text, ownerWithheld: b.withholdsOwner(registrantType: t.registrantType), model: model, engine: engine)
    }
}

/// A decoded registration with its model and engine.
public struct RegistrationInfo: Sendable, Hashable, Codable {
    public let nNumber: String
    public let serialNumber: String
    public let modelCode: String
    public let engineCode: String
    public let model: ModelInfo?
    public let engine: EngineInfo?
    public let yearManufactured: Int?
    public let registrantType: CodeValue?
    /// The owner name, co-owner names and street lines were withheld (`RegistrationRecord.ownerWithheld`).
    public let ownerWithheld: Bool
    public let name: String
    public let street: String
    public let street2: String
    public let city: String
    public let state: String
    public let zip: String
    public let region: CodeValue?
    public let county: String
    public let country: String
    public let lastActionDate: FieldDate?
    public let certificateIssueDate: FieldDate?
    public let certification: String
    public let airworthinessClass: CodeValue?
    public let approvedOperations: [String]
    public let aircraftType: CodeValue?
    public let engineType: CodeValue?
    public let status: CodeValue?
    public let modeSHex: String?
    public let fractionalOwner: Bool
    public let airworthinessDate: FieldDate?
    public let otherNames: [String]
    public let expirationDate: FieldDate?
    public let uniqueID: String
    public let kitManufacturer: String
    public let kitModel: String
}
