import FieldGuideArtifact
import FieldGuideDiagnostics

/// What to look for in the registry: every filter given must match (they combine with AND).
///
/// ```swift
/// let query = RegistrationQuery(owner: "delta air", state: "GA")
/// let found = try bundle.registrations(matching: query, limit: 20)
/// found.total                                    // every match, not only the 20 returned
/// found.records.map(\.nNumber)                   // in N-number order
/// ```
public struct RegistrationQuery: Sendable, Hashable, Codable {
    /// Words that each start a word of the owner's name, in any order: `"delta air"` finds
    /// `DELTA AIR LINES INC`. Case and punctuation do not matter (`RegistrySearchFolding`).
    /// Co-owner names are not searched; withheld owners have no name to find.
    public var owner: String?
    /// An ACFTREF code (`"2072738"`, also one that ACFTREF lacks but registrations name), else
    /// the start of a model name, case, spaces and punctuation ignored (`"sr22"` finds `SR-22`,
    /// `"172"` every 172 model). The aircraft artifact holds no ICAO type designators.
    public var model: String?
    /// A state or territory code as MASTER writes it (`"GA"`, `"PR"`), either case.
    public var state: String?
    /// A whole serial number (`"BH9-0005"`), either case.
    public var serialNumber: String?

    public init(owner: String? = nil, model: String? = nil, state: String? = nil, serialNumber: String? = nil) {
        self.owner = owner
        self.model = model
        self.state = state
        self.serialNumber = serialNumber
    }

    /// The most records one call returns (`limit`).
    public static let maxLimit = 10_000
    /// The longest filter text, in bytes.
    public static let maxLength = 200
    /// The most words an owner filter may have.
    public static let maxOwnerWords = 16
}

/// The registrations a `RegistrationQuery` matched: how many in all, and one page of them.
public struct RegistrationMatches: Sendable {
    /// Every match (not only this page).
    public let total: Int
    /// Matches skipped before `records`.
    public let offset: Int
    /// Up to `limit` matches from `offset` on, in N-number order.
    public let records: [RegistrationRecord]
    /// The ACFTREF models the model filter matched (by code, else by model name); empty
    /// without a model filter, or when it matched none.
    public let models: [ModelRecord]
}

extension AircraftBundle {
    /// The registrations matching every filter of `query`, in N-number order: `limit` of them
    /// from `offset` on, with the total count.
    ///
    /// Each filter reads a sorted index of the artifact (owner words, models, states, serial
    /// numbers); the smallest one's rows are tested against the other filters, so a query
    /// never walks the whole registry. Throws a `LocatedError` of kind `usage` naming the
    /// parameter for a query with no filter, a filter with no letters or digits or past
    /// `RegistrationQuery.maxLength`, a state that is not two letters, a `limit` outside
    /// 1…`maxLimit` or a negative `offset`; of kind `wrongKind` for an artifact written before
    /// the search sections.
    ///
    /// ```swift
    /// let page = try bundle.registrations(matching: .init(owner: "northwind"), offset: 0, limit: 10)
    /// page.records.first?.name        // "NORTHWIND CHARTER CORP"
    /// ```
    public func registrations(matching query: RegistrationQuery, offset: Int = 0, limit: Int = 50) throws(LocatedError) -> RegistrationMatches {
        try registrations(matching: query, offset: offset, limit: limit, checking: .byCost)
    }

    /// `registrations(matching:offset:limit:)` with the sets that do not drive checked one way.
    package func registrations(matching query: RegistrationQuery, offset: Int, limit: Int,
                               checking: RegistrySearchChecking) throws(LocatedError) -> RegistrationMatches {
        guard (1...RegistrationQuery.maxLimit).contains(limit) else {
            throw Self.usage("limit", "out of range", expected: "1…\(RegistrationQuery.maxLimit)", found: String(limit))
        }
        guard offset >= 0 else { throw Self.usage("offset", "out of range", expected: "0 or more", found: String(offset)) }
        guard let search else {
            throw LocatedError(.wrongKind, file: path, message: "has no registry search sections (XSTR, OWRD, …): written by an emit-aircraft before them; build it again")
        }
        let plan = try RegistrySearchPlan(query: query, bundle: self, search: search)
        var total = 0
        var records: [RegistrationRecord] = []
        if let driver = plan.driver, checking == .byCost, let page = plan.directPage(driving: driver, offset: offset, limit: limit) {
            total = page.total
            records = page.rows.map { RegistrationRecord(bundle: self, row: $0) }
        } else if let driver = plan.driver {
            plan.forEachMatch(driving: driver, checking: checking) { row in
                if total >= offset && records.count < limit { records.append(RegistrationRecord(bundle: self, row: row)) }
                total += 1
            }
        }
        return RegistrationMatches(total: total, offset: offset, records: records,
                                   models: plan.models.map { ModelRecord(bundle: self, row: $0) })
    }

    /// The registration an identifier names: an N-number (`N250JT`, `250JT`) or a Mode S
    /// address (six hex digits, `A1B2C3`, or `0xA1B2C3`). A US address that MASTER lists
    /// under no registration finds the registration of its computed N-number (`USModeS`).
    ///
    /// ```swift
    /// bundle.aircraft(identifier: "a1b2c3")?.nNumber     // "N250JT"
    /// ```
    public func aircraft(identifier: String) -> (record: RegistrationRecord, matchedBy: AircraftIdentifierKind)? {
        switch AircraftIdentifierKind(identifier) {
        case .registration?:
            return aircraft(registration: identifier).map { ($0, .registration) }
        case .modeS?, .computedRegistration?:
            if let record = aircraft(modeSHex: identifier) { return (record, .modeS) }
            var hex = Self.trimmedASCII(identifier, uppercase: true)
            if hex.starts(with: Array("0X".utf8)) { hex.removeFirst(2) }
            guard let nNumber = USModeS.nNumber(address: String(decoding: hex, as: UTF8.self)) else { return nil }
            return aircraft(registration: nNumber).map { ($0, .computedRegistration) }
        case nil:
            return nil
        }
    }

    /// A bad query parameter: `field: message (expected …; found …)`.
    static func usage(_ field: String, _ message: String, expected: String, found: String) -> LocatedError {
        LocatedError(.usage, file: "", field: field, expected: expected, found: found, message: message)
    }
}

/// How `aircraft(identifier:)` found a registration.
public enum AircraftIdentifierKind: String, Sendable, Hashable, Codable {
    /// By its N-number.
    case registration
    /// By its Mode S address in MASTER.
    case modeS = "mode_s"
    /// By the N-number computed from a US Mode S address MASTER does not list.
    case computedRegistration = "computed_registration"

    /// What `text` is: an N-number (the US form, `AircraftBundle.nNumberForm`, after an
    /// optional `N`; case, spaces and dashes ignored), a Mode S address (six hex digits,
    /// optionally `0x`-prefixed), or neither (nil: `ZZZ` can name no US aircraft). An N-number
    /// is never six characters without its `N`, so the two cannot be confused, and the N-number
    /// is tried first: its key is read in place, where the address check makes an array.
    public init?(_ text: String) {
        if let key = AircraftBundle.registrationKey(text) {
            guard key.hasUSForm else { return nil }
            self = .registration
            return
        }
        var hex = AircraftBundle.trimmedASCII(text, uppercase: true)
        if hex.starts(with: Array("0X".utf8)) { hex.removeFirst(2) }
        guard hex.count == 6, hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) }) else { return nil }
        self = .modeS
    }
}
