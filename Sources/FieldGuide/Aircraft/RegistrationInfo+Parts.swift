// The three parts `RegistrationRecord.info` decodes one after another, each while the memory
// the next needs is on its way (`info` and `info(through:)`): the summary's fields, in cache
// since the lookup; the row's codes, dates and numbers; the text, from the pool or the text
// records. Both ways of reading the text build the record from the same parts.

/// The summary's fields of a registration (`RegistrationRecord+Summary.swift`).
struct RegistrationSummaryPart {
    let nNumber, serialNumber, modelCode, name, city, state: String
    let modeSHex: String?

    @inline(__always)
    init(_ record: RegistrationRecord) {
        nNumber = record.nNumber; serialNumber = record.serialNumber; modelCode = record.modelCode
        name = record.name; city = record.city; state = record.state; modeSHex = record.modeSHex
    }
}

/// A registration's codes, dates and numbers, from its row alone (`registrantType` is the
/// registrant type's string id, read with the row's other ids).
struct RegistrationRowPart {
    let yearManufactured: Int?
    let registrantType, region, airworthinessClass, aircraftType, engineType, status: CodeValue?
    let lastActionDate, certificateIssueDate, airworthinessDate, expirationDate: FieldDate?
    let approvedOperations: [String]
    let fractionalOwner: Bool

    @inline(__always)
    init(_ record: RegistrationRecord, registrantType: UInt32) {
        yearManufactured = record.yearManufactured; self.registrantType = record.bundle.code(.registrantType, registrantType)
        region = record.region; lastActionDate = record.lastActionDate; certificateIssueDate = record.certificateIssueDate
        airworthinessClass = record.airworthinessClass; approvedOperations = record.approvedOperations
        aircraftType = record.aircraftType; engineType = record.engineType; status = record.status
        fractionalOwner = record.fractionalOwner; airworthinessDate = record.airworthinessDate; expirationDate = record.expirationDate
    }
}

/// A registration's text that is neither in its summary nor a code.
struct RegistrationTextPart {
    let engineCode, street, street2, zip, county, country, certification: String
    let otherNames: [String]
    let uniqueID, kitManufacturer, kitModel: String
}

extension RegistrationInfo {
    /// The record of its three parts, the owner's withholding, and its model and engine.
    ///
    /// The parts are `consuming`: borrowed, each string, list and code value was copied into
    /// the record (a retain) and the part then dropped (a release), 620 instructions a call
    /// (callgrind, `.info`: 6,265 against 5,648 with the parts moved).
    @inline(__always)
    init(_ summary: consuming RegistrationSummaryPart, _ row: consuming RegistrationRowPart, _ text: consuming RegistrationTextPart,
         ownerWithheld: Bool, model: ModelInfo?, engine: EngineInfo?) {
        self.init(
            nNumber: summary.nNumber, serialNumber: summary.serialNumber, modelCode: summary.modelCode, engineCode: text.engineCode,
            model: model, engine: engine, yearManufactured: row.yearManufactured, registrantType: row.registrantType,
            ownerWithheld: ownerWithheld, name: summary.name, street: text.street, street2: text.street2, city: summary.city,
            state: summary.state, zip: text.zip, region: row.region, county: text.county, country: text.country,
            lastActionDate: row.lastActionDate, certificateIssueDate: row.certificateIssueDate, certification: text.certification,
            airworthinessClass: row.airworthinessClass, approvedOperations: row.approvedOperations, aircraftType: row.aircraftType,
            engineType: row.engineType, status: row.status, modeSHex: summary.modeSHex, fractionalOwner: row.fractionalOwner,
            airworthinessDate: row.airworthinessDate, otherNames: text.otherNames, expirationDate: row.expirationDate,
            uniqueID: text.uniqueID, kitManufacturer: text.kitManufacturer, kitModel: text.kitModel)
    }
}
