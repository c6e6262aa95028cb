import BenchSupport
import FieldGuide
import Foundation

/// The keys the benchmark looks up, taken from the FAA files the artifact was built from.
///
/// The artifact has no enumeration API (apps look things up), so N-numbers and Mode S
/// addresses come from MASTER.txt, model codes and manufacturer names from ACFTREF.txt, and
/// engine codes from ENGINE.txt. Only the leading fields of each line are read, by position
/// among the commas: enough for a benchmark, not an FAA parser.
struct LookupKeys {
    /// `N12345` for every MASTER row.
    var registrations: [String] = []
    /// MODE S CODE HEX (`A63796`) for every MASTER row that has one.
    var modeSHex: [String] = []
    /// Every ACFTREF code.
    var modelCodes: [String] = []
    /// The first four letters of ACFTREF manufacturer names that start with four letters.
    var manufacturerPrefixes: [String] = []
    /// Every ENGINE code.
    var engineCodes: [String] = []
    /// Owner name, state and serial number of every MASTER row (for registry searches).
    var owners: [(name: String, state: String, serial: String)] = []
    /// Every ACFTREF model name.
    var modelNames: [String] = []

    /// Reads MASTER at `master`; ACFTREF and ENGINE at the given paths, or when nil beside MASTER.
    init(master: String, aircraftReference: String?, engine: String?) throws {
        let directory = (master as NSString).deletingLastPathComponent
        try Self.forEachLine(of: master) { fields in
            guard fields.count > 33 else { return }
            let mark = Self.trimmed(fields[0])
            if !mark.isEmpty { registrations.append("N" + mark) }
            let hex = Self.trimmed(fields[33])
            if !hex.isEmpty { modeSHex.append(hex) }
            owners.append((Self.trimmed(fields[6]), Self.trimmed(fields[10]), Self.trimmed(fields[1])))
        }
        try Self.forEachLine(of: aircraftReference ?? (directory as NSString).appendingPathComponent("ACFTREF.txt")) { fields in
            guard fields.count > 2 else { return }
            modelCodes.append(Self.trimmed(fields[0]))
            modelNames.append(Self.trimmed(fields[2]))
            let name = fields[1].prefix(4)
            if name.count == 4, name.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) {
                manufacturerPrefixes.append(String(decoding: name, as: UTF8.self))
            }
        }
        try Self.forEachLine(of: engine ?? (directory as NSString).appendingPathComponent("ENGINE.txt")) { fields in
            if let code = fields.first.map(Self.trimmed), !code.isEmpty { engineCodes.append(code) }
        }
    }

    /// A field of a line: a slice of the file's bytes.
    typealias Field = Slice<UnsafeRawBufferPointer>

    /// Calls `body` with the comma-separated fields of every line after the header.
    private static func forEachLine(of path: String, _ body: ([Field]) -> Void) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("cannot read \(path) (pass its path, or generate the data with generate-faa-data)")
        }
        data.withUnsafeBytes { bytes in
            var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var isHeader = true
            var fields: [Field] = []
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
                var contentEnd = lineEnd
                if contentEnd > lineStart && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                if !isHeader && contentEnd > lineStart {
                    fields.removeAll(keepingCapacity: true)
                    var fieldStart = lineStart
                    for i in lineStart..<contentEnd where bytes[i] == 0x2C {
                        fields.append(bytes[fieldStart..<i])
                        fieldStart = i + 1
                    }
                    fields.append(bytes[fieldStart..<contentEnd])
                    body(fields)
                }
                isHeader = false
                lineStart = lineEnd + 1
            }
        }
    }

    /// A field without its space padding.
    private static func trimmed(_ field: Field) -> String {
        var start = field.startIndex, end = field.endIndex
        while start < end && field[start] == 0x20 { start += 1 }
        while end > start && field[end - 1] == 0x20 { end -= 1 }
        return String(decoding: field[start..<end], as: UTF8.self)
    }

    /// `count` keys drawn uniformly (with repetition) from `keys`, in random order.
    static func sample(_ keys: [String], count: Int, _ rng: inout SplitMix64) -> [String] {
        keys.isEmpty ? [] : (0..<count).map { _ in rng.pick(keys) }
    }
}

/// Why the benchmark could not run.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
