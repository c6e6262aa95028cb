import FieldGuideCSV
import FieldGuideCore

/// Turns FAA records into typed, trimmed records, or into the reasons they were refused.
///
/// The ingest's general path (the rows its byte-level fast paths leave, which it words the
/// issues of), and the tests' reference oracle for those fast paths: package API, not the
/// library's.
///
/// ```swift
/// switch FAANormalizer.model(record, file: "ACFTREF.txt") {
/// case .kept(let model, let warnings): ...
/// case .rejected(let issues): ...
/// }
/// ```
package enum FAANormalizer {
    /// The outcome for one record.
    package enum Outcome<Record: Sendable>: Sendable {
        case kept(Record, warnings: [RowIssue])
        case rejected([RowIssue])
    }

    /// An ACFTREF record.
    package static func model(_ record: CSVRecord, file: String) -> Outcome<AircraftModel> {
        read(record, file: file, columns: FAALayout.aircraftReference) { f in
            var model = AircraftModel(code: f.required(0), manufacturer: f.text(1), model: f.text(2))
            model.aircraftType = f.code(3, FAACodeTables.aircraftType)
            model.engineType = f.code(4, FAACodeTables.engineType)
            model.category = f.code(5, FAACodeTables.aircraftCategory)
            model.builderCertification = f.code(6, FAACodeTables.builderCertification)
            model.engineCount = f.integer(7)
            model.seatCount = f.integer(8)
            model.weightClass = weightClass(&f, 9)
            let speed = f.integer(10)
            model.cruiseSpeedMPH = speed == 0 ? nil : speed
            model.typeCertificateDataSheet = f.text(11)
            model.typeCertificateHolder = f.text(12)
            return model
        }
    }

    /// An ENGINE record.
    package static func engine(_ record: CSVRecord, file: String) -> Outcome<EngineModel> {
        read(record, file: file, columns: FAALayout.engine) { f in
            var engine = EngineModel(code: f.required(0), manufacturer: f.text(1), model: f.text(2))
            engine.engineType = f.code(3, FAACodeTables.engineType)
            engine.horsepower = f.integer(4)
            engine.thrustPounds = f.integer(5)
            return engine
        }
    }

    /// A MASTER record.
    package static func registration(_ record: CSVRecord, file: String) -> Outcome<Registration> {
        read(record, file: file, columns: FAALayout.master) { f in
            let mark = f.required(0)
            if !mark.isEmpty, let problem = markProblem(mark) {
                f.reject(0, value: mark, problem)
            }
            var r = Registration(nNumber: "N" + mark)
            r.serialNumber = f.text(1)
            r.modelCode = f.text(2)
            r.engineCode = f.text(3)
            r.yearManufactured = f.integer(4)
            r.registrantType = f.code(5, FAACodeTables.registrantType)
            r.name = f.text(6)
            r.street = f.text(7)
            r.street2 = f.text(8)
            r.city = f.text(9)
            r.state = f.text(10)
            r.zip = zip(f.text(11))
            r.region = f.code(12, FAACodeTables.region)
            r.county = f.text(13)
            r.country = f.text(14)
            r.lastActionDate = f.date(15)
            r.certificateIssueDate = f.date(16)
            r.airworthiness = airworthiness(&f, 17)
            r.aircraftType = f.code(18, FAACodeTables.aircraftType)
            r.engineType = f.code(19, FAACodeTables.engineType)
            r.status = f.code(20, FAACodeTables.status)
            r.modeS = modeS(&f, octal: 21, hex: 33)
            let fractional = f.text(22)
            if !fractional.isEmpty && fractional != "Y" {
                f.warn(22, value: fractional, "expected Y or blank; read as not fractional")
            }
            r.fractionalOwner = fractional == "Y"
            r.airworthinessDate = f.date(23)
            r.otherNames = (24...28).map { f.text($0) }.filter { !$0.isEmpty }
            r.expirationDate = f.date(29)
            r.uniqueID = f.text(30)
            r.kitManufacturer = f.text(31)
            r.kitModel = f.text(32)
            return r
        }
    }

    /// A record of the given layout: refused when its shape is wrong; otherwise `build` reads
    /// its fields, and any field `build` rejects refuses it, with every issue found.
    static func read<Record>(_ record: CSVRecord, file: String, columns: [FAAColumn],
                                     _ build: (inout FieldReader) -> Record) -> Outcome<Record> {
        var f = FieldReader(record: record, file: file, columns: columns)
        if f.isRejected { return .rejected(f.issues) }
        let value = build(&f)
        return f.isRejected ? .rejected(f.issues) : .kept(value, warnings: f.issues)
    }

    /// Why a mark is not an N-number, or nil: 1-5 characters, a digit 1-9 first, then digits,
    /// then at most two letters other than I and O.
    static func markProblem(_ mark: String) -> String? {
        let bytes = Array(mark.utf8)
        guard bytes.count <= 5, let first = bytes.first, first >= 0x31, first <= 0x39 else {
            return "expected an N-number mark: 1-5 characters starting with a digit 1-9"
        }
        var letters = 0
        for byte in bytes.dropFirst() {
            let isDigit = byte >= 0x30 && byte <= 0x39
            let isLetter = byte >= 0x41 && byte <= 0x5A && byte != 0x49 && byte != 0x4F
            if isDigit && letters > 0 { return "expected letters only at the end of an N-number mark" }
            if !isDigit && !isLetter { return "expected digits and up to two letters (not I or O) in an N-number mark" }
            if isLetter { letters += 1 }
        }
        return letters > 2 ? "expected at most two letters at the end of an N-number mark" : nil
    }

    /// `CLASS 3` → code `3`.
    static func weightClass(_ f: inout FieldReader, _ i: Int) -> FAACode? {
        let value = f.text(i)
        if value.isEmpty { return nil }
        let number = value.hasPrefix("CLASS ") ? String(value.dropFirst(6)).trimmingSpaces() : value
        return f.code(i, FAACodeTables.weightClass, raw: number)
    }

    /// `672151400` → `67215-1400`; 5 digits stay; anything else (foreign codes) as written.
    static func zip(_ value: String) -> String {
        let bytes = Array(value.utf8)
        guard bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return value }
        if bytes.count == 9 { return String(decoding: bytes[0..<5], as: UTF8.self) + "-" + String(decoding: bytes[5...], as: UTF8.self) }
        return value
    }

    /// MODE S CODE (8 octal digits) checked against MODE S CODE HEX; a disagreement rejects.
    static func modeS(_ f: inout FieldReader, octal: Int, hex: Int) -> UInt32? {
        let octalText = f.text(octal)
        let hexText = f.text(hex)
        if octalText.isEmpty && hexText.isEmpty { return nil }
        let fromOctal = octalText.isEmpty ? nil : UInt32(octalText, radix: 8)
        let fromHex = hexText.isEmpty ? nil : UInt32(hexText, radix: 16)
        if !octalText.isEmpty && fromOctal == nil {
            f.reject(octal, value: octalText, "expected octal digits 0-7")
            return nil
        }
        if !hexText.isEmpty && fromHex == nil {
            f.reject(hex, value: hexText, "expected hexadecimal digits")
            return nil
        }
        if let fromOctal, let fromHex, fromOctal != fromHex {
            let expected = String(fromOctal, radix: 16, uppercase: true)
            f.reject(hex, value: hexText, "expected \(expected) (MODE S CODE \(octalText) in hex), found \(hexText)")
            return nil
        }
        let value = fromHex ?? fromOctal!
        guard value <= 0xFF_FFFF else {
            f.reject(hex, value: hexText, "expected a 24-bit address")
            return nil
        }
        return value
    }

    /// One byte of CERTIFICATION as a code: its Latin-1 character, a control character as
    /// U+FFFD (the field's text has warned about it already).
    private static func character(_ byte: UInt8) -> String {
        let scalar = UnicodeScalar(byte)
        return String(FileText.isControlCharacter(scalar) ? FileText.controlReplacement : scalar)
    }

    /// CERTIFICATION: the class (first character) and the class's operation codes after it.
    static func airworthiness(_ f: inout FieldReader, _ i: Int) -> Airworthiness {
        let raw = f.raw(i)
        let certification = f.text(i)
        guard let first = raw.first, first != 0x20 else {
            return Airworthiness(certification: certification, classification: nil, operations: [])
        }
        let classCode = Self.character(first)
        let classification = f.code(i, FAACodeTables.airworthinessClass, raw: classCode)
        let rest = Array(raw.dropFirst())
        var operations: [FAACode] = []
        func decode(_ table: [String: String], _ bytes: ArraySlice<UInt8>, pairs: Bool = false) {
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == 0x20 { index += 1; continue }
                var code = Self.character(byte)
                if pairs, byte == 0x38 || byte == 0x39, index + 1 < bytes.endIndex,
                   (0x41...0x45).contains(bytes[index + 1]) {
                    code += String(UnicodeScalar(bytes[index + 1]))
                    index += 1
                }
                index += 1
                let name = table[code]
                if name == nil {
                    f.warn(i, value: certification, "unknown operation code \(code) for airworthiness class \(classCode); kept as written")
                }
                operations.append(FAACode(raw: code, name: name))
            }
        }
        switch classCode {
        case "1": decode(FAACodeTables.standardOperations, rest[...])
        case "3": decode(FAACodeTables.restrictedOperations, rest[...])
        case "4": decode(FAACodeTables.experimentalOperations, rest[...], pairs: true)
        case "5": decode(FAACodeTables.provisionalOperations, rest[...])
        case "6":
            decode(FAACodeTables.multipleClasses, rest.prefix(2))
            decode(FAACodeTables.restrictedOperations, rest.dropFirst(2))
        case "8": decode(FAACodeTables.specialFlightOperations, rest[...])
        case "9": decode(FAACodeTables.lightSportOperations, rest[...])
        default: decode([:], rest[...])  // Limited and Primary take none: anything is unknown.
        }
        return Airworthiness(certification: certification, classification: classification, operations: operations)
    }
}
