import FieldGuideDiagnostics
@testable import FieldGuideExports
import Testing

/// `ObservationTime.zulu` (the GPX form read at fixed offsets) against the scanner it short-cuts:
/// where it answers, the scanner gives the same time; where it does not, `iso8601` gives the
/// scanner's own result or error.
@Suite("ObservationTime's Zulu fast path")
struct ObservationTimeFastPathTests {
    /// The fast path's answer is the scanner's, and `iso8601` is the scanner: value or message.
    func check(_ text: String) {
        let scanned: Result<ObservationTime, LocatedError> = Result { () throws(LocatedError) in try ObservationTime.scanned(text) }
        let public_: Result<ObservationTime, LocatedError> = Result { () throws(LocatedError) in try ObservationTime.iso8601(text) }
        if let fast = ObservationTime.zulu(text) { #expect(fast == (try? scanned.get()), "\(text)") }
        #expect(ObservationTime.isISO8601(text) == ((try? public_.get()) != nil), "\(text)")
        switch (scanned, public_) {
        case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
        case (.failure(let a), .failure(let b)): #expect(a.message == b.message && a.found == b.found, "\(text)")
        default: Issue.record("\(text): \(scanned) vs \(public_)")
        }
    }

    @Test("Edge cases: leap days and seconds, fractions, the forms it leaves to the scanner")
    func edges() {
        let taken = ["2024-05-01T00:00:01Z", "2024-02-29T23:59:60Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2000-02-29T12:00:00.5Z",
                     "2021-03-24T13:07:29.123456789012345678901234567890Z"]
        for text in taken {
            #expect(ObservationTime.zulu(text) != nil, "\(text)")
            check(text)
        }
        #expect(ObservationTime.zulu("2024-05-01T00:00:01Z")?.local == "2024-05-01T00:00:01")
        let left = ["2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-04-31T00:00:00Z",
                    "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:61Z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00,5Z",
                    "2024-01-01 00:00:00Z", "2024-01-01T00:00Z", "2024-01-01T00:00:00+01:00", "2024-01-01T00:00:00", "2024-01-01T00:00:00z",
                    "2024-01-01T00:00:00.5xZ", "+024-01-01T00:00:00Z", "2024-01-01T00:00:0\u{0661}Z", "2024-01-01T00:00:00ZZ", "", "2024", "2024-05"]
        for text in left {
            #expect(ObservationTime.zulu(text) == nil, "\(text)")
            check(text)
        }
    }

    @Test("20,000 random times, valid and mutated, agree with the scanner")
    func random() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789-T:.Z+ ,x")
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        for _ in 0..<20_000 {
            let year = Int.random(in: 0...9999, using: &generator)
            var text = String(repeating: "0", count: 4 - String(year).count) + "\(year)-\(two(.random(in: 0...13, using: &generator)))-\(two(.random(in: 0...32, using: &generator)))"
            text += "T\(two(.random(in: 0...24, using: &generator))):\(two(.random(in: 0...60, using: &generator))):\(two(.random(in: 0...61, using: &generator)))"
            if Bool.random(using: &generator) { text += "." + String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet[.random(in: 0...9, using: &generator)] }) }
            text += "Z"
            var bytes = Array(text)
            if Int.random(in: 0..<4, using: &generator) == 0 {
                bytes[.random(in: 0..<bytes.count, using: &generator)] = alphabet.randomElement(using: &generator)!
            }
            check(String(bytes))
        }
    }
}
