import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics

/// One row of the eBird/Clements taxonomy. Made only by `Taxonomy.read` (the memberwise initializer
/// stays internal on purpose).
public struct Taxon: Sendable, Hashable, Codable {
    public var taxonOrder: Int?
    /// `species`, `issf`, `slash`, `spuh`, `hybrid`, `form`, `domestic`, `intergrade`.
    public var category: String
    /// The stable eBird species code (`houspa`).
    public var speciesCode: String
    public var conceptID: String?
    public var commonName: String
    public var scientificName: String
    public var order: String
    /// `FAMILY` as written: `Passeridae (Old World Sparrows)`.
    public var family: String
    public var speciesGroup: String
    public var reportAs: String
    /// The line of the row in the CSV file.
    public var line: Int

    /// The family's scientific name, without the English name in brackets (`Passeridae`).
    public var familyName: String {
        guard let bracket = family.firstIndex(of: "(") else { return family.trimmingSpaces }
        return String(family[..<bracket]).trimmingSpaces
    }
}

/// The eBird/Clements taxonomy CSV, read by column name through the project's libcsv layer.
///
/// Handles the header changes between versions: `ORDER1` (2021) or `ORDER` (later), and the
/// optional `TAXON_CONCEPT_ID` after `SPECIES_CODE`. A UTF-8 byte order mark is skipped.
///
/// ```swift
/// let taxonomy = try Taxonomy.read(fileAt: "eBird_Taxonomy_v2021.csv")
/// taxonomy.taxon(scientificName: "Passer domesticus")?.speciesCode   // "houspa"
/// ```
public struct Taxonomy: Sendable {
    public let file: String
    public let taxa: [Taxon]
    /// The order column's name in this version (`ORDER1` or `ORDER`).
    public let orderColumn: String
    public let hasConceptIDs: Bool
    /// The values that were not UTF-8 and were read as Latin-1, or held a control character
    /// (replaced with U+FFFD): the ingest and `validate` warn about each.
    public var readings: [TextReading] = []
    private let byScientificName: [String: Int]
    private let byFoldedCommonName: [String: Int]

    public static let requiredColumns = ["CATEGORY", "SPECIES_CODE", "PRIMARY_COM_NAME", "SCI_NAME", "FAMILY"]

    public init(file: String, taxa: [Taxon], orderColumn: String = "ORDER", hasConceptIDs: Bool = false) {
        self.file = file
        self.taxa = taxa
        self.orderColumn = orderColumn
        self.hasConceptIDs = hasConceptIDs
        var bySci: [String: Int] = [:], byCommon: [String: Int] = [:]
        bySci.reserveCapacity(taxa.count)
        byCommon.reserveCapacity(taxa.count)
        // A species wins over other categories sharing its name. Each name is hashed once
        // (twice when a species held it), and the tables never grow: their lookups, inserts
        // and growth were most of making a taxonomy.
        func claim(_ table: inout [String: Int], _ key: String, _ index: Int) {
            if let existing = table.updateValue(index, forKey: key), taxa[existing].category == "species" { table[key] = existing }
        }
        for (index, taxon) in taxa.enumerated() {
            claim(&bySci, taxon.scientificName, index)
            claim(&byCommon, Taxonomy.fold(taxon.commonName), index)
        }
        byScientificName = bySci
        byFoldedCommonName = byCommon
    }

    /// Whether a CSV header (first record) is a taxonomy header.
    public static func isTaxonomyHeader(_ fields: [String]) -> Bool {
        let names = Set(fields.map(\.trimmingSpaces))
        return requiredColumns.allSatisfy(names.contains)
    }

    /// Reads the whole file: a `LocatedError` for a file that cannot be read (`.unreadable`),
    /// another header (`.wrongHeader`), a row without a species code, with one seen before or
    /// with a `TAXON_ORDER` that is not a whole number (`.malformed`) or a record
    /// past the CSV bound (`.tooLarge`). A value that is not UTF-8 is read as Latin-1, a control
    /// character becomes U+FFFD, and each is listed in `readings`.
    public static func read(fileAt path: String, displayName: String? = nil) throws(LocatedError) -> Taxonomy {
        let name = displayName ?? path
        var columns: [String: Int] = [:]
        var taxa: [Taxon] = []
        var orderColumn = "ORDER"
        var readings: [TextReading] = []
        var lines: [String: Int] = [:]   // each species code's line
        var read = RowColumns([:], orderColumn: orderColumn)
        do {
            try CSVReader.read(fileAt: path, dialect: .rfc4180, displayName: name) { record in
                if record.index == 0 {
                    let fields = record.fields.map(\.trimmingSpaces)
                    columns = try CSVTable.columns(of: fields, reading: requiredColumns + ["TAXON_ORDER", "TAXON_CONCEPT_ID", "ORDER", "ORDER1", "SPECIES_GROUP", "REPORT_AS"],
                                                   file: name, line: record.line)
                    let missing = requiredColumns.filter { columns[$0] == nil }
                    guard missing.isEmpty else {
                        throw LocatedError(.wrongHeader, file: name, line: record.line,
                                           message: "expected an eBird/Clements taxonomy header with \(missing.joined(separator: ", ")), found \(fields.joined(separator: ","))")
                    }
                    orderColumn = columns["ORDER1"] != nil ? "ORDER1" : "ORDER"
                    read = RowColumns(columns, orderColumn: orderColumn)
                    return
                }
                // Each column is read once, by the position the header gave it (a lookup by name
                // for every field was a quarter of reading the file).
                func field(_ column: RowColumns.Column) -> String {
                    guard let index = read.positions[column.rawValue], index < record.count else { return "" }
                    let decoded = record.withField(index) { FileText.decode($0) }
                    return FileText.keep((decoded.text.trimmingSpaces, decoded.isLatin1), file: name, line: record.line,
                                         field: read.names[column.rawValue], into: &readings)
                }
                let category = field(.category)
                if record.count == 1 && category.isEmpty { return }   // a blank line
                let order = field(.taxonOrder)
                let taxon = Taxon(taxonOrder: Int(order), category: category, speciesCode: field(.speciesCode),
                                  conceptID: read.positions[RowColumns.Column.conceptID.rawValue] != nil ? field(.conceptID) : nil,
                                  commonName: field(.commonName), scientificName: field(.scientificName), order: field(.order),
                                  family: field(.family), speciesGroup: field(.speciesGroup), reportAs: field(.reportAs), line: record.line)
                guard !taxon.speciesCode.isEmpty, !taxon.scientificName.isEmpty else {
                    throw LocatedError(.malformed, file: name, line: record.line, message: "expected SPECIES_CODE and SCI_NAME, found an empty field")
                }
                guard order.isEmpty || taxon.taxonOrder != nil else {
                    throw LocatedError(.malformed, file: name, line: record.line, field: "TAXON_ORDER", expected: "a whole number", found: order,
                                       message: "not a taxon order")
                }
                // The code is the taxon's key: a second row of it would be linked or dropped by chance.
                if let earlier = lines.updateValue(record.line, forKey: taxon.speciesCode) {
                    throw LocatedError(.malformed, file: name, line: record.line, field: "SPECIES_CODE", expected: "each code once",
                                       found: "\(taxon.speciesCode) on line \(earlier) too", message: "a species code listed twice")
                }
                taxa.append(taxon)
            }
        } catch let error as LocatedError {
            throw error
        } catch {
            throw LocatedError(name, failed: error)
        }
        if columns.isEmpty { throw LocatedError(.wrongHeader, file: name, line: 1, message: "expected a taxonomy header, found an empty file") }
        var taxonomy = Taxonomy(file: name, taxa: taxa, orderColumn: orderColumn, hasConceptIDs: columns["TAXON_CONCEPT_ID"] != nil)
        taxonomy.readings = readings
        return taxonomy
    }

    /// The columns a row is read from, in the order they are read, and where the header put
    /// each (nil: not in this version's header).
    private struct RowColumns {
        enum Column: Int {
            case category, taxonOrder, speciesCode, conceptID, commonName, scientificName, order, family, speciesGroup, reportAs
        }
        let names: [String]
        let positions: [Int?]

        init(_ columns: [String: Int], orderColumn: String) {
            names = ["CATEGORY", "TAXON_ORDER", "SPECIES_CODE", "TAXON_CONCEPT_ID", "PRIMARY_COM_NAME", "SCI_NAME", orderColumn,
                     "FAMILY", "SPECIES_GROUP", "REPORT_AS"]
            positions = names.map { columns[$0] }
        }
    }

    public func taxon(scientificName: String) -> Taxon? {
        byScientificName[scientificName].map { taxa[$0] }
    }

    public func taxon(commonName: String) -> Taxon? {
        byFoldedCommonName[Taxonomy.fold(commonName)].map { taxa[$0] }
    }

    /// The species whose scientific name is fewest edits from `scientificName` (at most 6).
    public func closestSpecies(scientificName: String) -> Taxon? {
        let target = Array(scientificName.unicodeScalars)
        var best: (Int, Int)?
        for (index, taxon) in taxa.enumerated() where taxon.category == "species" {
            let limit = min(best?.0 ?? 6, 6)
            if let d = EditDistance.distance(target, Array(taxon.scientificName.unicodeScalars), limit: limit), d < (best?.0 ?? .max) {
                best = (d, index)
            }
        }
        return best.map { taxa[$0.1] }
    }

    /// Lower-cased letters and digits only: `Indian Scops-Owl` and `Indian Scops Owl` fold alike.
    public static func fold(_ name: String) -> String {
        // An ASCII name (almost all of them) byte by byte: the same letters and digits without
        // the Unicode case mapping and property tables, which cost a tenth of ingest-birds.
        // Read in place and written straight into the new string (through the generic
        // `UTF8View` and an array, 2,700 instructions a name).
        let ascii = name.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { folded in
                var count = 0
                for byte in bytes {
                    switch byte {
                    case 0x41...0x5A: folded[count] = byte + 0x20
                    case 0x61...0x7A, 0x30...0x39: folded[count] = byte
                    default: continue
                    }
                    count += 1
                }
                return count
            }
        }
        return (ascii ?? nil) ?? foldScalars(name)
    }

    /// `fold` through the Unicode case mapping and properties, for any name.
    package static func foldScalars(_ name: String) -> String {
        String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (characters: a space a combining mark
    /// follows is not one).
    package var trimmingSpaces: String {
        // Bytes, not characters, wherever they give the same answer: a trimmed run of spaces
        // and tabs that borders only ASCII (or an end of the text) cannot be part of a larger
        // character, since only combining marks after a space and prepended marks before it
        // join it into one. Walking grapheme clusters cost a twentieth of ingest-birds, and the
        // generic `UTF8View` walk that replaced it another twentieth (567 instructions a value).
        let fast: String?? = utf8.withContiguousStorageIfAvailable { bytes in
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            var start = 0, end = bytes.count
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            if start == 0 && end == bytes.count { return self }
            guard start == 0 || start == end || bytes[start] < 0x80, end == bytes.count || end == start || bytes[end - 1] < 0x80 else {
                return nil
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        return (fast ?? nil) ?? trimmingSpaceCharacters
    }

    /// `trimmingSpaces` character by character, for any text.
    package var trimmingSpaceCharacters: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
