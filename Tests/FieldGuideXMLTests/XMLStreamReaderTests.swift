import FieldGuideDiagnostics
import FieldGuideXML
import Foundation
import Testing
import TestSupport

func writeTemp(_ text: String, name: String = "t.xml") throws -> String {
    let path = try TestPaths.temporaryDirectory("xml").appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

func events(_ path: String) throws -> [XMLEvent] {
    let reader = try XMLStreamReader(path: path, displayName: "t.xml")
    var out: [XMLEvent] = []
    while let event = try reader.next() { out.append(event) }
    return out
}

@Suite("XML stream reader over libxml2")
struct XMLStreamReaderTests {
    @Test("elements, attributes, text, and empty elements")
    func basics() throws {
        let path = try writeTemp("<?xml version=\"1.0\"?>\n<gpx>\n<wpt lat=\"1.5\" lon=\"-2\"><name>A &amp; B</name></wpt>\n<br/>\n</gpx>")
        let found = try events(path).filter { if case .text(let t) = $0 { return !t.allSatisfy(\.isWhitespace) } else { return true } }
        #expect(found == [
            .start(name: "gpx", attributes: [], line: 2),
            .start(name: "wpt", attributes: [XMLAttribute(name: "lat", value: "1.5"), XMLAttribute(name: "lon", value: "-2")], line: 3),
            .start(name: "name", attributes: [], line: 3), .text("A & B"), .end(name: "name"), .end(name: "wpt"),
            .start(name: "br", attributes: [], line: 4), .end(name: "br"), .end(name: "gpx"),
        ])
    }

    @Test("a malformed file is reported at file:line:column")
    func malformed() throws {
        let path = try writeTemp("<gpx>\n  <wpt lat=\"1\">\n  </trk>\n</gpx>\n")
        let error = #expect(throws: LocatedError.self) { try events(path) }
        #expect(error?.line == 3)
        #expect(error?.description.hasPrefix("t.xml:3:") == true)
    }

    @Test("a billion-laughs file is refused quickly, and entities are never expanded")
    func billionLaughs() throws {
        var dtd = "<!ENTITY lol \"lol\">"
        for i in 1...9 { dtd += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">" }
        let path = try writeTemp("<?xml version=\"1.0\"?><!DOCTYPE lolz [\(dtd)]><lolz>&lol9;</lolz>")
        let start = ContinuousClock.now
        #expect(throws: LocatedError.self) { try events(path) }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test("an external entity is not loaded")
    func externalEntity() throws {
        let secret = try writeTemp("secret", name: "secret.txt")
        let path = try writeTemp("<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY x SYSTEM \"file://\(secret)\">]><a>&x;</a>")
        let result = try? events(path)
        #expect(result?.contains(.text("secret")) != true)
    }

    @Test("real GPX files: Garmin BaseCamp (BOM, CRLF) and a Groundspeak GPX 1.0")
    func realGPX() throws {
        for (file, waypoints) in [("exports/gpx/gpsbabel_basecamp_garmin_desktop.gpx", 0), ("exports/gpx/gpsbabel_GC7FA4_groundspeak_gpx10.gpx", 0)] {
            guard let url = TestPaths.shared(file) else { continue }
            let expected = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "<wpt ").count - 1
            let all = try events(url.path)
            let found = all.filter { if case let .start(name, attributes, _) = $0 { return name == "wpt" && attributes.contains { $0.name == "lat" } } else { return false } }
            #expect(found.count == expected + waypoints)
            #expect(expected > 0 || all.contains { if case .start("trkpt", _, _) = $0 { return true } else { return false } })
        }
    }
}

@Suite("XML stream reader: nodes without Swift values")
struct XMLNodeReadingTests {
    @Test("names compare as addresses in the reader's dictionary; attributes by name; empty elements end")
    func names() throws {
        let path = try writeTemp("<?xml version=\"1.0\"?>\n<gpx xmlns:g=\"urn:g\">\n<trkpt lat=\"1.5\" lon=\"-2\"><name>A &amp; <![CDATA[<B>]]></name></trkpt>\n<g:trkpt lat=\"3\"/>\n<trkpt/>\n</gpx>")
        let reader = try XMLStreamReader(path: path, displayName: "t.xml")
        let trkpt = reader.intern("trkpt"), g = reader.intern("urn:g"), lat = reader.intern("lat"), lon = reader.intern("lon")
        var seen: [String] = []
        while let node = try reader.read() {
            switch node {
            case .start:
                // A prefixed name is told by its namespace and local name (libxml2 keeps `g:trkpt` apart).
                let prefixed = reader.namespace == g && reader.localName == trkpt
                seen.append("<\(reader.nameString) \(reader.name == trkpt) \(prefixed) \(reader.attribute(lat) ?? "-") \(reader.attribute(lon) ?? "-") \(reader.line)")
            case .end:
                seen.append("</\(reader.nameString) \(reader.name == trkpt)")
            case .text:
                seen.append(String(decoding: reader.text, as: UTF8.self))
            }
        }
        #expect(seen == [
            "<gpx false false - - 2",
            "<trkpt true false 1.5 -2 3", "<name false false - - 3", "A & <B>", "</name false", "</trkpt true",
            "<g:trkpt false true 3 - 4", "</g:trkpt false",
            "<trkpt true false - - 5", "</trkpt true",
            "</gpx false",
        ])
    }

    @Test("namespace and local name by address; text of white space alone is skipped, other text kept")
    func namespacesAndWhiteSpace() throws {
        let path = try writeTemp("<r:RDF xmlns:r=\"urn:rdf\" xmlns:o=\"urn:o\">\n <r:li xml:space=\"preserve\">  </r:li>\t<o:li>\u{A0}</o:li>\n <li/></r:RDF>")
        let reader = try XMLStreamReader(path: path, displayName: "t.xml")
        let rdf = reader.intern("urn:rdf"), li = reader.intern("li")
        var seen: [String] = []
        while let node = try reader.read() {
            switch node {
            case .start: seen.append("\(reader.nameString) \(reader.namespace == rdf) \(reader.namespace == .none) \(reader.localName == li)")
            case .end: continue
            case .text: seen.append("text \(Array(reader.text))")
            }
        }
        #expect(seen == ["r:RDF true false false", "r:li true false true", "o:li false false true", "text [194, 160]", "li false true true"])
    }

    @Test("events and nodes agree on a real GPX file")
    func eventsMatchNodes() throws {
        guard let url = TestPaths.shared("exports/gpx/gpsbabel_GC7FA4_groundspeak_gpx10.gpx") else { return }
        let reader = try XMLStreamReader(path: url.path)
        var fromNodes: [XMLEvent] = []
        while let node = try reader.read() {
            switch node {
            case .start: fromNodes.append(.start(name: reader.nameString, attributes: reader.attributes, line: reader.line))
            case .end: fromNodes.append(.end(name: reader.nameString))
            case .text: fromNodes.append(.text(String(decoding: reader.text, as: UTF8.self)))
            }
        }
        let fromEvents = try events(url.path)
        #expect(fromNodes.count > 100)
        #expect(fromNodes == fromEvents)
    }
}
