@testable import FieldGuideExports
import Testing

/// The short paths the export readers take for speed give exactly what the general paths give.
@Suite("Export readers' short paths")
struct ExportReaderSpeedPathsTests {
    @Test("Double(decimal:) is Double(_:) on plain decimals, edge cases and 100,000 random numbers")
    func decimals() {
        let edges = ["0", "-0", "0.0", "-0.000", "007.50", "52.520008", "-13.404954", "1724.6", "999999999999999", "9999999999999999",
                     "0.000000000000001", "0.1", "0.3", "2.675", "123456789.012345", "1234567890.123456", "1.", ".5", "-.5", "+1.5",
                     "1e3", "1E-2", "-", "", ".", "1.2.3", "1-2", "--1", " 1", "1 ", "nan", "inf", "0x1p3", "12a", "١٢"]
        for text in edges {
            let fast = Double(decimal: text), general = Double(text)
            #expect(fast?.bitPattern == general?.bitPattern, "\(text)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            if digits > 1, Bool.random(using: &generator) {
                text.insert(".", at: text.index(text.startIndex, offsetBy: Int.random(in: 1..<digits, using: &generator)))
            }
            if Bool.random(using: &generator) { text = "-" + text }
            #expect(Double(decimal: text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test("plist keys fold as they are compared: the same matches as folding them first")
    func foldedKeys() {
        let keys = ["audioFileName", "audio_file_name", "Audio File Name", "AUDIO-FILE-NAME", "audioFile", "audiofilenamex", "", "_", "Entry Text",
                    "entrytext", "Émile", "émile", "lat", "Lat", "latitude"]
        for key in keys {
            for wanted in keys where wanted.utf8.allSatisfy({ $0 < 0x80 }) {
                let folded = Array(PropertyListValue.folded(wanted).utf8)
                #expect(PropertyListValue.matches(key, ascii: wanted) == PropertyListValue.matches(key, folded: folded), "\(key) / \(wanted)")
            }
        }
        let record = PropertyListValue.dictionary([("Audio_File_Name", .string("a.m4a")), ("lat", .integer(1))])
        #expect(record["audioFileName"] == .string("a.m4a") && record["AUDIO FILE NAME"] == .string("a.m4a"))
        #expect(record["LAT"] == .integer(1) && record["latitude"] == nil && record["la"] == nil)
    }
}

extension ExportReaderSpeedPathsTests {
    @Test("FoldedKeys finds what the subscript finds: the first match in file order, long and non-ASCII keys too")
    func foldedKeysIndex() {
        let long = "a_very_long_key_name_past_sixteen"
        let record = PropertyListValue.dictionary([
            ("Lat", .integer(1)), ("lat", .integer(2)), ("Audio File-Name", .string("a")), (long, .integer(3)), ("Émile", .integer(4)), ("Place Name", .string("p")),
        ])
        let keys = FoldedKeys(record)
        for wanted in ["lat", "LAT", "latitude", "audioFileName", "audio_file_name", "AVeryLongKeyNamePastSixteen", long, "Émile", "émile", "placeName", "", "x"] {
            #expect(keys[wanted] == record[wanted], "\(wanted)")
        }
        #expect(keys["lat"] == .integer(1) && keys.first(["latitude", "lat"]) == .integer(1) && keys.first(["nope"]) == nil)
    }
}
