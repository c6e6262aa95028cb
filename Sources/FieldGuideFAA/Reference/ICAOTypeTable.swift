import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// ICAO aircraft type designators: designator → name, description and wake class.
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
        public var designator: String
        public var name: String
        public var description: String
        public var wakeClass: String

        public init(designator: String, name: String, description: String, wakeClass: String) {
            self.designator = designator
            self.name = name
            self.description = description
            self.wakeClass = wakeClass
        }
    }

    private let entries: [String: Entry]
    public var count: Int { entries.count }

    public init(entries: [Entry]) {
        self.entries = Dictionary(entries.map { ($0.designator.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
    }

    public init(path: String) throws(LocatedError) {
        let raw: [String: [String]]
        do { raw = try JSON.decode([String: [String]].self, fromFileAt: path, as: "the ICAO type table") } catch {
            // The file is there (a missing one is an I/O error); its content is not the table.
            guard !error.kind.isUsageOrIO else { throw error }
            var refused = error.reclassified(as: .malformed)
            refused.expected = #"{"B738": [name, description, wake class]}"#
            throw refused
        }
        var list: [Entry] = []
        for designator in raw.keys.sorted() {
            let fields = raw[designator]!
            if let problem = Self.problem(designator, fields) {
                // Another table (the Mode S one) is the wrong kind of file; anything else is not a table this reader knows.
                throw Self.looksLikeModeS(raw)
                    ? LocatedError(.wrongKind, file: path, message: "expected ICAO type designators, found a Mode S address table (\(designator) → \(fields)); pass it as the Mode S table, not --icao-types")
                    : LocatedError(.unrecognized, file: path, message: "expected ICAO type designators {\"B738\": [name, description, wake class]}, found \(designator) → \(fields): \(problem)")
            }
            list.append(Entry(designator: designator, name: fields[0], description: fields[1], wakeClass: fields[2]))
        }
        guard !list.isEmpty else { throw LocatedError(.empty, file: path, message: "expected ICAO type designators, found an empty table") }
        self.init(entries: list)
    }

    /// Why an entry is not a type designator's, or nil: a designator is 2–4 letters and digits,
    /// a description three characters (class, engine count, engine type: `L2J`, `H1T`, `B0-`),
    /// a wake class L, M, H, J, L/M or `-`.
    static func problem(_ designator: String, _ fields: [String]) -> String? {
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

    /// Most keys are 24-bit hex addresses: the Mode S registrations table.
    static func looksLikeModeS(_ raw: [String: [String]]) -> Bool {
        let hex = raw.keys.prefix(100).filter { $0.count == 6 && $0.allSatisfy(\.isHexDigit) }.count
        return hex * 2 > min(raw.count, 100)
    }

    /// The entry for a designator, case-insensitive.
    public subscript(designator: String) -> Entry? {
        entries[designator.trimmedASCII.uppercased()]
    }
}
