import FieldGuideCore
import FieldGuideCSV
import FieldGuideDiagnostics
import FieldGuideXML
import Foundation

/// Where a reader hands its results: each observation, and each rejected record or warning.
///
/// ```swift
/// var kept: [Observation] = []
/// let sink = RecordSink(observe: { kept.append($0) }, issue: { print($0) })
/// ```
public struct RecordSink {
    public var observe: (Observation) -> Void
    public var issue: (RowIssue) -> Void

    public init(observe: @escaping (Observation) -> Void, issue: @escaping (RowIssue) -> Void = { _ in }) {
        self.observe = observe
        self.issue = issue
    }

    /// Files a refused value (``LocatedError/badValue(field:value:reason:)``) at its record.
    func reject(file: String, line: Int, _ problem: LocatedError) {
        issue(RowIssue(.rejected, file: file, line: line, field: problem.field ?? "", value: problem.found ?? "", reason: problem.message))
    }

    func warn(file: String, line: Int, _ problem: LocatedError) {
        issue(RowIssue(.warning, file: file, line: line, field: problem.field ?? "", value: problem.found ?? "", reason: problem.message))
    }
}

/// What one export file held, besides its observations.
public struct ExportFileSummary: Sendable, Hashable, Codable {
    public var format: ExportFormat
    /// Records turned into observations or rejected.
    public var records = 0
    /// Things read but deliberately not turned into observations, with a count
    /// (`"route points"`, `"plist values that are not app records"`).
    public var skipped: [String: Int] = [:]

    public init(format: ExportFormat) { self.format = format }

    /// A GPX route's points (`<rtept>`): a planned route, not places visited.
    public static let routePoints = "route points"
    /// Values of a property list that hold no app record (a dictionary of other keys).
    public static let nonRecordValues = "plist values that are not app records"
    /// Each kind of skipped thing in the singular, for a count of one.
    private static let singular = [routePoints: "route point", nonRecordValues: "plist value that is not an app record"]

    /// `count` skipped things of kind `what` in words that agree with the count:
    /// `skippedText(1, routePoints)` is `1 route point`, `skippedText(2, routePoints)` `2 route points`.
    public static func skippedText(_ count: Int, _ what: String) -> String {
        formatCount(count, singular[what] ?? what, plural: what)
    }
}

/// Reads any supported export file, deciding the format from its content: XML by its root
/// element (`x:xmpmeta`/`rdf:RDF` → XMP, `gpx` → GPX, `plist` → property list), a binary
/// property list by its `bplist` magic, CSV by its header (eBird "My eBird Data", the aircraft
/// app's capture export).
///
/// ```swift
/// let summary = try ExportFileReader.read(path: "input/exports/heron.xmp", sink: RecordSink { print($0.subject) })
/// ```
public enum ExportFileReader {
    /// File name extensions picked up when a directory is given.
    public static let extensions: Set<String> = ["xmp", "gpx", "plist", "doentry", "csv", "xml"]

    public static func read(path: String, displayName: String? = nil, sink: RecordSink) throws(LocatedError) -> ExportFileSummary {
        let file = displayName ?? path
        switch try sniff(path: path, file: file) {
        case .xml: return try readXML(path: path, file: file, sink: sink)
        case .csv: return try TabularExportReader.read(path: path, file: file, sink: sink)
        case .binaryPropertyList:
            var reader = try BinaryPropertyList.opening(path: path, file: file)
            return try PropertyListReader.records(file: file, sink: sink) { body throws(LocatedError) in try reader.stream(body) }
        }
    }

    enum Shape { case xml, csv, binaryPropertyList }

    /// Empty files are refused here; a binary property list is known by its magic; otherwise
    /// the first significant byte decides, and what would be CSV with a NUL byte in its first
    /// 4 KB is refused as binary data.
    static func sniff(path: String, file: String) throws(LocatedError) -> Shape {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)) } catch {
            throw LocatedError(file, failed: error, doing: "cannot open for reading")
        }
        defer { try? handle.close() }
        let head: Data
        do { head = try handle.read(upToCount: 4096) ?? Data() } catch {
            throw LocatedError(file, failed: error, doing: "cannot read")
        }
        var bytes = Array(head)
        if bytes.starts(with: Array("bplist".utf8)) { return .binaryPropertyList }
        // UTF-16 (Notepad's "Unicode", Excel's "Unicode Text"): said as such before the format is
        // guessed from the first byte (a UTF-16 GPX would be taken for a CSV), in an export's words.
        if let mark = FileText.utf16ByteOrderMark(bytes) { throw FileText.utf16Error(file: file, mark: mark, advice: "re-export as UTF-8") }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            if head.count < 4096 { throw LocatedError(.empty, file: file, line: 1, column: 1, message: "empty file: expected XML or a CSV header") }
            return .csv
        }
        if first == UInt8(ascii: "<") { return .xml }
        // Not XML: a NUL byte is a photo or an archive given as an export, said as such rather
        // than as a bad CSV header.
        if let nul = head.firstIndex(of: 0) {
            throw LocatedError(.unrecognized, file: file, expected: "XML, a CSV header or a binary property list (bplist00)",
                               found: "binary data (a NUL byte at byte \(nul + 1))", message: "not an export this reader knows")
        }
        return .csv
    }

    static func readXML(path: String, file: String, sink: RecordSink) throws(LocatedError) -> ExportFileSummary {
        let reader: XMLStreamReader
        do { reader = try XMLStreamReader(path: path, displayName: file) } catch { throw classifiedXMLError(error) }
        var xml = XMLCursor(reader: reader)
        while let event = try xml.next() {
            guard case let .start(name, attributes, line) = event else { continue }
            let local = XMLCursor.localName(name)
            switch local {
            case "xmpmeta", "RDF":
                return try XMPReader.read(&xml, rootLine: line, file: file, sink: sink)
            case "gpx":
                return try GPXReader.read(&xml, root: attributes, file: file, sink: sink)
            case "plist":
                return try PropertyListReader.read(&xml, file: file, sink: sink)
            default:
                throw LocatedError(.unrecognized, file: file, line: line,
                                       message: "expected an XMP sidecar (x:xmpmeta), GPX (gpx) or property list (plist), found <\(name)>")
            }
        }
        throw LocatedError(.malformed, file: file, line: 1, column: 1, message: "no root element")
    }
}

/// The XML stream with errors classified (`classifiedXMLError`) and a running element depth,
/// read as events (`next()`) or as nodes (`read()`).
struct XMLCursor {
    let reader: XMLStreamReader
    /// Elements open right now (after the event last returned).
    private(set) var depth = 0

    init(reader: XMLStreamReader) { self.reader = reader }

    mutating func next() throws(LocatedError) -> XMLEvent? {
        try read().map(reader.event)
    }

    /// The next node (``XMLStreamReader/read()``), nothing made into Swift values: what the
    /// readers of large files walk.
    mutating func read() throws(LocatedError) -> XMLNodeKind? {
        let node: XMLNodeKind?
        do { node = try reader.read() } catch { throw classifiedXMLError(error) }
        switch node {
        case .start: depth += 1
        case .end: depth -= 1
        default: break
        }
        return node
    }

    static func localName(_ qualified: String) -> String {
        guard let colon = qualified.lastIndex(of: ":") else { return qualified }
        return String(qualified[qualified.index(after: colon)...])
    }
}
