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

/// A record small enough to read whole: decoded once into its `Info`, whose fields it gives by
/// key path (`record.cancelDate` is `record.info.cancelDate`), so the field list is declared in
/// the `Info` alone. Each field read this way decodes the record: to read several, take `info`
/// once.
///
/// ```swift
/// let reservation = bundle.reservation(of: "N4477")
/// reservation?.expirationDate   // the ReservedInfo field, read through the record
/// ```
@dynamicMemberLookup
public protocol WholeRecord: Sendable {
    associatedtype Info
    /// Every field, decoded.
    var info: Info { get }
}

extension WholeRecord {
    /// A field of the decoded record.
    public subscript<T>(dynamicMember field: KeyPath<Info, T>) -> T { info[keyPath: field] }
}

/// One DEREG record: an aircraft whose registration under this N-number was cancelled.
///
/// Its fields are ``DeregisteredInfo``'s, read through the record (`record.cancelDate`): a
/// status record is small and read whole, so it is decoded once into its info and the field
/// list is declared there alone.
///
/// ```swift
/// for record in bundle.deregistrations(of: "N4477") { print(record.cancelDate?.description ?? "", record.reason) }
/// ```
public struct DeregisteredRecord: WholeRecord {
    let bundle: AircraftBundle
    let row: Int
    private typealias C = AircraftStatusSchema.DeregisteredColumn

    /// The ACFTREF model of `modelCode`, when the bundle has it (its column read alone, not the
    /// whole record).
    public var model: ModelRecord? {
        let code = bundle.statusString(bundle.statusTables?.deregistered?.value(row, .modelCode) ?? C.modelCode.kind.absent)
        return code.isEmpty ? nil : bundle.model(code: code)
    }

    public var info: DeregisteredInfo { decoded(withModel: true) }

    /// Every field, the model's record only `withModel`: a bulk reader that does not show the
    /// model (the SQLite export, 400K rows) skips its lookup.
    package func decoded(withModel: Bool) -> DeregisteredInfo {
        let table = bundle.statusTables?.deregistered
        func v(_ c: C) -> UInt32 { table?.value(row, c) ?? c.kind.absent }
        func s(_ c: C) -> String { bundle.statusString(v(c)) }
        let modelCode = s(.modelCode), status = bundle.statusCode(.status, v(.status)), exportCountry = s(.exportCountry)
        return DeregisteredInfo(
            nNumber: s(.nNumber), serialNumber: s(.serialNumber), modelCode: modelCode,
            model: !withModel || modelCode.isEmpty ? nil : bundle.model(code: modelCode)?.info, status: status,
            reason: DeregisteredInfo.reason(exportCountry: exportCountry, status: status),
            registrantType: bundle.statusCode(.registrantType, v(.registrantType)), name: s(.name),
            city: s(.city), state: s(.state), country: s(.country), exportCountry: exportCountry,
            cancelDate: FieldDate(stored: v(.cancelDate)), airworthinessDate: FieldDate(stored: v(.airworthinessDate)),
            lastActionDate: FieldDate(stored: v(.lastActionDate)), certificateIssueDate: FieldDate(stored: v(.certificateIssueDate)),
            yearManufactured: table?.number(row, .yearManufactured), modeSHex: v(.modeSHex) == UInt32.max ? nil : USModeS.hex(v(.modeSHex)))
    }
}

/// A decoded DEREG record.
public struct DeregisteredInfo: Sendable, Hashable, Codable {
    public let nNumber: String
    public let serialNumber: String
    public let modelCode: String
    /// The ACFTREF model of `modelCode`, when the bundle has it.
    public let model: ModelInfo?
    /// The status code the registration had when it was cancelled.
    public let status: CodeValue?
    /// Why the registration ended, in words: the export when there was one, else the status
    /// code's name (DEREG has no reason field of its own).
    public let reason: String
    public let registrantType: CodeValue?
    /// The last owner.
    public let name: String
    public let city: String
    public let state: String
    public let country: String
    /// The country the aircraft was exported to, when it was.
    public let exportCountry: String
    public let cancelDate: FieldDate?
    public let airworthinessDate: FieldDate?
    public let lastActionDate: FieldDate?
    public let certificateIssueDate: FieldDate?
    public let yearManufactured: Int?
    public let modeSHex: String?

    static func reason(exportCountry: String, status: CodeValue?) -> String {
        if !exportCountry.isEmpty { return "exported to \(exportCountry)" }
        return status.map { $0.name ?? "status \($0.code)" } ?? "not given"
    }
}

/// One RESERVED record: an N-number held for a reserving party.
///
/// Its fields are ``ReservedInfo``'s, read through the record (`record.expirationDate`), as
/// for ``DeregisteredRecord``.
public struct ReservedRecord: WholeRecord {
    let bundle: AircraftBundle
    let row: Int
    private typealias C = AircraftStatusSchema.ReservedColumn

    public var info: ReservedInfo {
        func v(_ c: C) -> UInt32 { bundle.statusTables?.reserved?.value(row, c) ?? c.kind.absent }
        func s(_ c: C) -> String { bundle.statusString(v(c)) }
        let change = s(.changeNNumber)
        return ReservedInfo(
            nNumber: s(.nNumber), registrant: s(.registrant), street: s(.street), street2: s(.street2), city: s(.city),
            state: s(.state), zip: s(.zip), reservationType: bundle.statusCode(.reservationType, v(.reservationType)),
            changeNNumber: change.isEmpty ? nil : change, reserveDate: FieldDate(stored: v(.reserveDate)),
            expirationDate: FieldDate(stored: v(.expirationDate)), purgeDate: FieldDate(stored: v(.purgeDate)))
    }
}

/// A decoded RESERVED record.
public struct ReservedInfo: Sendable, Hashable, Codable {
    public let nNumber: String
    /// The reserving party (empty in a bundle that withholds owners).
    public let registrant: String
    public let street: String
    public let street2: String
    public let city: String
    public let state: String
    public let zip: String
    /// TR: how it is held (`FP` fee paid, `HD` two-year hold for a cancelled number, …).
    public let reservationType: CodeValue?
    /// The N-number of a change in process, when there is one.
    public let changeNNumber: String?
    public let reserveDate: FieldDate?
    /// When the reservation expires (EXP DATE).
    public let expirationDate: FieldDate?
    /// When the FAA purges it (PURGE DATE).
    public let purgeDate: FieldDate?
}
