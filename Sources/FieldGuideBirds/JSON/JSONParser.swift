import FieldGuideArtifact
import FieldGuideCSV
import FieldGuideDiagnostics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A recursive-descent JSON parser over UTF-8 bytes that records where every value starts.
///
/// ```swift
/// let document = try JSONParser.parse(Array(#"{"a": [1, 2.5, "x"]}"#.utf8))
/// document.root["a"]?.array?.count   // 3
/// ```
public struct JSONParser {
    /// Nesting deeper than this is refused (a stack guard, far beyond any seed file).
    public static let defaultMaxDepth = 256

    let bytes: UnsafeBufferPointer<UInt8>
    private let allBytes: [UInt8]
    /// The document's name in errors (may be empty).
    private let file: String
    var position: Int
    private let maxDepth: Int
    private var depth = 0
    /// Where the open objects' members and the open arrays' elements are gathered.
    private let members = JSONItemStack<JSONMember>(), elements = JSONItemStack<JSONValue>()

    private init(bytes: UnsafeBufferPointer<UInt8>, allBytes: [UInt8], file: String, start: Int, maxDepth: Int) {
        self.bytes = bytes
        self.allBytes = allBytes
        self.file = file
        self.position = start
        self.maxDepth = maxDepth
    }

    /// Parses a whole document. A UTF-8 byte order mark is skipped; a UTF-16 one is refused
    /// as such (`FileText.utf16Error`), not as a first byte that is no value.
    ///
    /// Errors are ``LocatedError``s at the exact line and column (`file` names the document;
    /// empty, the error reads `1:4: …`): `.malformed` for broken syntax, `.encoding` for bytes
    /// that are not UTF-8, `.tooLarge` for nesting deeper than `maxDepth`.
    public static func parse(_ input: [UInt8], file: String = "", maxDepth: Int = defaultMaxDepth) throws(LocatedError) -> JSONDocument {
        if let mark = FileText.utf16ByteOrderMark(input) { throw FileText.utf16Error(file: file, mark: mark) }
        // A trailing NUL lets strtod stop at the end of a number that ends the buffer.
        var padded = input
        padded.append(0)
        let start = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let result: Result<(JSONValue, [Int]), LocatedError> = padded.withUnsafeBufferPointer { whole in
            let buffer = UnsafeBufferPointer(rebasing: whole[0..<input.count])
            let lineStarts = LineTable.lineStarts(buffer)
            var parser = JSONParser(bytes: buffer, allBytes: input, file: file, start: start, maxDepth: maxDepth)
            do {
                parser.skipWhitespace()
                let root = try parser.parseValue()
                parser.skipWhitespace()
                if parser.position < buffer.count {
                    throw parser.error(.malformed, "expected the end of the document after the top-level value, found \(parser.describeCurrent())",
                                       lineStarts: lineStarts)
                }
                return .success((root, lineStarts))
            } catch let error as LocatedError {
                return .failure(error)
            } catch let pending as PendingError {
                return .failure(parser.error(pending.kind, pending.message, at: pending.offset, lineStarts: lineStarts))
            } catch {
                // Unreachable: the parser throws only its own errors.
                return .failure(parser.error(.malformed, "the parser stopped here", lineStarts: lineStarts))
            }
        }
        switch result {
        case let .success((root, lineStarts)): return JSONDocument(root: root, bytes: input, lineStarts: lineStarts)
        case let .failure(error): throw error
        }
    }

    // MARK: Values

    private mutating func parseValue() throws -> JSONValue {
        guard position < bytes.count else { throw pending(.malformed, "expected a value, found the end of the file") }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "{"): return JSONValue(.object(try parseObject()), offset: start)
        case UInt8(ascii: "["): return JSONValue(.array(try parseArray()), offset: start)
        case UInt8(ascii: "\""): return JSONValue(.string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONValue(.bool(true), offset: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONValue(.bool(false), offset: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONValue(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONValue(.number(try parseNumber()), offset: start)
        default: throw pending(.malformed, "expected a value, found \(describeCurrent())")
        }
    }

    private mutating func parseObject() throws -> [JSONMember] {
        try items(closedBy: "}", on: members) { parser in
            try parser.expect("\"", "a key in double quotes", atEnd: "a key or '}'")
            let keyOffset = parser.position
            let key = try parser.parseString()
            parser.skipWhitespace()
            try parser.expect(":", "':' after the key \"\(key)\"")
            parser.position += 1
            parser.skipWhitespace()
            let value = try parser.parseValue()
            parser.skipWhitespace()
            let closed = try parser.closes("}", next: "a key", after: "after the value of \"\(key)\"")
            return (JSONMember(key: key, keyOffset: keyOffset, value: value), closed)
        }
    }

    private mutating func parseArray() throws -> [JSONValue] {
        try items(closedBy: "]", on: elements) { parser in
            let value = try parser.parseValue()
            parser.skipWhitespace()
            return (value, try parser.closes("]", next: "a value", after: "after an array element", atEnd: "in an array"))
        }
    }

    /// The members of an object or the elements of an array, from its opening bracket to `close`:
    /// `item` reads one (whitespace before it skipped) and says whether `close` followed it.
    /// They are gathered on `stack` (`JSONItemStack`) and leave it as one array.
    private mutating func items<Item>(closedBy close: Unicode.Scalar, on stack: JSONItemStack<Item>,
                                      _ item: (inout JSONParser) throws -> (Item, closed: Bool)) throws -> [Item] {
        let empty = try opens(close)
        defer { depth -= 1 }
        if empty { return [] }
        let start = stack.count
        while true {
            skipWhitespace()
            let (value, closed) = try item(&self)
            stack.push(value)
            if closed { return stack.pop(from: start) }
        }
    }

    /// Requires `byte` at the current position (not consumed): otherwise `expected WHAT, found …`,
    /// with `atEnd` in place of `what` at the end of the file.
    private func expect(_ byte: Unicode.Scalar, _ what: @autoclosure () -> String, atEnd: String? = nil) throws {
        guard position < bytes.count else { throw pending(.malformed, "expected \(atEnd ?? what()), found the end of the file") }
        guard bytes[position] == UInt8(ascii: byte) else { throw pending(.malformed, "expected \(what()), found \(describeCurrent())") }
    }

    /// Steps into an object or array at its opening bracket (one level deeper: the caller steps
    /// out); true when `close` follows at once (`{}`, `[]`, consumed).
    private mutating func opens(_ close: Unicode.Scalar) throws -> Bool {
        try enter()
        position += 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: close) else { return false }
        position += 1
        return true
    }

    /// What follows a member or an element: `,` (consumed; a trailing comma before `close` is
    /// an error) gives false, `close` (consumed) gives true, anything else is an error. The
    /// messages say what was expected `after` the item (or, at the end of the file, `atEnd`).
    private mutating func closes(_ close: Unicode.Scalar, next: String, after: @autoclosure () -> String,
                                 atEnd: @autoclosure () -> String? = nil) throws -> Bool {
        let closeByte = UInt8(ascii: close)
        guard position < bytes.count else {
            throw pending(.malformed, "expected ',' or '\(close)' \(atEnd() ?? after()), found the end of the file")
        }
        switch bytes[position] {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == closeByte {
                throw pending(.malformed, "expected \(next) after ',', found '\(close)' (a trailing comma)")
            }
            return false
        case closeByte:
            position += 1
            return true
        default:
            throw pending(.malformed, "expected ',' or '\(close)' \(after()), found \(describeCurrent())")
        }
    }

    private mutating func enter() throws {
        depth += 1
        if depth > maxDepth { throw pending(.tooLarge, "nesting deeper than \(maxDepth) levels") }
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for i in 0..<count {
            guard position + i < bytes.count, bytes[position + i] == expected[i] else {
                let found = position + i < bytes.count ? describe(at: position + i) : "the end of the file"
                throw PendingError(kind: .malformed, offset: position + i,
                                   message: "expected '\(word)', found \(found)")
            }
        }
        position += count
    }

    // MARK: Numbers

    private mutating func parseNumber() throws -> JSONNumber {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw pending(.malformed, "expected a digit in the number, found \(describeCurrentOrEnd())")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw pending(.malformed, "expected no leading zero in a number, found another digit after '0'")
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw pending(.malformed, "expected a digit after the decimal point, found \(describeCurrentOrEnd())")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw pending(.malformed, "expected a digit in the exponent, found \(describeCurrentOrEnd())")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let length = position - start
        if isInteger, length <= 18 {
            var value = 0
            var i = start
            let negative = bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            while i < position {
                value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                i += 1
            }
            return JSONNumber(integer: negative ? -value : value)
        }
        // The byte after the number is not part of it (or is the NUL pad): strtod stops there.
        let pointer = UnsafeRawPointer(bytes.baseAddress! + start).assumingMemoryBound(to: CChar.self)
        return JSONNumber(strtod(pointer, nil))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: Whitespace and errors

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    func pending(_ kind: LocatedError.Kind, _ message: String) -> PendingError {
        PendingError(kind: kind, offset: position, message: message)
    }

    private func error(_ kind: LocatedError.Kind, _ message: String, at offset: Int? = nil, lineStarts: [Int]) -> LocatedError {
        let location = LineTable.location(ofOffset: offset ?? position, bytes: allBytes, lineStarts: lineStarts)
        return LocatedError(kind, file: file, line: location.line, column: location.column, message: message)
    }

    private func describeCurrent() -> String { describe(at: position) }

    private func describeCurrentOrEnd() -> String {
        position < bytes.count ? describe(at: position) : "the end of the file"
    }

    func describe(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Self.printable(byte))'" }
        if byte >= 0x80 {
            // Name the whole character when it decodes.
            var iterator = UnsafeBufferPointer(rebasing: bytes[offset..<min(offset + 4, bytes.count)]).makeIterator()
            var decoder = UTF8()
            if case let .scalarValue(scalar) = decoder.decode(&iterator) { return "'\(Character(scalar))'" }
            return "the byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
        return "the control character U+00\(hexString(UInt32(byte)).suffix(2))"
    }

    static func printable(_ byte: UInt8) -> String { String(UnicodeScalar(byte)) }
}

/// An error found mid-parse; its line and column are computed once, at the top.
struct PendingError: Error {
    var kind: LocatedError.Kind
    var offset: Int
    var message: String
}
