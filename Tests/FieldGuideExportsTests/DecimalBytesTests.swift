@testable import FieldGuideExports
import FieldGuideDiagnostics
import Testing

@Suite("Plist reals and GPX elevations read from their bytes")
struct DecimalBytesTests {
    @Test("a GPX elevation: plain decimals from the bytes, the rest through Double(decimal:), a bad one rejected, the last <ele> wins")
    func elevations() throws {
        let path = try ExportFixtures.write("""
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="1" lon="2"><ele> 12.5 </ele><name>a</name></wpt>
            <wpt lat="1" lon="2"><ele>1e3</ele><name>b</name></wpt>
            <wpt lat="1" lon="2"><ele>-0.25</ele><ele>abc</ele><name>c</name></wpt>
            <wpt lat="1" lon="2"><ele>abc</ele><ele>7</ele><name>d</name></wpt>
            <wpt lat="1" lon="2"><ele></ele><name>e</name></wpt>
            </gpx>
            """, name: "ele.gpx")
        let result = try readExport(path)
        #expect(result.observations.map(\.subject) == ["a", "b", "d", "e"])
        #expect(result.observations.map(\.elevation) == [12.5, 1000, 7, nil])
        #expect(result.issues.map { "\($0.line) \($0.field) \($0.value)" } == ["5 ele abc"])
    }

    @Test("a plist <real>: plain decimals from the bytes, the rest through Double(decimal:), a bad one refused")
    func reals() throws {
        func plist(_ reals: [String]) throws -> String {
            try ExportFixtures.write("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array>"
                + reals.map { "<real>\($0)</real>" }.joined() + "</array></plist>\n", name: "reals.plist")
        }
        var values: [PropertyListValue] = []
        try PropertyListReader.values(path: try plist([" 52.5\n", "-0.125", "1e3", "+2", ".5", "123456789012345678"])) { value, _ in values.append(value) }
        #expect(values == [.real(52.5), .real(-0.125), .real(1000), .real(2), .real(0.5), .real(Double("123456789012345678")!)])
        let error = #expect(throws: LocatedError.self) { try PropertyListReader.values(path: try plist(["1", "x1"])) { _, _ in } }
        #expect(error?.message.contains("<real>x1</real>: expected a real number") == true)
        // An integer past 64 bits is said to be one (it read as "expected an integer").
        let wide = try ExportFixtures.write("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array><integer>-99999999999999999999</integer>"
                                            + "<integer>0x10</integer></array></plist>\n", name: "integers.plist")
        let tooWide = #expect(throws: LocatedError.self) { try PropertyListReader.values(path: wide) { _, _ in } }
        #expect(tooWide?.message == "<integer>-99999999999999999999</integer>: expected a signed 64-bit integer", "\(tooWide?.message ?? "")")
    }

    @Test("a plist <integer> as Apple's and Python's readers take it: signed decimal or 0x hexadecimal, the 64-bit edges exact")
    func integers() throws {
        let cases: [(String, PropertyListReader.IntegerText)] = [
            ("42", .value(42)), ("+7", .value(7)), ("-0", .value(0)), ("0x1F", .value(31)), ("0XFF", .value(255)), ("-0x10", .value(-16)),
            ("9223372036854775807", .value(.max)), ("-9223372036854775808", .value(.min)), ("0x7FFFFFFFFFFFFFFF", .value(.max)),
            ("9223372036854775808", .tooWide), ("18446744073709551615", .tooWide), ("0x8000000000000000", .tooWide), ("0x10000000000000000", .tooWide),
            ("", .notInteger), ("-", .notInteger), ("0x", .notInteger), ("1.5", .notInteger), ("0x1G", .notInteger), ("1e3", .notInteger),
            ("--1", .notInteger), ("+-1", .notInteger), ("\u{0661}", .notInteger), ("0b101", .notInteger),
        ]
        for (text, expected) in cases { #expect(PropertyListReader.integer(text) == expected, "\(text)") }
        // Through the reader: a hexadecimal count reads as its value, not as a malformed file.
        let path = try ExportFixtures.write("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array><integer> 0x10 </integer>"
                                            + "<integer>-12</integer></array></plist>\n", name: "hex-integers.plist")
        var values: [PropertyListValue] = []
        try PropertyListReader.values(path: path) { value, _ in values.append(value) }
        #expect(values == [.integer(16), .integer(-12)])
    }

    @Test("positions and elevations written as nan, inf or hexadecimal are refused as not numbers, not read as values",
          arguments: ["nan", "inf", "-infinity", "0x1p3", "0x10"])
    func spelledNumbers(_ spelled: String) throws {
        let gpx = try readExport(try ExportFixtures.write("""
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="\(spelled)" lon="2"><name>a</name></wpt>
            <wpt lat="1" lon="2"><ele>\(spelled)</ele><name>b</name></wpt>
            <wpt lat="1" lon="2"><ele>1.5e2</ele><name>c</name></wpt>
            </gpx>
            """, name: "spelled.gpx"))
        #expect(gpx.observations.map(\.subject) == ["c"] && gpx.observations.first?.elevation == 150)
        #expect(gpx.issues.map { "\($0.line) \($0.field) \($0.value) \($0.reason)" }
                == ["3 lat \(spelled) expected decimal degrees", "4 ele \(spelled) expected metres as a decimal number"])
        #expect(throws: LocatedError.self) { try Coordinate.xmpDegrees("\(spelled),30N", axis: .latitude, field: "f") }
        #expect(throws: LocatedError.self) { try Coordinate.xmpDegrees(spelled, axis: .longitude, ref: "E", field: "f") }
        #expect(PropertyListValue.string(spelled).double == nil && PropertyListValue.string(" -1.5e1 ").double == -15)
    }
}
