import FieldGuideDiagnostics

/// A streaming reader for one JSON shape: an object whose values are arrays of strings,
/// `{"A1B2C3": ["N250JT", "C25A", "00"], …}` (the Mictronics tables). It reads the 14 MB Mode S
/// table in a fraction of a second, where decoding it into a dictionary took seconds, and says
/// where the file leaves the shape: `file:line:column`, what was expected, what was found.
///
/// Bounds: keys and strings of at most `maximumString` bytes, at most `maximumValues` strings
/// per array (checked as they are read).
///
/// ```swift
/// try StringTableJSON.read(bytes, file: "modes.json", what: "Mode S addresses") { key, values, line, column in … }
/// ```
package enum StringTableJSON {
    package static let maximumString = 1024
    package static let maximumValues = 64

    /// Calls `entry` with every key, its strings and the key's line and column, in file order.
    package static func read(_ bytes: UnsafeRawBufferPointer, file: String, what: String,
                             _ entry: (String, [String], Int, Int) throws(LocatedError) -> Void) throws(LocatedError) {
        var scanner = Scanner(bytes: bytes, file: file, what: what)
        scanner.skipSpace()
        try scanner.expect(UInt8(ascii: "{"), "an object {\"key\": [strings]} of \(what)")
        scanner.skipSpace()
        if scanner.peek == UInt8(ascii: "}") {
            scanner.index += 1
        } else {
            while true {
                let (line, column) = scanner.position
                let key = try scanner.string("a quoted key")
                scanner.skipSpace()
                try scanner.expect(UInt8(ascii: ":"), "':' after the key \(key)")
                scanner.skipSpace()
                let values = try scanner.stringArray(key: key)
                try entry(key, values, line, column)
                scanner.skipSpace()
                if scanner.peek == UInt8(ascii: ",") {
                    scanner.index += 1
                    scanner.skipSpace()
                    continue
                }
                try scanner.expect(UInt8(ascii: "}"), "',' or '}' after the entry \(key)")
                break
            }
        }
        scanner.skipSpace()
        guard scanner.index == bytes.count else { throw scanner.error("the end of the file after the object", found: scanner.describeNext()) }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        let file: String
        let what: String
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// The line and the offset of its first byte, counted as white space is skipped (a
        /// line feed can only be white space: strings refuse control characters).
        var line = 1
        var lineStart = 0

        /// The 1-based line and column of `index`.
        var position: (line: Int, column: Int) { (line, index - lineStart + 1) }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
                if byte == 0x0A {
                    line += 1
                    lineStart = index
                }
            }
        }

        mutating func expect(_ byte: UInt8, _ expected: String) throws(LocatedError) {
            guard peek == byte else { throw error(expected, found: describeNext()) }
            index += 1
        }

        func describeNext() -> String {
            guard let byte = peek else { return "the end of the file" }
            switch byte {
            case UInt8(ascii: "\""): return "a string"
            case UInt8(ascii: "["): return "an array"
            case UInt8(ascii: "{"): return "an object"
            case UInt8(ascii: "-"), 0x30...0x39: return "a number"
            case UInt8(ascii: "t"), UInt8(ascii: "f"): return "true or false"
            case UInt8(ascii: "n"): return "null"
            default:
                let end = min(bytes.count, index + 20)
                return "\"" + String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self) + "\""
            }
        }

        func error(_ expected: String, found: String, field: String? = nil) -> LocatedError {
            let (line, column) = position
            return LocatedError(.malformed, file: file, line: line, column: column, field: field, expected: expected, found: found,
                                message: "not a table of \(what)")
        }

        mutating func stringArray(key: String) throws(LocatedError) -> [String] {
            guard peek == UInt8(ascii: "[") else {
                throw error("an array of strings", found: describeNext(), field: key).reclassified(as: .wrongKind)
            }
            index += 1
            var values: [String] = []
            skipSpace()
            if peek == UInt8(ascii: "]") {
                index += 1
                return values
            }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else {
                    throw error("an array of strings", found: describeNext(), field: key).reclassified(as: .wrongKind)
                }
                values.append(try string("a string"))
                guard values.count <= StringTableJSON.maximumValues else {
                    throw error("at most \(StringTableJSON.maximumValues) strings", found: "more", field: key).reclassified(as: .tooLarge)
                }
                skipSpace()
                if peek == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"), "',' or ']' in the array of \(key)")
                return values
            }
        }

        /// A JSON string (escapes decoded; `\u` escapes included, surrogate pairs joined).
        mutating func string(_ expected: String) throws(LocatedError) -> String {
            guard peek == UInt8(ascii: "\"") else { throw error(expected, found: describeNext()) }
            index += 1
            let start = index
            // The common case: no escape, plain bytes up to the closing quote.
            while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { index += 1 }
            if peek == UInt8(ascii: "\"") {
                guard index - start <= StringTableJSON.maximumString else { throw error("a string of at most \(StringTableJSON.maximumString) bytes", found: "\(index - start) bytes").reclassified(as: .tooLarge) }
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self).unicodeScalars)
            var utf8: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll()
            }
            while true {
                guard let byte = peek else { throw error("a closing quote", found: "the end of the file") }
                guard byte >= 0x20 else { throw error("a string without control characters", found: "byte \(byte)") }
                index += 1
                if byte == UInt8(ascii: "\"") { break }
                if byte != UInt8(ascii: "\\") {
                    utf8.append(byte)
                } else {
                    flush()
                    scalars.append(try escape())
                }
                guard index - start <= StringTableJSON.maximumString else { throw error("a string of at most \(StringTableJSON.maximumString) bytes", found: "a longer one").reclassified(as: .tooLarge) }
            }
            flush()
            return String(scalars)
        }

        /// The character after a backslash (the backslash read).
        mutating func escape() throws(LocatedError) -> Unicode.Scalar {
            guard let byte = peek else { throw error("an escape", found: "the end of the file") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let high = try hex4()
                if (0xD800..<0xDC00).contains(high), peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low), let scalar = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00)) { return scalar }
                }
                return Unicode.Scalar(high) ?? "\u{FFFD}"
            default:
                index -= 1
                throw error("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", found: describeNext())
            }
        }

        mutating func hex4() throws(LocatedError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = peek, let digit = hexValue(byte) else { throw error("four hex digits after \\u", found: describeNext()) }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }

    /// A hex digit's value.
    package static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }
}
