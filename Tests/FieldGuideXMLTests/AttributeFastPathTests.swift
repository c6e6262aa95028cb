@testable import FieldGuideXML
import Testing

@Suite("XML stream reader: attributes read from the element's list")
struct AttributeFastPathTests {
    @Test("forEachAttribute and attributes give what libxml2's reader gave: namespace declarations, prefixes, references, empty values")
    func sameAsReaderCalls() throws {
        let path = try writeTemp("""
            <gpx xmlns="urn:gpx" xmlns:g="urn:g" version="1.1">
            <trkpt lat="1.5" lon="-2"/>
            <trkpt lat="" lon="&#52;&amp;5" g:extra="x"/>
            <trkpt lon="7" lat="8" lat2="a&lt;b"><name>n</name></trkpt>
            <g:pt g:lat="9" lon=" 10 "/>
            <empty/>
            </gpx>
            """)
        let reader = try XMLStreamReader(path: path, displayName: "t.xml")
        var seen: [[XMLAttribute]] = []
        while let node = try reader.read() {
            guard node == .start else { continue }
            var fast: [XMLAttribute] = []
            reader.forEachAttribute { name, value in
                let named = name.address.map { String(cString: $0.assumingMemoryBound(to: UInt8.self)) } ?? "?"
                fast.append(XMLAttribute(name: named, value: String(decoding: value, as: UTF8.self)))
            }
            #expect(fast == reader.attributes, "<\(reader.nameString)>")
            seen.append(fast)
        }
        // What libxml2's xmlTextReader listed (its xmlTextReaderMoveToNextAttribute), which the
        // reader used before it drove the SAX2 parser: declarations first, references decoded.
        let a = XMLAttribute.init(name:value:)
        #expect(seen == [
            [a("xmlns", "urn:gpx"), a("xmlns:g", "urn:g"), a("version", "1.1")],
            [a("lat", "1.5"), a("lon", "-2")],
            [a("lat", ""), a("lon", "4&5"), a("g:extra", "x")],
            [a("lon", "7"), a("lat", "8"), a("lat2", "a<b")],
            [],
            [a("g:lat", "9"), a("lon", " 10 ")],
            [],
        ])
    }
}
