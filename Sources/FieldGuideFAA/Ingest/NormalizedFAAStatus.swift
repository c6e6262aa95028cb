import FieldGuideCSV
import FieldGuideCore

/// The hand-off files of DEREG and RESERVED: `deregistered.csv` and `reserved.csv`, written by
/// `ingest-faa` when the download has the source file, read by `emit-aircraft` (and by the
/// SQLite export: every row, in file order).
///
/// Values as in `registrations.csv`: trimmed text, raw codes, ISO dates, `N`-prefixed marks,
/// hex Mode S addresses, lists joined with `|`.
///
/// ```swift
/// try NormalizedFAAStatus.readDeregisteredRecords("output/stage/faa/deregistered.csv") { record in
///     record[NormalizedFAAStatus.DeregisteredField.cancelDate.rawValue]   // "2019-04-30"
/// }
/// ```
public enum NormalizedFAAStatus {
    public static let deregisteredFile = "deregistered.csv"
    public static let reservedFile = "reserved.csv"

    /// The columns of `deregistered.csv`, in order.
    public enum DeregisteredField: Int, CaseIterable, Sendable {
        case nNumber, serialNumber, modelCode, status, name, street, street2, city, state, zip, engineCode
        case yearManufactured, certification, region, county, country, airworthinessDate, cancelDate, modeSHex
        case registrantType, exportCountry, lastActionDate, certificateIssueDate, physicalStreet, physicalStreet2
        case physicalCity, physicalState, physicalZip, physicalCounty, physicalCountry, otherNames
        case kitManufacturer, kitModel
    }

    /// The columns of `reserved.csv`, in order.
    public enum ReservedField: Int, CaseIterable, Sendable {
        case nNumber, registrant, street, street2, city, state, zip, reserveDate, reservationType
        case expirationDate, changeNNumber, purgeDate
    }

    public static let deregisteredHeader = [
        "n_number", "serial_number", "model_code", "status", "name", "street", "street2", "city", "state", "zip",
        "engine_code", "year_manufactured", "certification", "region", "county", "country", "airworthiness_date",
        "cancel_date", "mode_s_hex", "registrant_type", "export_country", "last_action_date", "certificate_issue_date",
        "physical_street", "physical_street2", "physical_city", "physical_state", "physical_zip", "physical_county",
        "physical_country", "other_names", "kit_manufacturer", "kit_model",
    ]

    public static let reservedHeader = [
        "n_number", "registrant", "street", "street2", "city", "state", "zip", "reserve_date", "reservation_type",
        "expiration_date", "change_n_number", "purge_date",
    ]

    /// Streams the data records of `deregistered.csv` (header and widths checked) in file
    /// order; returns the file's SHA-256, taken in the same pass.
    @discardableResult
    public static func readDeregisteredRecords(_ path: String, _ body: (CSVRecord) throws -> Void) throws -> String {
        try read(path, header: deregisteredHeader, body)
    }

    /// Streams the data records of `reserved.csv` (header and widths checked); returns its SHA-256.
    @discardableResult
    public static func readReservedRecords(_ path: String, _ body: (CSVRecord) throws -> Void) throws -> String {
        try read(path, header: reservedHeader, body)
    }

    private static func read(_ path: String, header: [String], _ body: (CSVRecord) throws -> Void) throws -> String {
        let name = PathName(path: path).lastComponent
        let hash = try CSVPipeline.run(dialect: .rfc4180, file: name, produce: hashing { try CSVReader.stream(fileAt: path, displayName: name, $0) }) { record in
            try NormalizedFAA.check(record, header: header, file: name)
            if record.index > 0 { try body(record) }
        }
        return hash.sha256
    }
}
