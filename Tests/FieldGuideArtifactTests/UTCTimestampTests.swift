import FieldGuideCore
import Foundation
import Testing

@Suite("UTCTimestamp: the pipeline's timestamps without Foundation's formatters")
struct UTCTimestampTests {
    /// Foundation's formatters, the forms `UTCTimestamp` replaced.
    private static func foundationISO8601(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    private static let compactFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter
    }()

    @Test("every day from 1890 to 2110, at a time of day that moves, writes and reads as Foundation's formatters do")
    func agreesWithFoundation() {
        let iso = ISO8601DateFormatter()
        iso.timeZone = TimeZone(identifier: "UTC")
        var mismatches: [String] = []
        var second: Int64 = 0
        for day in Int64(-29_220)...Int64(51_134) {  // 1890-01-01 … 2109-12-31
            second = (second &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407) & 0xFFFF_FFFF
            let seconds = day * 86_400 + Int64(second % 86_400)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let expected = iso.string(from: date)
            let written = UTCTimestamp.iso8601(secondsSince1970: seconds)
            if written != expected { mismatches.append("\(seconds): \(written) against \(expected)") }
            if UTCTimestamp.secondsSince1970(expected) != seconds { mismatches.append("read \(expected)") }
            if day % 97 == 0, UTCTimestamp.compact(date) != Self.compactFormatter.string(from: date) {
                mismatches.append("compact \(seconds)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("the edges: the epoch, leap days, the last second of a year, before 1970, fractions of a second")
    func edges() {
        #expect(UTCTimestamp.iso8601(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
        #expect(UTCTimestamp.iso8601(secondsSince1970: -1) == "1969-12-31T23:59:59Z")
        #expect(UTCTimestamp.iso8601(secondsSince1970: 951_782_400) == "2000-02-29T00:00:00Z")
        #expect(UTCTimestamp.iso8601(secondsSince1970: 1_735_689_599) == "2024-12-31T23:59:59Z")
        #expect(UTCTimestamp.iso8601(secondsSince1970: 1_795_144_500) == Self.foundationISO8601(1_795_144_500))
        #expect(UTCTimestamp.compact(secondsSince1970: 1_795_144_500) == "20261120T031500Z")
        // A fraction is dropped, as the formatters drop it, before 1970 too.
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: 1.75)) == "1970-01-01T00:00:01Z")
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59Z")
        #expect(UTCTimestamp.iso8601(secondsSince1970: -11_676_096_000) == Self.foundationISO8601(-11_676_096_000))  // 1600-01-01
    }

    @Test("reads an offset the way ISO 8601 means it, and refuses what is not a date-time")
    func reading() {
        #expect(UTCTimestamp.secondsSince1970("2026-11-20T04:15:00+01:00") == 1_795_144_500)
        #expect(UTCTimestamp.secondsSince1970("2026-11-19T22:45:00-04:30") == 1_795_144_500)
        #expect(UTCTimestamp.secondsSince1970("2026-11-20t03:15:00z") == 1_795_144_500)
        #expect(UTCTimestamp.date("2000-02-29T12:00:00Z") == Date(timeIntervalSince1970: 951_825_600))
        for text in ["", "2026-11-20", "2026-11-20T03:15:00", "2026-11-20 03:15:00Z", "2026-02-29T00:00:00Z",
                     "1900-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-04-31T00:00:00Z",
                     "2026-11-20T24:00:00Z", "2026-11-20T03:60:00Z", "2026-11-20T03:15:60Z", "2026-11-20T03:15:00+1:00",
                     "2026-11-20T03:15:00+24:00", "２026-11-20T03:15:00Z", "2026-11-20T03:15:00.5Z", "20261120T031500Z"] {
            #expect(UTCTimestamp.secondsSince1970(text) == nil, "\(text)")
        }
    }
}
