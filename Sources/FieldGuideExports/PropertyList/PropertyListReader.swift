import FieldGuideXML
import Foundation
import FieldGuideDiagnostics

/// Streams an Apple XML property list and turns its app records into observations.
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
        _ = try ExportFileReader.sniff(path: path, file: file)
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
        var summary = ExportFileSummary(format: .plist)
        try stream(&xml, file: file) { value, line in
            switch AppRecord.observation(value, file: file, line: line) {
            case .observation(let observation):
                summary.records += 1
                sink.observe(observation)
            case .rejected(let problem):
                summary.records += 1
                sink.reject(file: file, line: line, problem)
            case .notAnAppRecord:
                summary.skipped["plist values that are not app records", default: 0] += 1
            }
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
    }

    static let scalars: Set<String> = ["key", "string", "integer", "real", "date", "data"]

    /// Reads the content of `<plist>` (already opened), calling `body` per record.
    static func stream(_ xml: inout XMLCursor, file: String, _ body: (PropertyListValue, Int) -> Void) throws(LocatedError) {
        let plistDepth = xml.depth
        var stack: [Frame] = []
        var scalar: (name: String, line: Int, text: String)?
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
                guard let key = stack[stack.count - 1].pendingKey else { throw malformed(line, "expected <key> before a value in <dict>") }
                stack[stack.count - 1].entries.append((key, value))
                stack[stack.count - 1].pendingKey = nil
            } else {
                stack[stack.count - 1].items.append(value)
            }
        }

        while let event = try xml.next() {
            switch event {
            case let .start(name, _, line):
                guard scalar == nil else { throw malformed(line, "<\(name)> inside <\(scalar!.name)>") }
                if name == "dict" || name == "array" {
                    if stack.isEmpty && !sawRoot && name == "array" { topIsArray = true }
                    if let top = stack.last, top.isDictionary, top.pendingKey == nil { throw malformed(line, "expected <key> before <\(name)> in <dict>") }
                    stack.append(Frame(isDictionary: name == "dict", line: line))
                } else if scalars.contains(name) {
                    scalar = (name, line, "")
                } else if name == "true" || name == "false" {
                    scalar = (name, line, "")
                } else {
                    throw malformed(line, "unknown property list element <\(name)>")
                }
            case .text(let text):
                if scalar != nil { scalar!.text += text }
                else if !text.allSatisfy(\.isWhitespace) { throw malformed(0, "text outside a value: \(text.prefix(40))") }
            case .end(let name):
                if xml.depth < plistDepth { // </plist>
                    guard stack.isEmpty else { throw malformed(0, "unclosed <\(stack.last!.isDictionary ? "dict" : "array")>") }
                    continue
                }
                if let s = scalar {
                    scalar = nil
                    if s.name == "key" {
                        guard let top = stack.last, top.isDictionary, top.pendingKey == nil else { throw malformed(s.line, "<key> outside <dict> or without a value") }
                        stack[stack.count - 1].pendingKey = s.text
                        continue
                    }
                    try place(try value(s.name, s.text, line: s.line, file: file), line: s.line)
                } else if name == "dict" || name == "array", let frame = stack.popLast() {
                    if frame.isDictionary, let key = frame.pendingKey { throw malformed(frame.line, "<key>\(key)</key> without a value") }
                    if topIsArray && stack.isEmpty { sawRoot = true; continue }  // records already handed on
                    try place(frame.isDictionary ? .dictionary(frame.entries) : .array(frame.items), line: frame.line)
                }
            }
        }
    }

    static func value(_ name: String, _ text: String, line: Int, file: String) throws(LocatedError) -> PropertyListValue {
        let trimmed = text.trimmedASCII
        func bad(_ expected: String) -> LocatedError {
            LocatedError(.malformed, file: file, line: line, message: "<\(name)>\(trimmed.prefix(40))</\(name)>: expected \(expected)")
        }
        switch name {
        case "string": return .string(text)
        case "integer":
            guard let n = Int64(trimmed) ?? (trimmed.hasPrefix("+") ? Int64(trimmed.dropFirst()) : nil) else { throw bad("an integer") }
            return .integer(n)
        case "real":
            guard let d = Double(trimmed) else { throw bad("a real number") }
            return .real(d)
        case "date":
            guard (try? ObservationTime.iso8601(trimmed)) != nil else { throw bad("an ISO 8601 date") }
            return .date(trimmed)
        case "data":
            guard let data = Data(base64Encoded: trimmed, options: .ignoreUnknownCharacters) else { throw bad("base64") }
            return .data(Array(data))
        case "true": return .boolean(true)
        default: return .boolean(false)
        }
    }
}
