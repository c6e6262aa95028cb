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
        for (designator, fields) in raw {
            guard fields.count >= 3 else {
                throw LocatedError(.malformed, file: path, message: "\(designator): expected [name, description, wake class], found \(fields.count) values")
            }
            list.append(Entry(designator: designator, name: fields[0], description: fields[1], wakeClass: fields[2]))
        }
        self.init(entries: list)
    }

    /// The entry for a designator, case-insensitive.
    public subscript(designator: String) -> Entry? {
        entries[designator.trimmedASCII.uppercased()]
    }
}
