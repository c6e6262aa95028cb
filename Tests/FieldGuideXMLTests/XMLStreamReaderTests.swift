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
