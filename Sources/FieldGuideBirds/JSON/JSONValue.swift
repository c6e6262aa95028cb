import FieldGuideDiagnostics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A parsed JSON value together with the byte offset where it starts in its document.
///
/// Objects keep their members in document order, duplicates included, so a validator can
/// report a repeated key instead of silently keeping one.
///
/// ```swift
/// let document = try JSONDocument.parse(Array(#"{"size_category": 2}"#.utf8))
/// document.root["size_category"]?.integer            // 2
/// document.location(of: document.root["size_category"]!) // line 1, column 20
/// ```
public struct JSONValue: Sendable {
    /// The value itself.
    public enum Content: Sendable {
        case null
        case bool(Bool)
        case number(JSONNumber)
        case string(String)
        case array([JSONValue])
        case object([JSONMember])
    }

    public var content: Content
    /// Byte offset of the value's first byte in the document (after any byte order mark is counted).
    public var offset: Int

    public init(_ content: Content, offset: Int) {
        self.content = content
        self.offset = offset
    }

    /// The first member named `key`, if this is an object.
    public subscript(key: String) -> JSONValue? { member(key)?.value }

    /// The first member named `key`, if this is an object.
    ///
    /// Keys of another length are passed over before comparing strings: most members a lookup
    /// meets are not the one it looks for, and `==` on two different strings went through the
    /// standard library's general comparison (callgrind, `birds-bench`: 81 M instructions of
    /// the lookups' 131 M on a world-size seed).
    public func member(_ key: String) -> JSONMember? {
        guard case let .object(members) = content else { return nil }
        let length = key.utf8.count
        return members.first { $0.key.utf8.count == length && $0.key == key }
    }

    public var string: String? { if case let .string(s) = content { s } else { nil } }
    public var number: JSONNumber? { if case let .number(n) = content { n } else { nil } }
    /// The number when it is integral (`2` or `2.0`), else nil.
    public var integer: Int? { number?.integer }
    public var double: Double? { number?.double }
    public var bool: Bool? { if case let .bool(b) = content { b } else { nil } }
    public var array: [JSONValue]? { if case let .array(a) = content { a } else { nil } }
    public var members: [JSONMember]? { if case let .object(m) = content { m } else { nil } }
    public var isNull: Bool { if case .null = content { true } else { false } }

    /// What kind of value this is, in the words an error message uses ("a string", "an array").
    public var kindDescription: String {
        switch content {
        case .null: "null"
        case let .bool(b): b ? "true" : "false"
        case let .number(n): n.integer != nil ? "an integer" : "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` pair of an object.
public struct JSONMember: Sendable {
    public var key: String
    /// Byte offset of the key's opening quote.
    public var keyOffset: Int
    public var value: JSONValue
    // Made only by the parser: the memberwise initializer stays internal on purpose.
}

/// A JSON number: its value as a `Double`, and as an `Int` when it is integral and fits.
public struct JSONNumber: Sendable, Hashable {
    public var double: Double
    public var integer: Int?

    public init(_ double: Double) {
        self.double = double
        self.integer = double.rounded() == double && abs(double) < 9.0e15 ? Int(double) : nil
    }

    public init(integer: Int) {
        self.double = Double(integer)
        self.integer = integer
    }
}

/// A 1-based line and column; the column counts Unicode scalars, as editors show it.
///
/// ```swift
/// SourceLocation(line: 12, column: 5).description   // "12:5"
/// ```
public struct SourceLocation: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// A parsed document: the root value, plus what it takes to turn an offset into line:column
/// and to find the value a JSON pointer names.
///
/// ```swift
/// let document = try JSONDocument.parse(bytes)
/// let size = document.value(at: "/birds/3/size_category")
/// let where = document.location(ofOffset: size!.offset)     // 61:30
/// ```
public struct JSONDocument: Sendable {
    public let root: JSONValue
    /// The document's bytes (a leading byte order mark included, so offsets match the file).
    public let bytes: [UInt8]
    private let lineStarts: [Int]

    init(root: JSONValue, bytes: [UInt8], lineStarts: [Int]) {
        self.root = root
        self.bytes = bytes
        self.lineStarts = lineStarts
    }

    /// Parses UTF-8 bytes (a UTF-8 byte order mark is skipped); `file` names them in errors.
    public static func parse(_ bytes: [UInt8], file: String = "", maxDepth: Int = JSONParser.defaultMaxDepth) throws(LocatedError) -> JSONDocument {
        try JSONParser.parse(bytes, file: file, maxDepth: maxDepth)
    }

    /// The line and column of a byte offset.
    public func location(ofOffset offset: Int) -> SourceLocation {
        LineTable.location(ofOffset: offset, bytes: bytes, lineStarts: lineStarts)
    }

    /// The line and column where `value` starts.
    public func location(of value: JSONValue) -> SourceLocation { location(ofOffset: value.offset) }

    /// The value `pointer` (RFC 6901, e.g. `/birds/0/validMonths/2`) names, or nil.
    public func value(at pointer: String) -> JSONValue? {
        let resolved = deepestValue(at: pointer)
        return resolved.matchedAll ? resolved.value : nil
    }

    /// The value `pointer` names or, when part of it does not exist (a missing key), its
    /// deepest existing ancestor: where a "missing field" finding points.
    public func deepestValue(at pointer: String) -> (value: JSONValue, matchedAll: Bool) {
        var current = root
        for token in JSONPointer.tokens(pointer) {
            switch current.content {
            case let .object(members):
                guard let member = members.first(where: { $0.key == token }) else { return (current, false) }
                current = member.value
            case let .array(items):
                guard let index = Int(token), items.indices.contains(index) else { return (current, false) }
                current = items[index]
            default:
                return (current, false)
            }
        }
        return (current, true)
    }
}

/// RFC 6901 JSON pointers: building and splitting them.
///
/// ```swift
/// JSONPointer.appending("/birds/0", "a/b")   // "/birds/0/a~1b"
/// JSONPointer.tokens("/birds/0/a~1b")        // ["birds", "0", "a/b"]
/// ```
public enum JSONPointer {
    /// `pointer` with one more reference token, escaped.
    public static func appending(_ pointer: String, _ token: String) -> String {
        if !token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
            return joining(pointer, token)
        }
        return pointer + "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `pointer` with an array index appended.
    public static func appending(_ pointer: String, _ index: Int) -> String {
        guard index >= 0 else { return pointer + "/" + String(index) }
        // The digits, written backwards from the end of 24 bytes (an Int has at most 19).
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count, rest = index
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            return joining(pointer, UnsafeRawBufferPointer(rebasing: buffer[at...]))
        }
    }

    /// `pointer`, `/` and `tail` (not escaped) as one string.
    public static func joining(_ pointer: String, _ tail: String) -> String {
        var tail = tail
        return tail.withUTF8 { joining(pointer, UnsafeRawBufferPointer($0)) }
    }

    /// `pointer`, `/` and `tail` (UTF-8) as one string, written at once.
    ///
    /// Why: `pointer + "/" + tail` made the string twice, about 600 instructions a pointer, and
    /// validating a seed makes one for every array element and field a rule may point at
    /// (callgrind, `birds-bench`: 220 M instructions of 2,740 M on a world-size seed).
    private static func joining(_ pointer: String, _ tail: UnsafeRawBufferPointer) -> String {
        var pointer = pointer
        return pointer.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + 1 + tail.count) { out in
                let base = UnsafeMutableRawPointer(out.baseAddress!)
                if head.count > 0 { base.copyMemory(from: head.baseAddress!, byteCount: head.count) }
                base.storeBytes(of: UInt8(ascii: "/"), toByteOffset: head.count, as: UInt8.self)
                if tail.count > 0 { (base + head.count + 1).copyMemory(from: tail.baseAddress!, byteCount: tail.count) }
                return head.count + 1 + tail.count
            }
        }
    }

    /// The unescaped reference tokens of `pointer` (empty for the whole document, `""`).
    public static func tokens(_ pointer: String) -> [String] {
        guard !pointer.isEmpty else { return [] }
        return pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }
}

/// Line starts of a byte buffer, and offset → line:column.
enum LineTable {
    /// Where each line starts: 0, and the byte after every line feed.
    ///
    /// Found with `memchr`: the loop over every byte it replaced was a tenth of a world-size
    /// seed's parse (callgrind, `birds-bench`: 111 M instructions for 18 MB).
    static func lineStarts(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(bytes.count / 24 + 1)
        guard let base = bytes.baseAddress else { return starts }
        var at = 0
        while at < bytes.count, let feed = memchr(base + at, 0x0A, bytes.count - at) {
            at = UnsafeRawPointer(feed) - UnsafeRawPointer(base) + 1
            starts.append(at)
        }
        return starts
    }

    static func location(ofOffset offset: Int, bytes: [UInt8], lineStarts: [Int]) -> SourceLocation {
        // The last line start at or before offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var start = lineStarts[low]
        // A byte order mark is not a column.
        if low == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = min(3, offset) }
        var column = 1
        var i = start
        let end = min(offset, bytes.count)
        while i < end {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return SourceLocation(line: low + 1, column: column)
    }
}
