import FieldGuideBirds
import Foundation
import Testing

@Suite("ReferenceDate: seed-file dates (seconds since 2001) as ISO 8601")
struct ReferenceDateTests {
    private static func foundation(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: (seconds + ReferenceDate.unixOffset).rounded(.down)))
    }

    @Test("the same text as Foundation's formatter: modern dates, fractions, before 2001, the calendar's edges, and values no date has")
    func agreesWithFoundation() {
        var values: [Double] = [0, 750_038_400, 750_038_400.999, -0.5, -978_307_200, -13_190_860_800, 252_423_993_599,
                                -13_190_860_801, 1e12, -1e12, 1e300, .infinity, -.infinity, .nan]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(Double(Int64(bitPattern: x) % 4_000_000_000) + Double(x & 0xFF) / 256)
        }
        let mismatches = values.filter { ReferenceDate.iso8601($0) != Self.foundation($0) }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map { "\($0): \(ReferenceDate.iso8601($0)) against \(Self.foundation($0))" })")
        #expect(ReferenceDate.iso8601(750_038_400) == "2024-10-08T00:00:00Z")
    }
}
