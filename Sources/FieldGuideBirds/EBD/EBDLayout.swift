import FieldGuideCSV
import FieldGuideDiagnostics
import Foundation

/// The region level a bar chart is computed for, and the EBD column that names the region.
///
/// ```swift
/// EBDRegionLevel.state.column   // "STATE CODE": US-NY, CA-MB …
/// ```
public enum EBDRegionLevel: String, Sendable, CaseIterable, Codable {
    case country, state, county

    /// The EBD (and sampling-event) column holding the region code at this level.
    public var column: String {
        switch self {
        case .country: return "COUNTRY CODE"
        case .state: return "STATE CODE"
        case .county: return "COUNTY CODE"
        }
    }
}

/// What kind of eBird file a header belongs to.
public enum EBDFileKind: String, Sendable, Codable {
    /// The eBird Basic Dataset: one row per observation (taxon on a checklist).
    case observations = "EBD"
    /// The sampling-event file: one row per checklist, detections or none.
    case samplingEvents = "sampling-event file"
}

/// Where the columns the aggregation reads stand in one file, found by name in its header.
///
/// The EBD has 52 columns today (older releases had fewer or more, and some end every line
/// with a tab); only the columns below are read, wherever they stand. The header's field
/// count is the count every data row must have.
///
/// ```swift
/// let columns = try EBDColumns(header: record, kind: .observations, level: .state, file: "ebd.txt")
/// columns.region   // index of STATE CODE
/// ```
public struct EBDColumns: Sendable {
    /// The EBD's header today (52 columns; the release of 2025): what fixtures and generated files write.
    public static let observationHeader = [
        "GLOBAL UNIQUE IDENTIFIER", "LAST EDITED DATE", "TAXONOMIC ORDER", "CATEGORY", "TAXON CONCEPT ID", "COMMON NAME",
        "SCIENTIFIC NAME", "SUBSPECIES COMMON NAME", "SUBSPECIES SCIENTIFIC NAME", "EXOTIC CODE", "OBSERVATION COUNT",
        "BREEDING CODE", "BREEDING CATEGORY", "BEHAVIOR CODE", "AGE/SEX", "COUNTRY", "COUNTRY CODE", "STATE", "STATE CODE",
        "COUNTY", "COUNTY CODE", "IBA CODE", "BCR CODE", "USFWS CODE", "ATLAS BLOCK", "LOCALITY", "LOCALITY ID", "LOCALITY TYPE",
        "LATITUDE", "LONGITUDE", "OBSERVATION DATE", "TIME OBSERVATIONS STARTED", "OBSERVER ID", "OBSERVER ORCID ID",
        "SAMPLING EVENT IDENTIFIER", "OBSERVATION TYPE", "PROTOCOL NAME", "PROTOCOL CODE", "PROJECT NAMES",
        "PROJECT IDENTIFIERS", "DURATION MINUTES", "EFFORT DISTANCE KM", "EFFORT AREA HA", "NUMBER OBSERVERS",
        "ALL SPECIES REPORTED", "GROUP IDENTIFIER", "HAS MEDIA", "APPROVED", "REVIEWED", "REASON", "CHECKLIST COMMENTS",
        "SPECIES COMMENTS",
    ]
    /// The sampling-event file's header: the EBD's checklist columns, one row per checklist.
    public static let samplingHeader = [
        "LAST EDITED DATE", "COUNTRY", "COUNTRY CODE", "STATE", "STATE CODE", "COUNTY", "COUNTY CODE", "IBA CODE", "BCR CODE",
        "USFWS CODE", "ATLAS BLOCK", "LOCALITY", "LOCALITY ID", "LOCALITY TYPE", "LATITUDE", "LONGITUDE", "OBSERVATION DATE",
        "TIME OBSERVATIONS STARTED", "OBSERVER ID", "OBSERVER ORCID ID", "SAMPLING EVENT IDENTIFIER", "OBSERVATION TYPE",
        "PROTOCOL NAME", "PROTOCOL CODE", "PROJECT NAMES", "PROJECT IDENTIFIERS", "DURATION MINUTES", "EFFORT DISTANCE KM",
        "EFFORT AREA HA", "NUMBER OBSERVERS", "ALL SPECIES REPORTED", "GROUP IDENTIFIER", "HAS MEDIA", "CHECKLIST COMMENTS",
    ]
    /// The columns both kinds of file must have.
    public static let checklistColumns = ["OBSERVATION DATE", "SAMPLING EVENT IDENTIFIER", "ALL SPECIES REPORTED", "GROUP IDENTIFIER"]
    /// The columns only the observations (EBD) file has.
    public static let observationColumns = ["TAXONOMIC ORDER", "COMMON NAME", "APPROVED"]
    /// The EBD's first column: the one header field that tells the EBD from a sampling-event file.
    public static let observationMarker = "GLOBAL UNIQUE IDENTIFIER"

    /// What kind of eBird file the one at `path` is, by its header (its first line, up to
    /// 64 KiB): the EBD has GLOBAL UNIQUE IDENTIFIER, a sampling-event file only the checklist
    /// columns. Nil when it is neither (the reader then names the missing columns).
    public static func fileKind(atPath path: String) -> EBDFileKind? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1 << 16)) ?? Data()
        let line = String(decoding: head.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        let names = Set(line.split(separator: "\t").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}")) })
        if names.contains(observationMarker) { return .observations }
        return names.contains("SAMPLING EVENT IDENTIFIER") ? .samplingEvents : nil
    }

    public let kind: EBDFileKind
    /// The header's field count: every data row must have exactly this many.
    public let fieldCount: Int
    public let date: Int, samplingEvent: Int, complete: Int, group: Int, region: Int
    /// Observation files only (-1 in a sampling-event file).
    public let taxonomicOrder: Int, commonName: Int, approved: Int
    /// The region column's name (`STATE CODE`), for findings.
    public let regionColumn: String

    /// Finds the columns in a header record; a header without them is a `wrongHeader` error
    /// naming every missing column.
    public init(header: CSVRecord, kind: EBDFileKind, level: EBDRegionLevel, file: String) throws(LocatedError) {
        let wanted = Self.checklistColumns + [level.column] + (kind == .observations ? Self.observationColumns : [])
        let names = (0..<header.count).map { i in header[i].hasSuffix("\r") ? String(header[i].dropLast()) : header[i] }
        let index: [String: Int]
        do throws(LocatedError) { index = try CSVTable.columns(of: names, reading: wanted, file: file, line: header.line) } catch {
            var repeated = error
            repeated.message = "not an eBird \(kind.rawValue) header: " + error.message
            throw repeated
        }
        let missing = wanted.filter { index[$0] == nil }
        guard missing.isEmpty else {
            let found = (0..<min(header.count, 6)).map { header[$0] }.joined(separator: ", ") + (header.count > 6 ? ", …" : "")
            let other = kind == .observations ? index[Self.observationMarker] == nil && index["SAMPLING EVENT IDENTIFIER"] != nil
                : index[Self.observationMarker] != nil
            let hint = !other ? "" : kind == .observations ? "; it is a sampling-event file: give it with --sampling"
                : "; it is an EBD observations file: give it as an input, not with --sampling"
            throw LocatedError(.wrongHeader, file: file, line: header.line,
                               expected: "the \(kind.rawValue) header with \(wanted.joined(separator: ", "))",
                               found: "\(header.count) columns: \(found)",
                               message: "not an eBird \(kind.rawValue) header: missing column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))" + hint)
        }
        self.kind = kind
        fieldCount = header.count
        date = index["OBSERVATION DATE"]!
        samplingEvent = index["SAMPLING EVENT IDENTIFIER"]!
        complete = index["ALL SPECIES REPORTED"]!
        group = index["GROUP IDENTIFIER"]!
        region = index[level.column]!
        regionColumn = level.column
        taxonomicOrder = index["TAXONOMIC ORDER"] ?? -1
        commonName = index["COMMON NAME"] ?? -1
        approved = index["APPROVED"] ?? -1
    }
}
