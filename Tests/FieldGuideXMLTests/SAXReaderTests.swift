import FieldGuideDiagnostics
@testable import FieldGuideXML
import Foundation
import Testing

/// What the reader does now that it drives libxml2's SAX2 push parser a chunk
/// (`ScannedInput.chunkSize`) at a time: text joined across chunks, entity references refused at
/// their `&`, the nodes before an error read before it.
@Suite("XML stream reader over libxml2's SAX2 push parser")
struct SAXReaderTests {
    @Test("text is one node across chunks, references and CDATA joined in; a comment or instruction ends it")
    func textAcrossChunks() throws {
        let piece = "Gray Heron &amp; <![CDATA[<egret>]]> "
        let count = 3 * ScannedInput.chunkSize / piece.utf8.count + 1   // past two chunk boundaries
        let path = try writeTemp("<r><a>" + String(repeating: piece, count: count) + "</a><b>x<!-- c -->y<?pi z?>z</b>\n  <c/></r>")
        let texts = try events(path).compactMap { event -> String? in if case .text(let t) = event { t } else { nil } }
        #expect(texts == [String(repeating: "Gray Heron & <egret> ", count: count), "x", "y", "z"])
    }

    @Test("an entity reference is refused at its &, in text and in an attribute value; an undeclared one in libxml2's words")
    func entityReferences() throws {
        let declared = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY e \"expanded\">]>\n"
        let inText = try writeTemp(declared + "<r>\n  <a>one &e; two</a></r>")
        let text = #expect(throws: LocatedError.self) { try events(inText) }
        #expect(text?.description == "t.xml:4:10: entity references are not expanded; refusing &e;")
        #expect(text?.kind == .refused)

        let inAttribute = try writeTemp(declared + "<r><a v=\"x&e;\"/></r>")
        let attribute = #expect(throws: LocatedError.self) { try events(inAttribute) }
        #expect(attribute?.kind == .refused && attribute?.line == 3 && attribute?.column == 11)

        let undeclared = try writeTemp("<r>&nope;</r>")
        let error = #expect(throws: LocatedError.self) { try events(undeclared) }
        #expect(error?.kind == .malformed && error?.message == "Entity 'nope' not defined" && error?.line == 1)

        // The five predefined ones and character references are text, not references.
        #expect(try events(try writeTemp("<r a=\"&lt;&#65;\">&gt;&quot;&apos;&#x42;</r>")) == [
            .start(name: "r", attributes: [XMLAttribute(name: "a", value: "<A")], line: 1), .text(">\"'B"), .end(name: "r"),
        ])
    }

    /// libxml2 2.9 says "Extra content at the end of the document" of a file that ends inside an
    /// element; the reader says what was expected, at the end of the file.
    @Test("a file cut short: the element left open, in text, between elements, across chunks, before the root")
    func cutShort() throws {
        let gpx = "<?xml version=\"1.0\"?>\n<gpx xmlns=\"http://www.topografix.com/GPX/1/1\">\n<wpt lat=\"1\" lon=\"2\">\n"
        let inText = #expect(throws: LocatedError.self) { try events(try writeTemp(gpx + "<name>Heron po")) }
        #expect(inText?.description == "t.xml:4:15: expected </name> to close the <name> of line 4, found the end of the file (cut short?)")
        #expect(inText?.kind == .malformed)

        let between = #expect(throws: LocatedError.self) { try events(try writeTemp(gpx + "<name>Heron pond</name>\n")) }
        #expect(between?.message == "expected </wpt> to close the <wpt> of line 3, found the end of the file (cut short?)")
        #expect(between?.line == 4)   // libxml2's place: the last line, not the empty one after it

        let prefixed = #expect(throws: LocatedError.self) { try events(try writeTemp("<x:r xmlns:x=\"urn:x\">\n<x:a>")) }
        #expect(prefixed?.message == "expected </x:a> to close the <x:a> of line 2, found the end of the file (cut short?)")

        // Past the first chunk: the reader has handed out elements of earlier chunks.
        let waypoints = String(repeating: "<wpt lat=\"1\" lon=\"2\"><name>Heron pond</name></wpt>\n", count: 3 * ScannedInput.chunkSize / 50)
        let longOpen = #expect(throws: LocatedError.self) { try events(try writeTemp(gpx + "</wpt>\n" + waypoints + "<wpt lat=\"3\" lon=\"4\">")) }
        #expect(longOpen?.message == "expected </wpt> to close the <wpt> of line \(waypoints.split(separator: "\n").count + 5), found the end of the file (cut short?)")

        let noRoot = #expect(throws: LocatedError.self) { try events(try writeTemp("<?xml version=\"1.0\"?>\n")) }
        #expect(noRoot?.description == "t.xml:2:1: expected a root element, found the end of the file")

        // Content after the root element closed is still libxml2's words: it is extra content.
        let extra = #expect(throws: LocatedError.self) { try events(try writeTemp("<r/><s/>")) }
        #expect(extra?.message == "Extra content at the end of the document")
    }

    @Test("the nodes before an error are read, then the error; the reader stays on it")
    func nodesBeforeError() throws {
        let path = try writeTemp("<gpx>\n<wpt/>\n<wpt/>\n<wpt>\n</trk>\n</gpx>\n")
        let reader = try XMLStreamReader(path: path, displayName: "t.xml")
        var starts = 0
        let error = #expect(throws: LocatedError.self) {
            while let node = try reader.read() { if node == .start { starts += 1 } }
        }
        #expect(starts == 4)
        #expect(error?.description == "t.xml:5:7: Opening and ending tag mismatch: wpt line 4 and trk")
        #expect(throws: LocatedError.self) { try reader.read() }
    }

    @Test("attributes an ATTLIST defaults are not reported; namespace declarations come first")
    func defaultsAndDeclarations() throws {
        let path = try writeTemp("<!DOCTYPE r [<!ATTLIST a d CDATA \"dflt\">]><r xmlns:g=\"urn:g\" g:x=\"1\"><a/></r>")
        let reader = try XMLStreamReader(path: path, displayName: "t.xml")
        #expect(try reader.read() == .start)
        #expect(reader.attributes == [XMLAttribute(name: "xmlns:g", value: "urn:g"), XMLAttribute(name: "g:x", value: "1")])
        #expect(reader.attributeNamespaceURI("g:x") == "urn:g" && reader.attributeNamespaceURI("xmlns:g") == "http://www.w3.org/2000/xmlns/")
        #expect(try reader.read() == .start)
        #expect(reader.nameString == "a" && reader.attributes.isEmpty)
    }

    @Test("nesting past the bound is refused in plain words, at the element that passes it")
    func depthWords() throws {
        let depth = XMLLimits.maxDepth + 1
        let path = try writeTemp("<a>\n" + String(repeating: "<a>", count: depth - 1) + String(repeating: "</a>", count: depth))
        let error = #expect(throws: LocatedError.self) { try events(path) }
        // At the `>` of the 258th `<a>`, the 257th on line 2, as libxml2 placed it.
        #expect(error?.description == "t.xml:2:\(3 * (depth - 1)): Excessive depth in document: expected elements nested at most 257 deep, found deeper")
    }
}

extension SAXReaderTests {
    @Test("an & in an attribute value, written &amp; or &#38;, is one & (libxml2's SAX2 hands it out as &#38;)")
    func ampersandsInValues() throws {
        let path = try writeTemp("<r a=\"&amp;\" b=\"x &#38; y&amp;&amp;z\" c=\"&#38;#38;\" d=\"&#x26;amp;\"/>")
        let reader = try XMLStreamReader(path: path, displayName: "t.xml")
        #expect(try reader.read() == .start)
        #expect(reader.attributes.map(\.value) == ["&", "x & y&&z", "&#38;", "&amp;"])
    }
}
