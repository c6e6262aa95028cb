import FieldGuideXML
import Foundation
import FieldGuideDiagnostics

/// Streams an Apple XML property list and turns its app records into observations (a binary
/// one, `bplist00`, is read by ``BinaryPropertyList`` into the same values).
///
/// When the top-level value is an array, its elements are built and handed on one at a time,
/// so a large export stays flat in memory; a top-level dictionary is one record. Each record
/// is matched by `AppRecord` (birdcall recording, nature-dex observation, aircraft capture, Day
/// One journal entry); values that are none of these are counted as skipped, never an error.
///
/// ```swift
/// try PropertyListReader.values(path: "every-type.plist") { value, line in print(line, value) }
/// ```
public enum PropertyListReader {
    /// Streams the records of a plist file (elements of a top-level array, or the top-level
    /// value itself) with the line each starts on.
    public static func values(path: String, displayName: String? = nil, _ body: (PropertyListValue, Int) -> Void) throws(LocatedError) {
        let file = displayName ?? path
        if try ExportFileReader.sniff(path: path, file: file) == .binaryPropertyList {
            return try BinaryPropertyList.values(path: path, displayName: file, body)
        }
        let reader: XMLStreamReader
        do { reader = try XMLStreamReader(path: path, displayName: file) } catch { throw classifiedXMLError(error) }
        var xml = XMLCursor(reader: reader)
        while let event = try xml.next() {
            guard case let .start(name, _, line) = event else { continue }
            guard name == "plist" else { throw LocatedError(.unrecognized, file: file, line: line, message: "expected <plist>, found <\(name)>") }
            try stream(&xml, file: file, body)
            return
        }
    }

    static func read(_ xml: inout XMLCursor, file: String, sink: RecordSink) throws(LocatedError) -> ExportFileSummary {
        try records(file: file, sink: sink) { body throws(LocatedError) in try stream(&xml, file: file, body) }
    }

    /// The app records among the values `stream` hands on (XML or binary), to `sink`; the
    /// other values counted as skipped.
    static func records(file: String, sink: RecordSink,
                        _ stream: ((PropertyListValue, Int) -> Void) throws(LocatedError) -> Void) throws(LocatedError) -> ExportFileSummary {
        var summary = ExportFileSummary(format: .plist)
        var keys = FoldedKeys.Cache()
        try stream { value, line in
            let isRecord = AppRecord.observation(value, file: file, line: line, keys: &keys, observe: { observation in
                summary.records += 1
                sink.observe(observation)
            }, reject: { problem in
                summary.records += 1
                sink.reject(file: file, line: line, problem)
            })
            if !isRecord { summary.skipped[ExportFileSummary.nonRecordValues, default: 0] += 1 }
        }
        return summary
    }

    /// One container being built.
    private struct Frame {
        var isDictionary: Bool
        var line: Int
        var items: [PropertyListValue] = []
        var entries: [(key: String, value: PropertyListValue)] = []
        var pendingKey: String?

        /// A dictionary waiting for its next `<key>`. Tested in place (`stack[i].awaitsKey`): a
        /// copy of the frame (`stack.last`) retained and released its arrays and key per element.
        var awaitsKey: Bool { isDictionary && pendingKey == nil }
    }

    /// The strings of a dictionary's keys by position, kept across dictionaries: the records of an
    /// export repeat their keys in one order, so a key's bytes equal to the last at its position
    /// give that string again, no new `String` decoded and checked (eight a record).
    struct KeyStrings {
        private var known: [(bytes: [UInt8], string: String)] = []

        mutating func string(_ text: TextBytes, at position: Int) -> String {
            let same = position < known.count && text.withBytes { bytes in
                known[position].bytes.withUnsafeBufferPointer { $0.count == bytes.count && (bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0) }
            }
            if same { return known[position].string }
            let made = text.string
            if position < known.count {
                known[position] = (text.withBytes { Array($0) }, made)
            } else if position == known.count, position < FoldedKeys.Cache.positions {
                known.append((text.withBytes { Array($0) }, made))
            }
            return made
        }
    }

    /// `key`, the scalar values, `true` and `false`: the elements read as text. An enumeration,
    /// not the name as a string, as each value of a large file is dispatched on it.
    enum Scalar: String, CaseIterable {
        case key, string, integer, real, date, data, `true`, `false`
    }

    /// The elements of a property list, in the reader's dictionary (compared as addresses).
    private struct Names {
        let dict, array: XMLName
        /// Each ``Scalar``'s element name.
        let scalars: [(name: XMLName, scalar: Scalar)]

        init(_ reader: XMLStreamReader) {
            (dict, array) = (reader.intern("dict"), reader.intern("array"))
            scalars = Scalar.allCases.map { (reader.intern($0.rawValue), $0) }
        }

        /// The scalar the element is, if it is one.
        func scalar(_ name: XMLName) -> Scalar? {
            for scalar in scalars where scalar.name == name { return scalar.scalar }
            return nil
        }
    }

    /// Reads the content of `<plist>` (already opened), calling `body` per record.
    static func stream(_ xml: inout XMLCursor, file: String, _ body: (PropertyListValue, Int) -> Void) throws(LocatedError) {
        let plistDepth = xml.depth
        let names = Names(xml.reader)
        var stack: [Frame] = []
        var scalar: (name: Scalar, line: Int)?
        var text = TextBytes()
        var keyStrings = KeyStrings()
        var topIsArray = false
        var sawRoot = false

        func malformed(_ line: Int, _ message: String) -> LocatedError {
            LocatedError(.malformed, file: file, line: line, message: message)
        }

        /// Places a finished value in its parent (or hands it on as a record).
        func place(_ value: PropertyListValue, line: Int) throws(LocatedError) {
            if stack.isEmpty {
                guard !sawRoot else { throw malformed(line, "a property list holds one top-level value; found a second") }
                sawRoot = true
                body(value, line)
            } else if topIsArray && stack.count == 1 {
                body(value, line)   // a record of the top-level array: handed on, not kept
            } else if stack[stack.count - 1].isDictionary {
                // Taken, not copied: the key moves into the entry without a retain and release.
                guard let key = stack[stack.count - 1].pendingKey.take() else { throw malformed(line, "expected <key> before a value in <dict>") }
                stack[stack.count - 1].entries.append((key, value))
            } else {
                stack[stack.count - 1].items.append(value)
            }
        }

        while let node = try xml.read() {
            switch node {
            case .start:
                let name = xml.reader.name
                guard scalar == nil else { throw malformed(xml.reader.line, "<\(xml.reader.nameString)> inside <\(scalar!.name.rawValue)>") }
                if name == names.dict || name == names.array {
                    let isDictionary = name == names.dict
                    if stack.isEmpty && !sawRoot && !isDictionary { topIsArray = true }
                    if !stack.isEmpty, stack[stack.count - 1].awaitsKey {
                        throw malformed(xml.reader.line, "expected <key> before <\(xml.reader.nameString)> in <dict>")
                    }
                    var frame = Frame(isDictionary: isDictionary, line: xml.reader.line)
                    if isDictionary { frame.entries.reserveCapacity(8) }   // an app record's keys: one allocation, not four
                    stack.append(frame)
                } else if let scalarName = names.scalar(name) {
                    scalar = (scalarName, xml.reader.line)
                    text.reset()
                } else {
                    throw malformed(xml.reader.line, "unknown property list element <\(xml.reader.nameString)>")
                }
            case .text:
                if scalar != nil { text.append(xml.reader.text) } else {
                    // libxml2 skips text of spaces, tabs and line breaks alone; other white space ends here.
                    let outside = xml.reader.textString
                    if !outside.allSatisfy(\.isWhitespace) {
                        // A text node's line is where libxml2 was once it had read the text: back
                        // to the line of its first visible character.
                        let words = outside.drop(while: \.isWhitespace)
                        let line = max(1, xml.reader.line - words.reduce(0) { $0 + ($1.isNewline ? 1 : 0) })
                        throw malformed(line, "expected elements only between values, found text outside a value: \(words.prefix(40))")
                    }
                }
            case .end:
                if xml.depth < plistDepth { // </plist>
                    guard let open = stack.last else { continue }
                    throw malformed(xml.reader.line, "expected </\(open.isDictionary ? "dict" : "array")> (opened at line \(open.line)) before </plist>")
                }
                if let s = scalar {
                    scalar = nil
                    if s.name == .key {
                        guard !stack.isEmpty, stack[stack.count - 1].awaitsKey else { throw malformed(s.line, "<key> outside <dict> or without a value") }
                        stack[stack.count - 1].pendingKey = keyStrings.string(text, at: stack[stack.count - 1].entries.count)
                        continue
                    }
                    // A plain decimal `<real>` straight from its bytes: what `value` gives it (`Double(decimal:)`
                    // tries this first), without a string made and trimmed for each coordinate.
                    if s.name == .real, let number = text.withTrimmed(Double.shortDecimal) {
                        try place(.real(number), line: s.line)
                    } else {
                        try place(try value(s.name, text.string, line: s.line, file: file), line: s.line)
                    }
                } else if xml.reader.name == names.dict || xml.reader.name == names.array, let frame = stack.popLast() {
                    if frame.isDictionary, let key = frame.pendingKey { throw malformed(frame.line, "<key>\(key)</key> without a value") }
                    if topIsArray && stack.isEmpty { sawRoot = true; continue }  // records already handed on
                    try place(frame.isDictionary ? .dictionary(frame.entries) : .array(frame.items), line: frame.line)
                }
            }
        }
    }

    enum IntegerText: Equatable { case value(Int64), tooWide, notInteger }

    /// An `<integer>` as Apple's and Python's plist readers take it: decimal digits with an
    /// optional sign, or hexadecimal digits after `0x` (`0x1F` is 31, `-0x10` is -16).
    static func integer(_ text: String) -> IntegerText {
        var body = Substring(text)
        let negative = body.first == "-"
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let hex = body.hasPrefix("0x") || body.hasPrefix("0X")
        let digits = hex ? body.dropFirst(2) : body
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && (hex ? $0.isHexDigit : $0.isNumber) }) else { return .notInteger }
        // The magnitude first: -9223372036854775808 fits, 9223372036854775808 does not.
        guard let magnitude = UInt64(digits, radix: hex ? 16 : 10),
              magnitude <= UInt64(Int64.max) + (negative ? 1 : 0) else { return .tooWide }
        return .value(negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude))
    }

    static func value(_ name: Scalar, _ text: String, line: Int, file: String) throws(LocatedError) -> PropertyListValue {
        if name == .string { return .string(text) }
        let trimmed = text.trimmedASCII
        func bad(_ expected: String) -> LocatedError {
            LocatedError(.malformed, file: file, line: line, message: "<\(name.rawValue)>\(trimmed.prefix(40))</\(name.rawValue)>: expected \(expected)")
        }
        switch name {
        case .integer:
            switch integer(trimmed) {
            case .value(let n): return .integer(n)
            case .tooWide: throw bad("a signed 64-bit integer")
            case .notInteger: throw bad("an integer")
            }
        case .real:
            guard let d = Double(decimal: trimmed) else { throw bad("a real number") }
            return .real(d)
        case .date:
            guard ObservationTime.isISO8601(trimmed) else { throw bad("an ISO 8601 date") }
            return .date(trimmed)
        case .data:
            guard let data = Data(base64Encoded: trimmed, options: .ignoreUnknownCharacters) else { throw bad("base64") }
            return .data(Array(data))
        case .true: return .boolean(true)
        case .false, .key, .string: return .boolean(false)
        }
    }
}
