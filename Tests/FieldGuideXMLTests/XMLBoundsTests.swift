import FieldGuideDiagnostics
@testable import FieldGuideXML
import Foundation
import Testing
import TestSupport

/// Scans `text` with a small limit, `chunk` bytes at a time: the refusal, if any (`skipping`:
/// whether runs of short tags are skipped, as the reader scans).
func scan(_ text: String, limit: Int = 2, chunk: Int = 4096, skipping: Bool = true) -> StartTagScanner.Refusal? {
    var scanner = StartTagScanner(limit: limit)
    scanner.skipsShortTags = skipping
    let bytes = Array(text.utf8)
    var start = 0
    while start < bytes.count {
        let end = min(start + chunk, bytes.count)
        if let refusal = bytes[start..<end].withUnsafeBytes({ scanner.scan($0) }) { return refusal }
        start = end
    }
    return nil
}

/// The XML files of input/exports and, when present, of ../shared/data/exports.
func xmlExportFiles() throws -> [String] {
    var files = try FileManager.default.subpathsOfDirectory(atPath: TestPaths.input.appendingPathComponent("exports").path)
        .filter { !$0.hasSuffix(".csv") && $0.contains(".") }.map { TestPaths.input.appendingPathComponent("exports/" + $0).path }
    if let real = TestPaths.shared("exports") {
        files += try FileManager.default.subpathsOfDirectory(atPath: real.path).filter { $0.contains(".") }.map { real.path + "/" + $0 }
    }
    return files
}

@Suite("XML bounds: attributes counted before libxml2, libxml2's own limits kept")
struct XMLBoundsTests {
    @Test("an element past the limit is refused at its tag, with its name; at the limit it passes")
    func limit() {
        #expect(scan("<a x='1' y=\"2\"/>") == nil)
        #expect(scan("<?xml version=\"1.0\"?>\n<r>\n  <wpt a=\"1\" b=\"2\" c=\"3\"/></r>")
            == .init(line: 3, column: 3, element: "wpt"))
        // One byte at a time: the same answer, whatever the chunks.
        #expect(scan("<r>\n  <wpt a=\"1\" b=\"2\" c=\"3\"/></r>", chunk: 1) == .init(line: 2, column: 3, element: "wpt"))
    }

    @Test("any chunking gives the same answer: the project's and the real exports scanned whole, in 7-byte and 1-byte chunks")
    func chunking() throws {
        let files = try xmlExportFiles()
        #expect(files.count >= 6)
        var refused = 0
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for limit in [1, 3] {
                let whole = scan(text, limit: limit)
                #expect(scan(text, limit: limit, chunk: 7) == whole && scan(text, limit: limit, chunk: 1) == whole, "\(file)")
                if whole != nil { refused += 1 }
            }
        }
        #expect(refused >= 4)   // the GPX and XMP files have elements with several attributes
    }

    @Test("an = inside values, comments, CDATA, processing instructions and declarations is not an attribute")
    func notAttributes() {
        #expect(scan("<a x='a=b=c' y=\"=\">t=u=v=w</a>") == nil)
        #expect(scan("<!-- <a x=1 y=2 z=3> --><a/>") == nil)
        #expect(scan("<r><![CDATA[ <a x=1 y=2 z=3> ]]></r>") == nil)
        #expect(scan("<?pi a=1 b=2 c=3?><r/>") == nil)
        #expect(scan("<!DOCTYPE r [ <!ATTLIST r a CDATA \"x=y=z\"> <!-- a=b=c=d --> ]><r/>") == nil)
        // Terminators with their first byte repeated still end the section.
        #expect(scan("<!-- x ---><r a='1' b='2' c='3'/>")?.element == "r")
        #expect(scan("<r><![CDATA[ x ]]]></r><s a='1' b='2' c='3'/>")?.element == "s")
    }

    @Test("no crafted markup hides a tag from the count: a < inside a value or a declaration starts a new tag")
    func noHiding() {
        // XML forbids < in an attribute value: the scanner restarts there, as libxml2 stops there.
        #expect(scan("<a x=\"<b p=1 q=2 r=3>\"/>")?.element == "b")
        // A quote inside a DOCTYPE's comment does not swallow the document.
        #expect(scan("<!DOCTYPE r [ <!-- ' --> ]><r a=\"1\" b=\"2\" c=\"3\"/>")?.element == "r")
        #expect(scan("<!DOCTYPE r [ <!ENTITY e \"<!--\"> ]><r a=\"1\" b=\"2\" c=\"3\"/>")?.element == "r")
    }

    @Test("the reader refuses an attribute bomb before libxml2 parses it: .tooLarge at file:line:column")
    func readerRefusesBomb() throws {
        let attributes = (0...XMLLimits.maxAttributesPerElement).map { "a\($0)=\"1\"" }.joined(separator: " ")
        let path = try writeTemp("<?xml version=\"1.0\"?>\n<plist version=\"1.0\" \(attributes)><array/></plist>\n")
        let error = #expect(throws: LocatedError.self) { try events(path) }
        #expect(error?.kind == .tooLarge && error?.line == 2 && error?.column == 1)
        #expect(error?.description == "t.xml:2:1: expected at most 1,000 attributes on one element, found more on <plist>; refused before parsing it")

        let atLimit = (1...XMLLimits.maxAttributesPerElement).map { "a\($0)=\"1\"" }.joined(separator: " ")
        let fine = try writeTemp("<plist \(atLimit)/>")
        #expect(try events(fine).count == 2)
    }

    @Test("libxml2's limits hold: nesting past 257 elements and a text node past 10,000,000 bytes are refused")
    func libxml2Limits() throws {
        let depth = XMLLimits.maxDepth + 1
        let deep = try writeTemp(String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth))
        let tooDeep = #expect(throws: LocatedError.self) { try events(deep) }
        #expect(tooDeep?.kind == .malformed && tooDeep?.message.hasPrefix("Excessive depth in document") == true && tooDeep?.line == 1)
        let fine = try writeTemp(String(repeating: "<a>", count: depth - 1) + String(repeating: "</a>", count: depth - 1))
        #expect(try events(fine).count == 2 * (depth - 1))

        let huge = try writeTemp("<a>" + String(repeating: "x", count: XMLLimits.maxTextBytes + 1) + "</a>")
        let tooLong = #expect(throws: LocatedError.self) { try events(huge) }
        #expect(tooLong?.kind == .malformed && tooLong?.message.contains("huge text node") == true)
        let value = try writeTemp("<a v=\"" + String(repeating: "x", count: XMLLimits.maxTextBytes + 1) + "\"/>")
        let longValue = #expect(throws: LocatedError.self) { try events(value) }
        #expect(longValue?.kind == .malformed && longValue?.message.contains("AttValue length too long") == true)
    }

    @Test("a file that cannot be opened is .unreadable in the system's words")
    func unreadable() {
        let error = #expect(throws: LocatedError.self) { try XMLStreamReader(path: "/nonexistent/t.xml") }
        #expect(error?.kind == .unreadable && error?.message == "cannot open for reading: No such file or directory")
    }
}
