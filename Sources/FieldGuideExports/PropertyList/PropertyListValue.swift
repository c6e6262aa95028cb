import Foundation

/// A value of an Apple XML property list.
///
/// Dictionaries keep their keys in file order; dates keep their text and parse it as ISO 8601.
///
/// ```swift
/// let value = PropertyListValue.dictionary([("name", .string("Grey Heron")), ("count", .integer(2))])
/// value["name"]?.string        // "Grey Heron"
/// value["COUNT"]?.double       // 2.0 (keys match ignoring case, `_`, `-` and spaces)
/// ```
///
/// Not `indirect`: arrays and dictionaries already hold their elements on the heap, so a
/// scalar value needs no box of its own (one allocation less per value of a large export).
public enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    /// `<date>` as written (`2013-02-22T12:49:10Z`).
    case date(String)
    case data([UInt8])
    case array([PropertyListValue])
    case dictionary([(key: String, value: PropertyListValue)])

    public static func == (a: PropertyListValue, b: PropertyListValue) -> Bool {
        switch (a, b) {
        case let (.string(x), .string(y)), let (.date(x), .date(y)): x == y
        case let (.integer(x), .integer(y)): x == y
        case let (.real(x), .real(y)): x == y
        case let (.boolean(x), .boolean(y)): x == y
        case let (.data(x), .data(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.dictionary(x), .dictionary(y)): x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s), .date(let s): hasher.combine(s)
        case .integer(let n): hasher.combine(n)
        case .real(let d): hasher.combine(d)
        case .boolean(let b): hasher.combine(b)
        case .data(let d): hasher.combine(d)
        case .array(let a): hasher.combine(a)
        case .dictionary(let d): for (k, v) in d { hasher.combine(k); hasher.combine(v) }
        }
    }

    /// `audioFileName`, `audio_file_name` and `Audio File Name` all give `audiofilename`.
    static func folded(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "_" && $0 != " " && $0 != "-" })
    }

    /// A dictionary's value by key, matched ignoring case, `_`, `-` and spaces.
    public subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let entries) = self else { return nil }
        // An ASCII key (every key the app records look up) is folded as it is compared: a
        // record is looked up a score of times, and folding made strings each time.
        if key.utf8.allSatisfy({ $0 < 0x80 }) { return entries.first { Self.matches($0.key, ascii: key) }?.value }
        let wanted = Array(Self.folded(key).utf8)
        return entries.first { Self.matches($0.key, folded: wanted) }?.value
    }

    /// `key` equals the ASCII key `wanted` once both are folded (what `matches(_:folded:)` gives
    /// for `folded(wanted)`), without making either.
    static func matches(_ key: String, ascii wanted: String) -> Bool {
        key.utf8.withContiguousStorageIfAvailable { theirs in
            wanted.utf8.withContiguousStorageIfAvailable { ours in matches(theirs, ascii: ours) }
        }.flatMap { $0 } ?? matches(key, folded: Array(folded(wanted).utf8))
    }

    private static func matches(_ theirs: UnsafeBufferPointer<UInt8>, ascii ours: UnsafeBufferPointer<UInt8>) -> Bool {
        func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "_") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") }
        func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte + 0x20 : byte }
        var i = 0, j = 0
        while true {
            while i < theirs.count, isSeparator(theirs[i]) { i += 1 }
            while j < ours.count, isSeparator(ours[j]) { j += 1 }
            guard i < theirs.count, j < ours.count else { return i == theirs.count && j == ours.count }
            guard lower(theirs[i]) == lower(ours[j]) else { return false }
            i += 1
            j += 1
        }
    }

    /// `key` equals an already folded key, compared without building strings (ASCII folding;
    /// other characters must match exactly).
    static func matches(_ key: String, folded wanted: [UInt8]) -> Bool {
        var i = 0
        for byte in key.utf8 where byte != UInt8(ascii: "_") && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "-") {
            let lower = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
            guard i < wanted.count, wanted[i] == lower else { return false }
            i += 1
        }
        return i == wanted.count
    }

    /// The first of several keys that is present.
    public func first(_ keys: [String]) -> PropertyListValue? {
        for key in keys { if let value = self[key] { return value } }
        return nil
    }

    /// Text of a string or date; numbers and booleans as written in XML.
    public var string: String? {
        switch self {
        case .string(let s), .date(let s): s
        case .integer(let n): String(n)
        case .real(let d): String(d)
        case .boolean(let b): b ? "true" : "false"
        default: nil
        }
    }

    /// A number from `real`, `integer`, or a string holding a decimal number.
    public var double: Double? {
        switch self {
        case .real(let d): d
        case .integer(let n): Double(n)
        case .string(let s): Double(numeral: s.trimmedASCII)
        default: nil
        }
    }

    public var keys: [String] {
        guard case .dictionary(let entries) = self else { return [] }
        return entries.map(\.key)
    }
}
