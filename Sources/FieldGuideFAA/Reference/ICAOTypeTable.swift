import FieldGuideDiagnostics
import Foundation

/// ICAO aircraft type designators: designator → name, description and wake class.
///
/// Read by `ingest-exports --icao-types` (resolving captures) and `emit-aircraft-index
/// --icao-types` (the manufacturer index's type table).
///
/// Reads the Mictronics form, `{"B738": ["BOEING 737-800", "L2J", "M"], …}`. The description
/// code is aircraft class (L land, S sea, A amphibian, H helicopter, G gyrocopter, T tilt-rotor),
/// engine count, engine type (P piston, T turboprop/turboshaft, J jet, E electric).
///
/// ```swift
/// let types = try ICAOTypeTable(path: "../shared/data/aircraft/icao-types.json")
/// types["b738"]?.name           // "BOEING 737-800"
/// types["B738"]?.description    // "L2J"
/// ```
public struct ICAOTypeTable: Sendable {
    public struct Entry: Sendable, Hashable, Codable {
        /// The type designator, upper case (`B738`).
        public let designator: String
        /// The type's name as the list writes it (`BOEING 737-800`).
        public let name: String
        /// Aircraft class, engine count and engine type (`L2J`).
        public let description: String
        /// ICAO wake turbulence category: `L`, `M`, `H` or `J` (super); empty when unknown.
        public let wakeClass: String

        /// A designator the list does not name (the index keeps one the Mode S list uses).
        package static func unlisted(_ designator: String) -> Entry {
            Entry(designator: designator, name: "", description: "", wakeClass: "")
        }
    }

    private let entries: [String: Entry]
    public var count: Int { entries.count }

    /// Every entry, by designator.
    public var all: [Entry] { entries.values.sorted { $0.designator < $1.designator } }

    /// A table of these entries (the first of a designator given twice wins).
    package init(entries: [Entry]) {
        self.entries = Dictionary(entries.map { ($0.designator.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads the table at `path` (streamed: a file of another shape is refused at its first
    /// entry, `file:line:column`, naming what it holds; a designator given twice at its second). At most `ModeSTypeTable.maximumFileSize` bytes.
    public init(path: String) throws(LocatedError) {
        let data = try ModeSTypeTable.contents(of: path, what: "an ICAO type table")
        var list: [Entry] = [], seen: [String: Int] = [:]
        try ModeSTypeTable.withBytes(data) { (bytes: UnsafeRawBufferPointer) throws(LocatedError) in
            try StringTableJSON.read(bytes, file: path, what: "ICAO type designators") { (designator, fields, line, column) throws(LocatedError) in
                if let problem = Self.problem(designator, fields) {
                    // Another table (the Mode S one) is the wrong kind of file; anything else is not a table this reader knows.
                    throw Self.looksLikeModeS(designator, fields)
                        ? LocatedError(.wrongKind, file: path, line: line, column: column, message: "expected ICAO type designators, found a Mode S address table (\(designator) → \(fields)); pass it as the Mode S table, not --icao-types")
                        : LocatedError(.unrecognized, file: path, line: line, column: column, message: "expected ICAO type designators {\"B738\": [name, description, wake class]}, found \(designator) → \(fields): \(problem)")
                }
                if let first = seen.updateValue(line, forKey: designator) {
                    throw LocatedError(.invalidValue, file: path, line: line, column: column, expected: "each designator once",
                                       found: "\(designator) on line \(first) too", message: "a type designator listed twice")
                }
                list.append(Entry(designator: designator, name: fields[0], description: fields[1], wakeClass: fields[2]))
            }
        }
        guard !list.isEmpty else { throw LocatedError(.empty, file: path, message: "expected ICAO type designators, found an empty table") }
        self.init(entries: list)
    }

    /// Why an entry is not a type designator's, or nil: a designator is 2–4 letters and digits,
    /// a description three characters (class, engine count, engine type: `L2J`, `H1T`, `B0-`),
    /// a wake class L, M, H, J, L/M or `-`.
    package static func problem(_ designator: String, _ fields: [String]) -> String? {
        guard fields.count == 3 else { return "\(fields.count) values, not 3" }
        guard (2...4).contains(designator.count), designator.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            return "a designator is 2–4 capital letters and digits"
        }
        let d = Array(fields[1])
        guard d.count == 3, d[0].isUppercase || d[0] == "-", d[1].isNumber || d[1] == "C" || d[1] == "-",
              d[2].isUppercase || d[2] == "-" else { return "the description is class, engine count, engine type (L2J)" }
        guard ["L", "M", "H", "J", "L/M", "-"].contains(fields[2]) else { return "the wake class is L, M, H, J, L/M or -" }
        return nil
    }

    /// A key of six hex digits with a registration, a designator and flags: the Mode S table.
    package static func looksLikeModeS(_ key: String, _ fields: [String]) -> Bool {
        ModeSTypeTable.address(key) != nil && (3...4).contains(fields.count)
    }

    /// The entry for a designator, case-insensitive.
    public subscript(designator: String) -> Entry? {
        entries[designator.trimmingSpaces().uppercased()]
    }
}
