import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// Mode S (ICAO 24-bit) addresses → ICAO type designators, from the Mictronics table
/// `{"A1B2C3": ["N250JT", "C25A", "00"], …}` (registration, type designator, flags; a fourth
/// value is allowed). Addresses with an empty designator are read and not kept; an address
/// given twice (`A1B2C3` and `a1b2c3` too) is refused at its second entry.
///
/// The crosswalk of the manufacturer index comes from it: a registration in MASTER has a model
/// code and a Mode S address; the address's designator here names the model's ICAO type.
///
/// Bounds: a file of at most `maximumFileSize` bytes (checked before it is read), at most
/// 65,535 distinct designators.
///
/// ```swift
/// let modes = try ModeSTypeTable(path: "../shared/data/aircraft/modes-registrations.json")
/// modes.designator(address: 0xA1B2C3)   // "C25A"
/// ```
public struct ModeSTypeTable: Sendable {
    public static let maximumFileSize = 256 << 20

    /// The file as a manifest source: size, SHA-256, entries read and kept (with a designator).
    public let source: StageReport.Source
    /// The distinct designators, in order of first appearance.
    private let designators: [String]
    /// Each address's designator by its index in `designators`, or `noDesignator`: an address
    /// without one is kept too, so that one given twice is found with a single lookup.
    private let addresses: [UInt32: UInt16]
    private static let noDesignator = UInt16.max   // designators stop below it
    /// The addresses with a designator.
    public let count: Int

    /// Reads the table at `path`; a file of another shape is a located error naming what it holds.
    public init(path: String) throws(LocatedError) {
        let data = try Self.contents(of: path, what: "a Mode S table")
        var read = 0
        var designatorIndex: [String: UInt16] = [:]
        var designators: [String] = [], addresses: [UInt32: UInt16] = [:], unlisted = 0
        try Self.withBytes(data) { (bytes: UnsafeRawBufferPointer) throws(LocatedError) in
            try StringTableJSON.read(bytes, file: path, what: "Mode S addresses") { (key, values, line, column) throws(LocatedError) in
                read += 1
                guard let address = Self.address(key), values.count >= 2, values.count <= 4, Self.isDesignator(values[1]) else {
                    throw Self.wrongShape(key, values, file: path, line: line, column: column)
                }
                let designator = values[1]
                var index = designator.isEmpty ? Self.noDesignator : designatorIndex[designator]
                if index == nil {
                    guard designators.count < Int(UInt16.max) else {
                        throw LocatedError(.tooLarge, file: path, line: line, column: column, message: "more than 65,535 distinct type designators")
                    }
                    index = UInt16(designators.count)
                    designatorIndex[designator] = index
                    designators.append(designator)
                }
                guard addresses.updateValue(index!, forKey: address) == nil else { throw Self.listedTwice(key, file: path, line: line, column: column) }
                if index == Self.noDesignator { unlisted += 1 }
            }
        }
        guard read > 0 else {
            throw LocatedError(.empty, file: path, expected: #"{"A1B2C3": [registration, type designator, flags]}"#, found: "an empty table",
                               message: "no Mode S addresses")
        }
        self.designators = designators
        self.addresses = addresses
        count = addresses.count - unlisted
        source = StageReport.Source(file: (path as NSString).lastPathComponent, bytes: data.count, sha256: data.withUnsafeBytes { FileDigest.sha256($0) },
                                 rows: .init(read: read, kept: count))
    }

    /// The designator of the aircraft with this address, if the table names one.
    public func designator(address: UInt32) -> String? {
        addresses[address].flatMap { $0 == Self.noDesignator ? nil : designators[Int($0)] }
    }

    /// The bytes of a table file, its size checked first (`what` names the table in the refusal).
    static func contents(of path: String, what: String) throws(LocatedError) -> Data {
        try BoundedRead.data(atPath: path, limit: maximumFileSize, what: what)
    }

    /// `body` over the bytes of `data` (its only error is `body`'s).
    static func withBytes(_ data: Data, _ body: (UnsafeRawBufferPointer) throws(LocatedError) -> Void) throws(LocatedError) {
        var failure: LocatedError?
        data.withUnsafeBytes { bytes in
            do throws(LocatedError) { try body(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Six hex digits as an address.
    static func address(_ key: String) -> UInt32? {
        guard key.utf8.count == 6 else { return nil }
        var value: UInt32 = 0
        for byte in key.utf8 {
            guard let digit = StringTableJSON.hexValue(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// Empty, or 2–4 capital letters and digits.
    static func isDesignator(_ text: String) -> Bool {
        text.isEmpty || ((2...4).contains(text.utf8.count) && text.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) })
    }

    /// An address given twice (either case): which of its designators is meant is not known.
    static func listedTwice(_ key: String, file: String, line: Int, column: Int) -> LocatedError {
        LocatedError(.invalidValue, file: file, line: line, column: column, expected: "each address once",
                     found: "\(key) listed before", message: "a Mode S address listed twice")
    }

    /// An entry that is not an address's: the ICAO type table passed by mistake, or an unknown shape.
    static func wrongShape(_ key: String, _ values: [String], file: String, line: Int, column: Int) -> LocatedError {
        let expected = #"Mode S addresses {"A1B2C3": [registration, type designator, flags]}"#
        let found = "\(key) → \(values)"
        if ICAOTypeTable.problem(key, values) == nil {
            return LocatedError(.wrongKind, file: file, line: line, column: column, expected: expected,
                                found: "an ICAO type designator table (\(found))", message: "not a Mode S table; pass it as the ICAO type table (--icao-types)")
        }
        let problem = address(key) == nil ? "a key is six hex digits"
            : values.count < 2 || values.count > 4 ? "\(values.count) values, not 3" : "the second value is a type designator (2–4 capital letters and digits)"
        return LocatedError(.unrecognized, file: file, line: line, column: column, expected: expected, found: found,
                            message: "not a Mode S table: \(problem)")
    }
}
