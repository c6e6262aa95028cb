import FieldGuideArtifact

// A JSON string: scanned eight bytes at a time to its closing quote (`JSONStringScan`), made
// without validation when it is ASCII, and decoded escape by escape when it has any. Apart from
// `JSONParser.swift` to keep each file to one concern; the parser's cursor (`bytes`, `position`)
// is internal for it.
extension JSONParser {
    mutating func parseString() throws -> String {
        let open = position
        position += 1
        let start = position
        // Scan to the closing quote; most strings have no escapes. Eight bytes at a time while
        // none of them ends the scan, noting on the way whether any is past ASCII.
        let words = JSONStringScan.plainWords(bytes, from: position)
        position = words.end
        var high: UInt8 = words.ascii ? 0 : 0x80  // 0x80 or more once a byte past ASCII is seen
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return try makeString(slice, offset: start, ascii: high < 0x80)
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw controlCharacter() }
            high |= byte
            position += 1
        }
        throw PendingError(kind: .malformed, offset: open, message: "expected a closing '\"' for the string that opens here, found the end of the file")
    }

    private mutating func parseEscapedString(from start: Int) throws -> String {
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try out.withUnsafeBufferPointer { try makeString($0, offset: start, ascii: !$0.contains { $0 >= 0x80 }) }
            case UInt8(ascii: "\\"):
                let escape = position
                position += 1
                guard position < bytes.count else { throw pending(.malformed, "expected an escape after '\\', found the end of the file") }
                let code = bytes[position]
                position += 1
                switch code {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): appendScalar(try parseUnicodeEscape(escapeAt: escape), to: &out)
                default:
                    throw PendingError(kind: .malformed, offset: escape,
                                       message: "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX), found '\\\(Self.printable(code))'")
                }
            default:
                if byte < 0x20 { throw controlCharacter() }
                out.append(byte)
                position += 1
            }
        }
        throw pending(.malformed, "expected a closing '\"', found the end of the file")
    }

    /// Reads the 4 hex digits after `\u` (and a low surrogate's escape after a high one).
    private mutating func parseUnicodeEscape(escapeAt escape: Int) throws -> Unicode.Scalar {
        let first = try hex4(escapeAt: escape)
        if (0xDC00...0xDFFF).contains(first) {
            throw PendingError(kind: .malformed, offset: escape, message: "expected a high surrogate before the low surrogate \\u\(hexString(first))")
        }
        guard (0xD800...0xDBFF).contains(first) else { return Unicode.Scalar(first)! }
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
            throw PendingError(kind: .malformed, offset: escape, message: "expected a low surrogate \\uDC00-\\uDFFF after the high surrogate \\u\(hexString(first))")
        }
        let second = position
        position += 2
        let low = try hex4(escapeAt: second)
        guard (0xDC00...0xDFFF).contains(low) else {
            throw PendingError(kind: .malformed, offset: second, message: "expected a low surrogate \\uDC00-\\uDFFF after the high surrogate \\u\(hexString(first)), found \\u\(hexString(low))")
        }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00))!
    }

    private mutating func hex4(escapeAt escape: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw pending(.malformed, "expected 4 hex digits after \\u, found the end of the file") }
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw PendingError(kind: .malformed, offset: escape, message: "expected 4 hex digits after \\u, found \(describe(at: position))")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    func hexString(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func appendScalar(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(scalar) { out.append($0) }
    }

    /// The string of `slice`; `ascii` says it holds only ASCII (the scan saw no byte past it).
    private func makeString(_ slice: UnsafeBufferPointer<UInt8>, offset: Int, ascii: Bool) throws -> String {
        // ASCII needs no validation (the common case), and up to 15 bytes of it are written
        // straight into an inline string (`ArtifactText`: a key of a seed file, most values);
        // anything else is validated as UTF-8.
        if ascii { return ArtifactText.string(UnsafeRawBufferPointer(slice)) }
        if let string = String(validating: slice, as: UTF8.self) { return string }
        // Find the first bad byte for the message.
        var iterator = slice.makeIterator()
        var decoder = UTF8()
        var consumed = 0
        loop: while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar): consumed += UTF8.width(scalar)
            case .emptyInput, .error: break loop
            }
        }
        throw PendingError(kind: .encoding, offset: offset + consumed, message: "expected UTF-8 text, found an invalid byte sequence")
    }

    private func controlCharacter() -> PendingError {
        PendingError(kind: .malformed, offset: position,
                     message: "expected a printable character or an escape in a string, found the control character U+00\(hexString(UInt32(bytes[position])).suffix(2)) (a raw line break or tab must be written as \\n or \\t)")
    }
}
