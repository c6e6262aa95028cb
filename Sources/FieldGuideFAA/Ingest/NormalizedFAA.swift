import FieldGuideDiagnostics
import FieldGuideCSV
import FieldGuideCore
import Foundation

/// The typed hand-off between `ingest-faa` and the index/emit stage: plain CSV files with
/// trimmed text, raw codes, ISO dates, `N`-prefixed marks and hex Mode S addresses.
///
/// Files: `models.csv`, `engines.csv`, `registrations.csv`, and `faa-ingest.json` (the report).
public enum NormalizedFAA {
    public static let modelsFile = "models.csv"
    public static let enginesFile = "engines.csv"
    public static let registrationsFile = "registrations.csv"
    public static let reportFile = "faa-ingest.json"
    public static let rejectsFile = "faa-rejects.csv"
    /// The report's count of fields that were not UTF-8 and were read as Latin-1 (present when
    /// there are any; each is a warning in the rejects report with its file, line and field).
    public static let latin1Count = "fieldsReadAsLatin1"
    /// The stage that writes the hand-off (its report's `stage`).
    package static let producer = "ingest-faa"
    /// Every hand-off file the emit stage reads.
    package static let handOffFiles = [modelsFile, enginesFile, registrationsFile]

    /// The columns of `models.csv`, in order.
    public enum ModelField: Int, CaseIterable, Sendable {
        case code, manufacturer, model, aircraftType, engineType, category, builderCertification
        case engineCount, seatCount, weightClass, cruiseSpeedMPH, typeCertificateDataSheet, typeCertificateHolder
    }

    /// The columns of `engines.csv`, in order.
    public enum EngineField: Int, CaseIterable, Sendable {
        case code, manufacturer, model, engineType, horsepower, thrustPounds
    }

    static let modelHeader = [
        "code", "manufacturer", "model", "aircraft_type", "engine_type", "category", "builder_certification",
        "engine_count", "seat_count", "weight_class", "cruise_speed_mph", "tc_data_sheet", "tc_data_holder",
    ]
    static let engineHeader = ["code", "manufacturer", "model", "engine_type", "horsepower", "thrust_lbs"]
    /// The columns of `registrations.csv`, in order.
    public enum RegistrationField: Int, CaseIterable, Sendable {
        case nNumber, serialNumber, modelCode, engineCode, yearManufactured, registrantType, name, street, street2
        case city, state, zip, region, county, country, lastActionDate, certificateIssueDate, certification
        case airworthinessClass, approvedOperations, aircraftType, engineType, status, modeSHex, fractionalOwner
        case airworthinessDate, otherNames, expirationDate, uniqueID, kitManufacturer, kitModel
    }

    static let registrationHeader = [
        "n_number", "serial_number", "model_code", "engine_code", "year_manufactured", "registrant_type", "name",
        "street", "street2", "city", "state", "zip", "region", "county", "country", "last_action_date",
        "certificate_issue_date", "certification", "airworthiness_class", "approved_operations", "aircraft_type",
        "engine_type", "status", "mode_s_hex", "fractional_owner", "airworthiness_date", "other_names",
        "expiration_date", "unique_id", "kit_manufacturer", "kit_model",
    ]

    // MARK: Writing

    static func fields(_ m: AircraftModel) -> [String] {
        [m.code, m.manufacturer, m.model, m.aircraftType.raw, m.engineType.raw, m.category.raw,
         m.builderCertification.raw, m.engineCount.text, m.seatCount.text, m.weightClass.raw,
         m.cruiseSpeedMPH.text, m.typeCertificateDataSheet, m.typeCertificateHolder]
    }

    static func fields(_ e: EngineModel) -> [String] {
        [e.code, e.manufacturer, e.model, e.engineType.raw, e.horsepower.text, e.thrustPounds.text]
    }

    static func fields(_ r: Registration) -> [String] {
        [r.nNumber, r.serialNumber, r.modelCode, r.engineCode, r.yearManufactured.text, r.registrantType.raw,
         r.name, r.street, r.street2, r.city, r.state, r.zip, r.region.raw, r.county, r.country,
         r.lastActionDate.text, r.certificateIssueDate.text, r.airworthiness.certification,
         r.airworthiness.classification.raw, r.airworthiness.operations.map(\.raw).joined(separator: "|"),
         r.aircraftType.raw, r.engineType.raw, r.status.raw, r.modeSHex ?? "", r.fractionalOwner ? "Y" : "",
         r.airworthinessDate.text, r.otherNames.joined(separator: "|"), r.expirationDate.text, r.uniqueID,
         r.kitManufacturer, r.kitModel]
    }

    // MARK: Reading

    /// Reads `models.csv` into typed records (the tests' oracle for the byte-level readers the
    /// emit stage uses).
    package static func readModels(_ path: String) throws -> [AircraftModel] {
        var models: [AircraftModel] = []
        try read(path, header: modelHeader) { r in
            var m = AircraftModel(code: r[0], manufacturer: r[1], model: r[2])
            m.aircraftType = code(r[3], FAACodeTables.aircraftType)
            m.engineType = code(r[4], FAACodeTables.engineType)
            m.category = code(r[5], FAACodeTables.aircraftCategory)
            m.builderCertification = code(r[6], FAACodeTables.builderCertification)
            m.engineCount = Int(r[7])
            m.seatCount = Int(r[8])
            m.weightClass = code(r[9], FAACodeTables.weightClass)
            m.cruiseSpeedMPH = Int(r[10])
            m.typeCertificateDataSheet = r[11]
            m.typeCertificateHolder = r[12]
            models.append(m)
        }
        return models
    }

    /// Reads `engines.csv` into typed records (a test oracle, as `readModels`).
    package static func readEngines(_ path: String) throws -> [EngineModel] {
        var engines: [EngineModel] = []
        try read(path, header: engineHeader) { r in
            var e = EngineModel(code: r[0], manufacturer: r[1], model: r[2])
            e.engineType = code(r[3], FAACodeTables.engineType)
            e.horsepower = Int(r[4])
            e.thrustPounds = Int(r[5])
            engines.append(e)
        }
        return engines
    }

    /// Streams the data records of `models.csv` (header and widths checked), for readers that
    /// work on field bytes; columns are `ModelField`s.
    public static func readModelRecords(_ path: String, _ body: (CSVRecord) throws -> Void) throws {
        try read(path, header: modelHeader, body)
    }

    /// The largest `models.csv` or `engines.csv` a reader sizes its buffers for (full size: 5.8 MB
    /// and 150 KB).
    public static let maximumReferenceFileBytes = 1 << 30

    /// The size in bytes of the reference file at `path` (`models.csv`, `engines.csv`), from
    /// the file system before it is read, for sizing a reader's buffers: `.tooLarge` past
    /// `maximumBytes`; 0 when it is not a file that can be looked at (the reader then says why).
    public static func referenceFileSize(of path: String, maximumBytes: Int = maximumReferenceFileBytes) throws(LocatedError) -> Int {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
        let size = Int(info.st_size)
        guard size <= maximumBytes else {
            throw LocatedError(.tooLarge, file: PathName(path: path).lastComponent, expected: "at most \(maximumBytes) bytes",
                               found: "\(size) bytes", message: "a reference file too large for the hand-off")
        }
        return size
    }

    /// Streams the data records of `engines.csv` (header and widths checked); columns are
    /// `EngineField`s.
    public static func readEngineRecords(_ path: String, _ body: (CSVRecord) throws -> Void) throws {
        try read(path, header: engineHeader, body)
    }

    /// Streams the raw records of `registrations.csv` (header checked), for readers that work on
    /// field bytes; columns are `RegistrationField`s. Returns the file's SHA-256.
    ///
    /// Reading, hashing and parsing run on a second thread (`CSVPipeline`); `body` runs on this
    /// one, in file order.
    @discardableResult
    public static func readRegistrationRecords(_ path: String, _ body: (CSVRecord) throws -> Void) throws -> String {
        let name = PathName(path: path).lastComponent
        let hash = try CSVPipeline.run(dialect: .rfc4180, file: name, produce: hashing { try CSVReader.stream(fileAt: path, displayName: name, $0) }) { record in
            try check(record, header: registrationHeader, file: name)
            if record.index > 0 { try body(record) }
        }
        return hash.sha256
    }

    /// `registrations.csv` cut in two at a line boundary, for reading its halves on two threads
    /// (`readRegistrationRecords(_:_:)` reads it in one pass). The hand-off's values never hold
    /// a line feed (MASTER is unquoted), so each half holds whole records; they keep their real
    /// line numbers.
    ///
    /// ```swift
    /// if let halves = try NormalizedFAA.RegistrationHalves(path: path) {
    ///     var read = halves.read { records in
    ///         var part = Part()
    ///         try records.forEach { record in try part.add(record) }   // on the half's thread
    ///         return part
    ///     }
    ///     let parts = try read.takeOutputs()               // the first error in file order
    ///     let sha256 = try read.digest!.value().finalize()  // the whole file's
    /// }
    /// ```
    public struct RegistrationHalves: Sendable {
        public let file: SplitFile

        /// Nil when the file is smaller than `minimumSize` or cannot be cut (see `SplitFile`);
        /// the cut is the first line boundary at or past `offset`, by default the middle.
        public init?(path: String, minimumSize: Int = 0, cuttingAtOrAfter offset: Int? = nil) throws {
            guard let file = try SplitFile(path: path, name: PathName(path: path).lastComponent, minimumSize: minimumSize,
                                           cuttingAtOrAfter: offset) else { return nil }
            self.file = file
        }

        /// Reads both halves at once (`SplitFile.readHalves`), hashing the file meanwhile:
        /// `read` is called on each half's thread with the half's data records.
        public func read<Part: Sendable>(_ read: @escaping @Sendable (Records) throws -> Part) -> SplitRead<Part, StreamingDigest> {
            file.readHalves(dialect: .rfc4180, hashing: StreamingDigest()) { half in try read(Records(half: half)) }
        }

        /// The data records of one half: the header checked, and the width of every row.
        public struct Records {
            let half: SplitFile.Half<StreamingDigest>

            /// Streams the half's data records to `body`, in order; once only.
            public func forEach(_ body: (CSVRecord) throws -> Void) throws {
                let isFirst = half.isFirst, name = half.name
                try half.parse { record in
                    if isFirst && record.index == 0 {
                        try check(record, header: registrationHeader, file: name)
                    } else {
                        try checkWidth(record, header: registrationHeader, file: name)
                        try body(record)
                    }
                }
            }
        }
    }

    /// Streams `registrations.csv` as typed records (a test oracle, as `readModels`).
    package static func readRegistrations(_ path: String, _ body: (Registration) throws -> Void) throws {
        try read(path, header: registrationHeader) { r in
            var g = Registration(nNumber: r[0])
            g.serialNumber = r[1]; g.modelCode = r[2]; g.engineCode = r[3]
            g.yearManufactured = Int(r[4])
            g.registrantType = code(r[5], FAACodeTables.registrantType)
            g.name = r[6]; g.street = r[7]; g.street2 = r[8]; g.city = r[9]; g.state = r[10]; g.zip = r[11]
            g.region = code(r[12], FAACodeTables.region)
            g.county = r[13]; g.country = r[14]
            g.lastActionDate = FAADate(r[15])
            g.certificateIssueDate = FAADate(r[16])
            let classCode = r[18]
            let operations = r[19].isEmpty ? [] : r[19].split(separator: "|").enumerated().map { position, code in
                FAACode(raw: String(code), name: FAACodeTables.operationName(classCode: classCode, code: String(code), position: position))
            }
            g.airworthiness = Airworthiness(certification: r[17], classification: code(classCode, FAACodeTables.airworthinessClass),
                                            operations: operations)
            g.aircraftType = code(r[20], FAACodeTables.aircraftType)
            g.engineType = code(r[21], FAACodeTables.engineType)
            g.status = code(r[22], FAACodeTables.status)
            g.modeS = r[23].isEmpty ? nil : UInt32(r[23], radix: 16)
            g.fractionalOwner = r[24] == "Y"
            g.airworthinessDate = FAADate(r[25])
            g.otherNames = r[26].isEmpty ? [] : r[26].split(separator: "|").map(String.init)
            g.expirationDate = FAADate(r[27])
            g.uniqueID = r[28]; g.kitManufacturer = r[29]; g.kitModel = r[30]
            try body(g)
        }
    }

    private static func code(_ raw: String, _ table: FAACodeTable) -> FAACode? {
        raw.isEmpty ? nil : FAACode(raw: raw, name: table.name(of: raw))
    }

    private static func read(_ path: String, header: [String], _ body: (CSVRecord) throws -> Void) throws {
        let name = PathName(path: path).lastComponent
        try CSVReader.read(fileAt: path, dialect: .rfc4180, displayName: name) { record in
            try check(record, header: header, file: name)
            if record.index > 0 { try body(record) }
        }
    }

    /// The header row must be `header`; every other row must have as many fields.
    static func check(_ record: CSVRecord, header: [String], file name: String) throws {
        if record.index == 0 {
            guard record.fields == header else {
                throw LocatedError(.badHandOff, file: name, line: record.line,
                                   message: "expected the normalized header \(header.joined(separator: ",")), found \(record.fields.joined(separator: ","))")
            }
            return
        }
        try checkWidth(record, header: header, file: name)
    }

    /// A data row must have a field per column of `header`.
    private static func checkWidth(_ record: CSVRecord, header: [String], file name: String) throws {
        guard record.count == header.count else {
            throw LocatedError(.badHandOff, file: name, line: record.line,
                               message: "expected \(header.count) fields, found \(record.count)")
        }
    }
}

/// The last path component without Foundation.
struct PathName {
    let path: String
    var lastComponent: String { path.split(separator: "/").last.map(String.init) ?? path }
}

extension Optional where Wrapped == FAACode {
    var raw: String { self?.raw ?? "" }
}

extension Optional where Wrapped == Int {
    var text: String { self.map(String.init) ?? "" }
}

extension Optional where Wrapped == FAADate {
    var text: String { self?.description ?? "" }
}
