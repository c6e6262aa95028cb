import FieldGuideDiagnostics
import Testing

@Suite("LocatedError's text: file names and found values on one line, control characters escaped")
struct LocatedErrorTextTests {
    @Test("line breaks, tabs, escape and DEL are escaped in the location and the found value; other text is kept")
    func escapes() {
        let error = LocatedError(.malformed, file: "a\nb\u{1B}[2J.gpx", line: 3, column: 7, field: "lat",
                                 expected: "a number", found: "1\t2\r\u{7F}é", message: "not a latitude")
        #expect(error.location == "a\\nb\\u{1B}[2J.gpx:3:7")
        #expect(error.description == "a\\nb\\u{1B}[2J.gpx:3:7: lat: not a latitude (expected a number; found 1\\t2\\r\\u{7F}é)")
        #expect(LocatedError.visible("Köln · 北京 ✈︎") == "Köln · 北京 ✈︎")
        #expect(LocatedError.visible("") == "")
        // Text laid out in lines (fieldguide's output) keeps its line feeds and tabs only.
        #expect(LocatedError.visible("Owner\tA\u{1B}[2J\r\nCity\tB", keepingLines: true) == "Owner\tA\\u{1B}[2J\\r\nCity\tB")
    }

    @Test("a long found value is cut at 77 characters before it is escaped")
    func shortenedThenEscaped() {
        let text = String(repeating: "x", count: 76) + "\n" + String(repeating: "y", count: 10)
        #expect(LocatedError.shortened(text) == String(repeating: "x", count: 76) + "\\n...")
    }
}
