import FieldGuide
import FieldGuideCore
import FieldGuideCSV
import FieldGuideDiagnostics
import Foundation
import StageCLI

/// `fieldguide enrich --from FILE`: one enrichment row per N-number or Mode S address of a
/// file, streamed in input order (see `Enrich`'s discussion for the file's two shapes).
enum EnrichBatch {
    /// The largest input file: checked before reading (a quoted field left open would
    /// otherwise hold the rest of the file in memory).
    static let maxFileBytes = 64 << 20
    /// Header names (lower-cased, trimmed) of a column of N-numbers, by preference.
    static let registrationColumns = ["registration", "n_number", "n-number", "nnumber", "tail_number", "tail"]
    /// Header names of a column of Mode S addresses, by preference.
    static let modeSColumns = ["mode_s_hex", "mode_s", "modes", "icao24", "hex"]

    static let csvHeader = [
        "line", "input", "status", "matched_by", "registration", "mode_s_hex", "serial_number", "manufacturer", "model",
        "year_manufactured", "aircraft_type", "engine_type", "engine_count", "seat_count", "weight_class",
        "airworthiness_classification", "owner_type", "owner_withheld", "registered_owner", "address_line1", "address_line2",
        "city", "state", "zip", "country", "certificate_expiration_date",
    ]

    /// One output row: where the input was, what it said, what was found (as JSON: `write(to:)`).
    struct Row {
        let line: Int
        let input: String
        /// `found`, `not_found` or `invalid` (neither an N-number nor a Mode S address).
        let status: String
        let matchedBy: AircraftIdentifierKind?
        let enrichment: AircraftEnrichment?
    }

    /// Where the identifiers are: each line's only field, or named columns of a CSV file.
    private enum Shape {
        case list
        case columns(registration: Int?, modeS: Int?)
    }

    static func run(file: String, bundle: AircraftBundle, format: OutputFormat) throws {
        var info = stat()
        if stat(file, &info) == 0, Int(info.st_size) > maxFileBytes {
            throw LocatedError(.tooLarge, file: file, expected: "at most \(maxFileBytes >> 20) MiB", found: "\(formatCount(Int(info.st_size))) bytes",
                               message: "too large for --from")
        }
        var shape: Shape?
        var writer = CSVWriter()
        if format == .text { writer.write(csvHeader) }
        var counts: [String: Int] = [:]
        try CSVReader.read(fileAt: file, displayName: file) { record in
            if shape == nil {
                shape = try Self.shape(of: record, file: file)
                if case .columns = shape! { return }
            }
            guard let (input, line) = Self.input(record, shape!) else { return }
            let row = Self.row(input, line: line, bundle: bundle)
            counts[row.status, default: 0] += 1
            try write(row, format: format, to: &writer)
        }
        guard shape != nil else {
            throw LocatedError(.empty, file: file, expected: "N-numbers or Mode S addresses", found: "no lines", message: "nothing to enrich")
        }
        writer.drain { FileHandle.standardOutput.write(Data($0)) }
        let total = counts.values.reduce(0, +)
        StageLog(stage: "fieldguide").info("enriched \(formatCount(counts["found"] ?? 0)) of \(formatCount(total, "input")) from \(file) "
            + "(\(formatCount(counts["not_found"] ?? 0)) not found, \(formatCount(counts["invalid"] ?? 0)) invalid)")
    }

    /// The file's shape from its first record: a header naming an identifier column, or a
    /// lone field (the first identifier).
    private static func shape(of first: CSVRecord, file: String) throws -> Shape {
        let names = first.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let registration = registrationColumns.lazy.compactMap { names.firstIndex(of: $0) }.first
        let modeS = modeSColumns.lazy.compactMap { names.firstIndex(of: $0) }.first
        if registration != nil || modeS != nil { return .columns(registration: registration, modeS: modeS) }
        guard first.count == 1 else {
            throw LocatedError(.wrongHeader, file: file, line: first.line,
                               expected: "a column named \(registrationColumns[0]) or \(modeSColumns[0]), or one N-number or Mode S address per line",
                               found: first.fields.joined(separator: ","), message: "no identifier column")
        }
        return .list
    }

    /// The identifier of a record and its line; nil for a list's blank or `#` lines.
    private static func input(_ record: CSVRecord, _ shape: Shape) -> (String, Int)? {
        func field(_ index: Int?) -> String {
            guard let index, index < record.count else { return "" }
            return record[index].trimmingCharacters(in: .whitespaces)
        }
        switch shape {
        case .list:
            let text = record.fields.joined(separator: ",").trimmingCharacters(in: .whitespaces)
            return text.isEmpty || text.hasPrefix("#") ? nil : (text, record.line)
        case let .columns(registration, modeS):
            let text = field(registration)
            return (text.isEmpty ? field(modeS) : text, record.line)
        }
    }

    static func row(_ input: String, line: Int, bundle: AircraftBundle) -> Row {
        guard AircraftIdentifierKind(input) != nil else { return Row(line: line, input: input, status: "invalid", matchedBy: nil, enrichment: nil) }
        guard let found = bundle.aircraft(identifier: input) else { return Row(line: line, input: input, status: "not_found", matchedBy: nil, enrichment: nil) }
        return Row(line: line, input: input, status: "found", matchedBy: found.matchedBy, enrichment: bundle.enrichment(for: found.record))
    }

    /// Appends `row` as a CSV record or a JSON line; hands full buffers to standard output.
    private static func write(_ row: Row, format: OutputFormat, to writer: inout CSVWriter) throws {
        if format == .json {
            var json = JSONLineWriter()
            row.write(to: &json)
            json.bytes.withUnsafeBytes { writer.append(encoded: $0) }
        } else {
            writeCSV(row, to: &writer)
        }
        if writer.count >= 1 << 16 { writer.drain { FileHandle.standardOutput.write(Data($0)) } }
    }

    private static func writeCSV(_ row: Row, to writer: inout CSVWriter) {
        let e = row.enrichment
        func text(_ value: Int?) -> String { value.map(String.init) ?? "" }
        writer.write([
            String(row.line), row.input, row.status, row.matchedBy?.rawValue ?? "", e?.registration ?? "", e?.modeSHex ?? "",
            e?.serialNumber ?? "", e?.manufacturer ?? "", e?.model ?? "", text(e?.yearManufactured), e?.aircraftType ?? "",
            e?.engineType ?? "", text(e?.engineCount), text(e?.seatCount), e?.weightClass ?? "", e?.airworthinessClassification ?? "",
            e?.ownerType ?? "", e.map { $0.ownerWithheld ? "yes" : "no" } ?? "", e?.registeredOwner ?? "", e?.addressLine1 ?? "",
            e?.addressLine2 ?? "", e?.city ?? "", e?.state ?? "", e?.zip ?? "", e?.country ?? "", e?.certificateExpirationDate?.description ?? "",
        ])
    }
}

extension EnrichBatch.Row {
    /// The row as a JSON line: the bytes `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`)
    /// writes for it, members in the byte order of their keys (`EnrichCommandTests` compares
    /// the two on every registration of an artifact).
    func write(to json: inout JSONLineWriter) {
        json.beginObject()
        if let e = enrichment {
            json.beginObject("enrichment")
            json.member("addressLine1", e.addressLine1)
            json.member("addressLine2", e.addressLine2)
            json.member("aircraftClassificationCode", e.aircraftClassificationCode)
            json.member("aircraftType", e.aircraftType)
            json.member("aircraftTypeCode", e.aircraftTypeCode)
            json.member("airworthinessClassification", e.airworthinessClassification)
            json.member("airworthinessDate", e.airworthinessDate?.description)
            json.member("certificateExpirationDate", e.certificateExpirationDate?.description)
            json.member("certificateIssueDate", e.certificateIssueDate?.description)
            json.member("city", e.city)
            json.member("country", e.country)
            json.member("engineCount", e.engineCount)
            json.member("engineType", e.engineType)
            json.member("engineTypeCode", e.engineTypeCode)
            json.member("manufacturer", e.manufacturer)
            json.member("modeSHex", e.modeSHex)
            json.member("model", e.model)
            json.member("ownerType", e.ownerType)
            json.member("ownerTypeCode", e.ownerTypeCode)
            json.member("ownerWithheld", e.ownerWithheld)
            json.member("registeredOwner", e.registeredOwner)
            json.member("registration", e.registration)
            json.member("seatCount", e.seatCount)
            json.member("serialNumber", e.serialNumber)
            json.member("state", e.state)
            json.member("weightClass", e.weightClass)
            json.member("weightClassCode", e.weightClassCode)
            json.member("yearManufactured", e.yearManufactured)
            json.member("zip", e.zip)
            json.endObject()
        }
        json.member("input", input)
        json.member("line", line)
        json.member("matchedBy", matchedBy?.rawValue)
        json.member("status", status)
        json.endObject()
        json.endLine()
    }
}
