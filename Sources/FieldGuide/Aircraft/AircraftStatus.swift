import FieldGuideArtifact

/// What an N-number is today, by MASTER, RESERVED and DEREG: `active`, `reserved`,
/// `deregistered`, `available`, or `invalid` (not a US N-number form).
///
/// ```swift
/// let status = bundle.status(of: "N4477")
/// status.kind                               // .active
/// status.deregistrations.map(\.cancelDate)  // earlier aircraft that carried the number
/// bundle.status(of: "N0A").kind             // .invalid
/// ```
public struct RegistrationStatus: Sendable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// In MASTER: registered now.
        case active
        /// Not in MASTER nor RESERVED, in DEREG: cancelled (possibly several times).
        case deregistered
        /// In RESERVED (and not in MASTER): held for someone.
        case reserved
        /// A valid N-number in none of them.
        case available
        /// Not a US N-number form.
        case invalid
    }

    /// The text asked about.
    public let input: String
    /// The N-number (`N` + upper-cased mark) when the form is valid.
    public let nNumber: String?
    public let kind: Kind
    /// MASTER's registration, when active.
    public let registration: RegistrationRecord?
    /// RESERVED's record, when the number is reserved (also for an active number the file lists).
    public let reservation: ReservedRecord?
    /// DEREG's records of the number, newest cancellation first, whatever its status now.
    public let deregistrations: [DeregisteredRecord]
    /// Why an `invalid` input is not an N-number.
    public let problem: String?
    /// Whether the bundle holds DEREG and RESERVED: without them `available` means "not in MASTER".
    public let knowsDeregistered: Bool
    public let knowsReserved: Bool
}

extension AircraftBundle {
    /// The N-number form `USModeS` checks, said once for messages.
    public static let nNumberForm = "N, a digit 1-9, up to four more digits, then up to two letters (not I or O), at most five characters after the N"

    /// The status of an N-number (`N4477`, `n4477`, `4477`; spaces and dashes ignored).
    /// MASTER comes first, then RESERVED, then DEREG; DEREG's records are listed in every case.
    public func status(of text: String) -> RegistrationStatus {
        guard let nNumber = Self.registrationKey(text)?.text, USModeS.isValid(nNumber: nNumber) else {
            return RegistrationStatus(input: text, nNumber: nil, kind: .invalid, registration: nil, reservation: nil, deregistrations: [],
                                      problem: "not a US N-number (expected \(Self.nNumberForm))",
                                      knowsDeregistered: knowsDeregistered, knowsReserved: knowsReserved)
        }
        let registration = aircraft(registration: nNumber)
        let reservation = reservation(of: nNumber)
        let deregistrations = deregistrations(of: nNumber)
        let kind: RegistrationStatus.Kind = registration != nil ? .active
            : reservation != nil ? .reserved : deregistrations.isEmpty ? .available : .deregistered
        return RegistrationStatus(input: text, nNumber: nNumber, kind: kind, registration: registration, reservation: reservation,
                                  deregistrations: deregistrations, problem: nil,
                                  knowsDeregistered: knowsDeregistered, knowsReserved: knowsReserved)
    }
}

/// One DEREG record: an aircraft whose registration under this N-number was cancelled.
public struct DeregisteredRecord: Sendable {
    let bundle: AircraftBundle
    let row: Int
    private typealias C = AircraftStatusSchema.DeregisteredColumn
    private func v(_ c: C) -> UInt32 { bundle.statusTables?.deregistered?.value(row, c) ?? c.kind.absent }
    private func s(_ c: C) -> String { bundle.statusString(v(c)) }

    public var nNumber: String { s(.nNumber) }
    public var serialNumber: String { s(.serialNumber) }
    public var modelCode: String { s(.modelCode) }
    /// The ACFTREF model of `modelCode`, when the bundle has it.
    public var model: ModelRecord? { modelCode.isEmpty ? nil : bundle.model(code: modelCode) }
    /// The status code the registration had when it was cancelled.
    public var status: CodeValue? { bundle.statusCode(.status, v(.status)) }
    public var registrantType: CodeValue? { bundle.statusCode(.registrantType, v(.registrantType)) }
    /// The last owner.
    public var name: String { s(.name) }
    public var city: String { s(.city) }
    public var state: String { s(.state) }
    public var country: String { s(.country) }
    /// The country the aircraft was exported to, when it was.
    public var exportCountry: String { s(.exportCountry) }
    public var cancelDate: FieldDate? { FieldDate(stored: v(.cancelDate)) }
    public var airworthinessDate: FieldDate? { FieldDate(stored: v(.airworthinessDate)) }
    public var lastActionDate: FieldDate? { FieldDate(stored: v(.lastActionDate)) }
    public var certificateIssueDate: FieldDate? { FieldDate(stored: v(.certificateIssueDate)) }
    public var yearManufactured: Int? { bundle.statusTables?.deregistered?.number(row, .yearManufactured) }
    public var modeSHex: String? { let a = v(.modeSHex); return a == UInt32.max ? nil : USModeS.hex(a) }

    /// Why the registration ended, in words: the export when there was one, else the status
    /// code's name (DEREG has no reason field of its own).
    public var reason: String {
        if !exportCountry.isEmpty { return "exported to \(exportCountry)" }
        return status.map { $0.name ?? "status \($0.code)" } ?? "not given"
    }

    public var info: DeregisteredInfo {
        DeregisteredInfo(nNumber: nNumber, serialNumber: serialNumber, modelCode: modelCode, model: model?.info,
                         status: status, reason: reason, registrantType: registrantType, name: name,
                         city: city, state: state, country: country, exportCountry: exportCountry,
                         cancelDate: cancelDate, airworthinessDate: airworthinessDate, lastActionDate: lastActionDate,
                         certificateIssueDate: certificateIssueDate, yearManufactured: yearManufactured, modeSHex: modeSHex)
    }
}

/// A decoded DEREG record.
public struct DeregisteredInfo: Sendable, Hashable, Codable {
    public let nNumber: String
    public let serialNumber: String
    public let modelCode: String
    public let model: ModelInfo?
    public let status: CodeValue?
    public let reason: String
    public let registrantType: CodeValue?
    public let name: String
    public let city: String
    public let state: String
    public let country: String
    public let exportCountry: String
    public let cancelDate: FieldDate?
    public let airworthinessDate: FieldDate?
    public let lastActionDate: FieldDate?
    public let certificateIssueDate: FieldDate?
    public let yearManufactured: Int?
    public let modeSHex: String?
}

/// One RESERVED record: an N-number held for a reserving party.
public struct ReservedRecord: Sendable {
    let bundle: AircraftBundle
    let row: Int
    private typealias C = AircraftStatusSchema.ReservedColumn
    private func v(_ c: C) -> UInt32 { bundle.statusTables?.reserved?.value(row, c) ?? c.kind.absent }
    private func s(_ c: C) -> String { bundle.statusString(v(c)) }

    public var nNumber: String { s(.nNumber) }
    /// The reserving party (empty in a bundle that withholds owners).
    public var registrant: String { s(.registrant) }
    public var street: String { s(.street) }
    public var street2: String { s(.street2) }
    public var city: String { s(.city) }
    public var state: String { s(.state) }
    public var zip: String { s(.zip) }
    /// TR: how it is held (`FP` fee paid, `HD` two-year hold for a cancelled number, …).
    public var reservationType: CodeValue? { bundle.statusCode(.reservationType, v(.reservationType)) }
    /// The N-number of a change in process, when there is one.
    public var changeNNumber: String? { s(.changeNNumber).isEmpty ? nil : s(.changeNNumber) }
    public var reserveDate: FieldDate? { FieldDate(stored: v(.reserveDate)) }
    /// When the reservation expires (EXP DATE).
    public var expirationDate: FieldDate? { FieldDate(stored: v(.expirationDate)) }
    /// When the FAA purges it (PURGE DATE).
    public var purgeDate: FieldDate? { FieldDate(stored: v(.purgeDate)) }

    public var info: ReservedInfo {
        ReservedInfo(nNumber: nNumber, registrant: registrant, street: street, street2: street2, city: city, state: state, zip: zip,
                     reservationType: reservationType, changeNNumber: changeNNumber, reserveDate: reserveDate,
                     expirationDate: expirationDate, purgeDate: purgeDate)
    }
}

/// A decoded RESERVED record.
public struct ReservedInfo: Sendable, Hashable, Codable {
    public let nNumber: String
    public let registrant: String
    public let street: String
    public let street2: String
    public let city: String
    public let state: String
    public let zip: String
    public let reservationType: CodeValue?
    public let changeNNumber: String?
    public let reserveDate: FieldDate?
    public let expirationDate: FieldDate?
    public let purgeDate: FieldDate?
}
