import FieldGuideDiagnostics
@testable import FieldGuideExports
import Testing

/// The readers' paths over bytes (GPX positions, trimmed strings) give what the string paths give.
@Suite("Export readers' byte paths")
struct ExportReaderBytePathsTests {
    /// `Coordinate.short` over the trimmed bytes, where it answers, is `Coordinate.parse` over the strings.
    func expectSame(_ latitude: String, _ longitude: String) {
        let parsed = Result { () throws(LocatedError) in try Coordinate.parse(latitude: latitude, longitude: longitude, latitudeField: "lat", longitudeField: "lon") }
        let short = Array(latitude.trimmedASCII.utf8).withUnsafeBufferPointer { lat in
            Array(longitude.trimmedASCII.utf8).withUnsafeBufferPointer { lon in Coordinate.short(latitude: lat, longitude: lon) }
        }
        guard let short else { return }
        #expect((try? parsed.get()) == short, "\(latitude), \(longitude)")
        #expect(short.latitude.bitPattern == (try? parsed.get())?.latitude.bitPattern, "\(latitude)")
    }

    @Test("positions: plain, signed, spaced, out of range, exponents, long and odd numbers")
    func positions() {
        let values = ["0", "-0", "52.520008", " 13.404954 ", "-90", "90", "90.0000001", "-180", "180.5", "1e1", "", " ", "12.5.5", "１２", "nan",
                      "inf", "+1.5", ".5", "1.", "89.99999999999999999", "123456789012345", "0.000000000000001"]
        for latitude in values { for longitude in values { expectSame(latitude, longitude) } }
        #expect(Array("52.5".utf8).withUnsafeBufferPointer { lat in Array("13".utf8).withUnsafeBufferPointer { Coordinate.short(latitude: lat, longitude: $0) } }
            == Coordinate(latitude: 52.5, longitude: 13))
    }

    @Test("FoldedKeys through a cache kept across records finds what it finds without one")
    func foldedKeysCache() {
        let long = "a_very_long_key_name_past_sixteen"
        let records: [PropertyListValue] = [
            .dictionary([("species", .string("a")), ("Audio_File", .string("b")), ("lat", .integer(1))]),
            .dictionary([("species", .string("c")), ("audioFile", .string("d")), ("LAT", .integer(2)), (long, .integer(3))]),
            .dictionary([("lat", .integer(4)), ("species", .string("e")), ("Émile", .integer(5)), (long, .integer(6))]),
            .dictionary([]), .string("not a dictionary"),
            .dictionary([("species", .string("f")), ("audio file", .string("g")), ("lat", .integer(7)), (long, .integer(8))]),
        ]
        var cache = FoldedKeys.Cache()
        for record in records {
            let cached = FoldedKeys(record, cache: &cache), fresh = FoldedKeys(record)
            for wanted in ["species", "audioFile", "audio_file", "lat", "latitude", "émile", "Émile", long, "AVeryLongKeyNamePastSixteen", ""] {
                #expect(cached[wanted] == fresh[wanted] && fresh[wanted] == record[wanted], "\(record) \(wanted)")
            }
        }
    }

    @Test("String.trimmedASCII is StringProtocol's, shared storage or not")
    func trimmed() {
        for text in ["", " ", "a", " a", "a ", "\ta\r\n", "Grey Heron", "  Café  ", "\u{A0}x\u{A0}", "a b"] {
            #expect(text.trimmedASCII == Substring(text).trimmedASCII, "\(text)")
        }
    }
}
