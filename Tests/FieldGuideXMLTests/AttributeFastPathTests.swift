@testable import FieldGuideXML
import Testing

@Suite("XML stream reader: attributes read from the element's list")
struct AttributeFastPathTests {
    @Test("forEachAttribute gives what the reader's own attribute calls give: namespace declarations, prefixes, references, empty values")
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
        var starts = 0
        while let node = try reader.read() {
            guard node == .start else { continue }
            starts += 1
            var fast: [XMLAttribute] = []
            reader.forEachAttribute { name, value in
                let named = name.address.map { String(cString: $0.assumingMemoryBound(to: UInt8.self)) } ?? "?"
                fast.append(XMLAttribute(name: named, value: String(decoding: value, as: UTF8.self)))
            }
            // `attributes` walks them with xmlTextReaderMoveToNextAttribute, libxml2's own way.
            #expect(fast == reader.attributes, "<\(reader.nameString)>")
        }
        #expect(starts == 7)
    }
}
